// Writes docs/experiment.schema.json, the JSON Schema of the experiment format, from the engine's
// schema built with zod (the engine runs the same schema on its own validator, src/engine/
// schemaKit.ts), so the published schema cannot drift from what the engine accepts.
//   npm run gen:schema            write the file
//   npm run gen:schema -- --check exit 1 if the committed file is out of date
// tests/unit/schema.test.ts runs the same comparison as part of `npm test`.
// Every algorithm's rules: this runs in Node (or a worker), with no page to load them on demand.
import '../src/engine/algorithms/all';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import * as z from 'zod/mini';
import { ALGORITHM_KINDS, experimentSchemas } from '../src/engine';

export const SCHEMA_PATH = fileURLToPath(new URL('../docs/experiment.schema.json', import.meta.url));

/** The schema of what a user may write (io: 'input': every field optional, defaults shown). */
export function experimentJsonSchema(): Record<string, unknown> {
  const { experimentSchema } = experimentSchemas(z, ALGORITHM_KINDS);
  const { $schema, ...rest } = z.toJSONSchema(experimentSchema, { io: 'input' }) as Record<string, unknown>;
  return {
    $schema,
    title: 'Leader Election Lab experiment',
    description:
      'Input of the simulation engine, the CLI (npm run sim) and the page. Every field is optional; ' +
      'defaults are filled in. Rules a JSON Schema cannot express, also enforced: ' +
      'lease.durationMs > lease.renewDeadlineMs > 1.2 x lease.retryPeriodMs > 0 (Kubernetes); ' +
      'network.delayMsMax >= network.delayMsMin; every node a fault names exists in the cluster ' +
      '(n1..n<nodes>, "w" only with witness: true, or "leader"); a node is in at most one partition ' +
      'group; the witness never campaigns. See docs/experiment.md.',
    ...rest,
  };
}

/** The file's text, formatted as `npm run format` would leave it. */
export async function schemaText(): Promise<string> {
  const options = (await resolveConfig(SCHEMA_PATH)) ?? {};
  return format(JSON.stringify(experimentJsonSchema()), { ...options, parser: 'json' });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv.includes('--check')) {
    const current = readFileSync(SCHEMA_PATH, 'utf8');
    if (JSON.stringify(JSON.parse(current)) !== JSON.stringify(experimentJsonSchema())) {
      console.error('docs/experiment.schema.json is out of date: run `npm run gen:schema`');
      process.exit(1);
    }
    console.log('docs/experiment.schema.json is up to date');
  } else {
    writeFileSync(SCHEMA_PATH, await schemaText());
    console.log('wrote docs/experiment.schema.json');
  }
}
