// The published JSON Schema (docs/experiment.schema.json) must match the engine's zod schema.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_PATH, experimentJsonSchema } from '../../scripts/gen-schema';
import { parseExperiment, runExperiment } from '../../src/engine';

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

// docs/experiment.md shows example experiments (```json experiment blocks) and an example trace
// (a ```json trace block, with routine writes left out). Keep them valid and keep the trace's
// field names those the engine really writes.
describe('docs/experiment.md', () => {
  const doc = readFileSync(new URL('../../docs/experiment.md', import.meta.url), 'utf8');
  const blocks = (tag: string) =>
    [...doc.matchAll(new RegExp('```json ' + tag + '\\n([\\s\\S]*?)```', 'g'))].map((m) => JSON.parse(m[1]));

  it('has example experiments that the engine accepts', () => {
    const experiments = blocks('experiment');
    expect(experiments.length).toBeGreaterThan(0);
    for (const e of experiments) expect(parseExperiment(e)).toMatchObject({ ok: true });
  });

  it('shows an example trace with the field names of a real one', () => {
    const [shown] = blocks('trace');
    const real = runExperiment(blocks('experiment')[0]);
    const keys = (o: object) => Object.keys(o).sort();
    expect(keys(shown)).toEqual(keys(real));
    expect(shown.experiment).toEqual(real.experiment);
    expect(keys(shown.summary)).toEqual(keys(real.summary));
    expect(keys(shown.samples[0])).toEqual(keys(real.samples[0]));
    expect(keys(shown.final.nodes[0])).toEqual(keys(real.final.nodes[0]));
    expect(keys(shown.final.storage)).toEqual(keys(real.final.storage));
    for (const e of shown.events as { type: string }[]) {
      const twin = real.events.find((r) => r.type === e.type);
      expect(twin, `a ${e.type} event`).toBeDefined();
      expect(keys(e)).toEqual(keys(twin as object));
    }
  });
});
