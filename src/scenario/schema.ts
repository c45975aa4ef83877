// Scenario files are validated like experiments: a bad file is reported by field, never run.
// zod/mini, as in the engine's experiment schema (which also sets up its English messages).
import * as z from 'zod/mini';
import { parseExperiment, type FieldError } from '../engine';
import { METRIC_NAMES, type Scenario } from './types';

const metric = z.enum(METRIC_NAMES);
const ROLES = ['leader', 'candidate', 'follower'] as const;
const nodeState = z.enum(['dead', ...ROLES, ...ROLES.map((r) => `paused ${r}` as const)]);
/** What a caption asserts about its moment (types.ts Claims); presets' game days use it too. */
export const claimsSchema = z.strictObject({
  leader: z.optional(z.nullable(z.string())),
  believedLeaders: z.optional(z.array(z.string())),
  nodes: z.optional(z.record(z.string(), nodeState)),
  metrics: z.optional(z.partialRecord(metric, z.number())),
  clients: z.optional(z.enum(['served', 'unavailable', 'idle'])),
});
const eventType = z.enum([
  'fault',
  'campaign',
  'elected',
  'steppedDown',
  'write',
  'clientWrite',
  'ready',
  'lost',
  'survived',
  'resumed',
  'resynced',
  'violation',
]);
const nonNegativeInt = z.int().check(z.minimum(0));
const text = z.string().check(z.minLength(1));

const condition = z.union([
  z.strictObject({ atMs: nonNegativeInt }),
  z.strictObject({ afterMs: nonNegativeInt }),
  z.strictObject({
    event: eventType,
    where: z.optional(z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))),
  }),
  z.strictObject({ metric, op: z.enum(['>=', '<=', '==', '>', '<']), value: z.number() }),
]);

export const scenarioSchema = z.strictObject({
  id: z.string().check(z.regex(/^[a-z0-9-]+$/, 'use lowercase letters, digits and dashes')),
  title: text,
  description: z.string().check(z.minLength(1), z.maxLength(200)),
  teaches: text,
  // Another game day that tells the same story another way, linked from the panel.
  compare: z.optional(
    z.strictObject({
      scenario: z
        .string()
        .check(z.regex(/^[a-z0-9-]+$/, 'a scenario id: lowercase letters, digits and dashes')),
      why: text,
    }),
  ),
  experiment: z.unknown(),
  steps: z
    .array(
      z.strictObject({
        caption: text,
        claims: z.optional(claimsSchema),
        watch: z.optional(
          z.strictObject({
            view: z.enum([
              'cluster',
              'chain',
              'metric',
              'storage',
              'log',
              'failover',
              'queue',
              'leaderless',
              'banner',
            ]),
            element: z.optional(z.string()),
          }),
        ),
        until: z.optional(condition),
        timeoutMs: z.optional(z.int().check(z.minimum(1))),
      }),
    )
    .check(z.minLength(1)),
});

export function parseScenario(
  input: unknown,
): { ok: true; scenario: Scenario } | { ok: false; errors: FieldError[] } {
  const r = scenarioSchema.safeParse(input);
  if (!r.success) {
    return {
      ok: false,
      errors: r.error.issues.map((i) => ({ field: i.path.join('.') || '(root)', message: i.message })),
    };
  }
  const e = parseExperiment(r.data.experiment);
  if (!e.ok)
    return {
      ok: false,
      errors: e.errors.map((x) => ({ field: `experiment.${x.field}`, message: x.message })),
    };
  return { ok: true, scenario: r.data as Scenario };
}
