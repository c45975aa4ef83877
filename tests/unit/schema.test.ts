// The published JSON Schema (docs/experiment.schema.json) must match the engine's zod schema.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_PATH, experimentJsonSchema } from '../../scripts/gen-schema';

describe('docs/experiment.schema.json', () => {
  it('is up to date with the engine (regenerate with `npm run gen:schema`)', () => {
    const committed = JSON.parse(readFileSync(SCHEMA_PATH, 'utf8'));
    expect(committed, 'docs/experiment.schema.json is out of date: run `npm run gen:schema`').toEqual(
      experimentJsonSchema(),
    );
  });

  it('documents the defaults of the contract', () => {
    const schema = experimentJsonSchema() as {
      required?: string[];
      properties: Record<string, { default?: unknown; properties?: Record<string, { default?: unknown }> }>;
    };
    // Every field is optional.
    expect(schema.required ?? []).toEqual([]);
    expect(schema.properties.nodes.default).toBe(5);
    expect(schema.properties.lease.properties?.durationMs.default).toBe(15000);
    expect(schema.properties.lease.properties?.renewDeadlineMs.default).toBe(10000);
    expect(schema.properties.lease.properties?.retryPeriodMs.default).toBe(2000);
    expect(schema.properties.untilMs.default).toBe(60000);
  });
});
