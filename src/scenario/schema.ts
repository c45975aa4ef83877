// Scenario files are validated like experiments: a bad file is reported by field, never run. Written against
// zod/mini's API and run on the lab's own validator, as the experiment's schemas are (engine/schemaKit.ts).
import { MESSAGE_FAMILIES, parseExperiment, type FieldError } from '../engine';
import { z as kit, type SchemaKit } from '../engine/schemaKit';
import { METRIC_NAMES, VIEWS, type Scenario } from './types';
import { GROUP_IDS } from './groups';
import { fillSettings, unknownSettings } from './settings';

/** The scenario file's schemas, built with `z` (the lab's kit on the page; zod/mini in Node). */
export function scenarioSchemas(z: SchemaKit) {
  const metric = z.enum(METRIC_NAMES);
  const ROLES = ['leader', 'candidate', 'follower'] as const;
  const nodeState = z.enum(['dead', ...ROLES, ...ROLES.map((r) => `paused ${r}` as const)]);
  // The facts a caption asserts at the step's pause, checked against the snapshot there (claims.ts; presets'
  // game days use it too). Only what the words say: a caption that names no leader claims none.
  const claimsSchema = z.strictObject({
    /** The leader the lab follows (the banner's and the chain's), or null for none. */
    leader: z.optional(z.nullable(z.string())),
    /** Every alive node that believes it leads, paused ones included. */
    believedLeaders: z.optional(z.array(z.string())),
    /** Nodes by state: "dead", "paused leader", "candidate", ... */
    nodes: z.optional(z.record(z.string(), nodeState)),
    /** leaderCount (believed), leaderCountObserved, counters, maxTokenSeen, violations, failovers. */
    metrics: z.optional(z.partialRecord(metric, z.number())),
    /** The chart's client view of the last second: writes served, only failures, or nothing sent. */
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
    /** The simulated clock reached atMs. */
    z.strictObject({ atMs: nonNegativeInt }),
    /** afterMs of simulated time passed since the step began. */
    z.strictObject({ afterMs: nonNegativeInt }),
    /** An event of this type (with these field values) happened since the step began. */
    z.strictObject({
      event: eventType,
      where: z.optional(z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]))),
    }),
    /** A snapshot metric compares to a value. */
    z.strictObject({ metric, op: z.enum(['>=', '<=', '==', '>', '<']), value: z.number() }),
  ]);

  const scenarioSchema = z.strictObject({
    id: z.string().check(z.regex(/^[a-z0-9-]+$/, 'use lowercase letters, digits and dashes')),
    title: text,
    /** One line for the picker. */
    description: z.string().check(z.minLength(1), z.maxLength(200)),
    /** The picker's group it is listed under (groups.ts). */
    group: z.enum(GROUP_IDS),
    /** What it teaches, in a sentence or two (docs, summary). */
    teaches: text,
    /** Another game day that tells the same story another way: the panel links to it. */
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
          /** True at the step's pause; `{name}` from the run, `{setting:path}` at load (settings.ts). */
          caption: text,
          /** Numbers quoted from outside the run, each with its source; other digits are placeholders'. */
          quoted: z.optional(z.record(z.string().check(z.regex(/^\d+(?:\.\d+)?$/, 'a number')), text)),
          /** What the caption asserts, checked against the snapshot at the pause. */
          claims: z.optional(claimsSchema),
          watch: z.optional(z.strictObject({ view: z.enum(VIEWS), element: z.optional(z.string()) })),
          /** Space-time filter (families, lanes) for this step; the reader's ticks win till the next step. */
          spacetime: z.optional(
            z.strictObject({
              families: z.optional(z.array(z.enum(MESSAGE_FAMILIES)).check(z.minLength(1))),
              lanes: z.optional(z.array(text).check(z.minLength(1))),
            }),
          ),
          /** When the step ends. Without it the step ends at once (a caption to read). */
          until: z.optional(condition),
          /** Give up waiting after this long (simulated), so a step can never hang. Default 120 s. */
          timeoutMs: z.optional(z.int().check(z.minimum(1))),
        }),
      )
      .check(z.minLength(1)),
  });
  return { claimsSchema, scenarioSchema };
}

export const { claimsSchema, scenarioSchema } = scenarioSchemas(kit);

/** A file's schema issues as bad fields, each by its path ("(root)": the file as a whole). */
export const issueErrors = (issues: readonly { path: PropertyKey[]; message: string }[]): FieldError[] =>
  issues.map((i) => ({ field: i.path.join('.') || '(root)', message: i.message }));

/** Errors of a part of a file (its experiment, its game day), each field named from the file's top. */
export const errorsIn = (part: string, errors: readonly FieldError[]): FieldError[] =>
  errors.map((x) => ({ field: `${part}.${x.field}`, message: x.message }));

export function parseScenario(
  input: unknown,
): { ok: true; scenario: Scenario } | { ok: false; errors: FieldError[] } {
  const r = scenarioSchema.safeParse(input);
  if (!r.success) return { ok: false, errors: issueErrors(r.error.issues) };
  const e = parseExperiment(r.data.experiment);
  if (!e.ok) return { ok: false, errors: errorsIn('experiment', e.errors) };
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
