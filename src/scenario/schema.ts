// Scenario files are validated like experiments: a bad file is reported by field, never run.
// Written against zod/mini's API and run on the lab's own validator, as the experiment's schemas
// are (src/engine/schemaKit.ts, which also gives their English messages).
import { MESSAGE_FAMILIES, parseExperiment, type FieldError } from '../engine';
import { z as kit, type SchemaKit } from '../engine/schemaKit';
import { METRIC_NAMES, type Scenario } from './types';
import { GROUP_IDS } from './groups';
import { fillSettings, unknownSettings } from './settings';

/** The scenario file's schemas, built with `z` (the lab's kit on the page; zod/mini in Node). */
export function scenarioSchemas(z: SchemaKit) {
  const metric = z.enum(METRIC_NAMES);
  const ROLES = ['leader', 'candidate', 'follower'] as const;
  const nodeState = z.enum(['dead', ...ROLES, ...ROLES.map((r) => `paused ${r}` as const)]);
  /** What a caption asserts about its moment (types.ts Claims); presets' game days use it too. */
  const claimsSchema = z.strictObject({
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

  const scenarioSchema = z.strictObject({
    id: z.string().check(z.regex(/^[a-z0-9-]+$/, 'use lowercase letters, digits and dashes')),
    title: text,
    description: z.string().check(z.minLength(1), z.maxLength(200)),
    // Where the picker lists it (groups.ts).
    group: z.enum(GROUP_IDS),
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
          // Numbers the caption quotes from outside the run, each with where it comes from.
          quoted: z.optional(z.record(z.string().check(z.regex(/^\d+(?:\.\d+)?$/, 'a number')), text)),
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
          spacetime: z.optional(
            z.strictObject({
              families: z.optional(z.array(z.enum(MESSAGE_FAMILIES)).check(z.minLength(1))),
              lanes: z.optional(z.array(text).check(z.minLength(1))),
            }),
          ),
          until: z.optional(condition),
          timeoutMs: z.optional(z.int().check(z.minimum(1))),
        }),
      )
      .check(z.minLength(1)),
  });
  return { claimsSchema, scenarioSchema };
}

export const { claimsSchema, scenarioSchema } = scenarioSchemas(kit);

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
  // A caption's settings are the experiment's: filled now, and a name it lacks is an error.
  const scenario = r.data as Scenario;
  const unknown = scenario.steps.flatMap((step, i) =>
    unknownSettings(step.caption, e.experiment).map((path) => ({
      field: `steps.${i}.caption`,
      message: `names {setting:${path}}, which the experiment does not have`,
    })),
  );
  if (unknown.length) return { ok: false, errors: unknown };
  return {
    ok: true,
    scenario: {
      ...scenario,
      steps: scenario.steps.map((step) => ({ ...step, caption: fillSettings(step.caption, e.experiment) })),
    },
  };
}
