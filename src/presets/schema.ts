// "Seen in the wild": real systems' leader elections as data, each with its default timings, a source for
// every number and a game day showing its lesson. A bad file is reported by field, never applied.
import {
  SETTINGS_SECTIONS,
  parseExperiment,
  type Experiment,
  type ExperimentInput,
  type FieldError,
} from '../engine';

import type * as zm from 'zod/mini';
import { z as kit, type SchemaKit } from '../engine/schemaKit';
import { claimsSchema, errorsIn, issueErrors, scenarioSchemas } from '../scenario/schema';

/** The preset file's schema, built with `z` (the lab's kit on the page; zod/mini in Node) as are `claims`. */
export function presetSchemas(z: SchemaKit, claims: ReturnType<typeof scenarioSchemas>['claimsSchema']) {
  const text = z.string().check(z.minLength(1));

  const presetSchema = z.strictObject({
    id: z.string().check(z.regex(/^[a-z0-9-]+$/, 'use lowercase letters, digits and dashes')),
    /** The system, as people name it. */
    system: text,
    /** One sentence: the failure or defence the system is known for. */
    lesson: text,
    /** What serves as its fencing token, or null when it has none. */
    token: z.nullable(text),
    /** How the lab maps the system's settings onto its own, where they differ in name or meaning. */
    model: z.optional(text),
    /** The setup: an experiment without faults, with the system's default timings. */
    experiment: z.unknown(),
    /** A source for every setting of the algorithm's section, by dotted path ("lease.durationMs"). */
    sources: z.record(z.string(), text),
    /** The short game day: faults on top of the setup, and how long to run. */
    gameDay: z.strictObject({
      shows: text,
      faults: z.array(z.unknown()).check(z.minLength(1)),
      untilMs: z.int().check(z.minimum(1)),
      /** What `shows` asserts about the run's end, checked against it (src/scenario/claims.ts). */
      claims: z.optional(claims),
    }),
  });
  return { presetSchema };
}

export const { presetSchema } = presetSchemas(kit, claimsSchema);

/** A preset as its file gives it, its setup an experiment's input. */
export type Preset = Omit<zm.output<typeof presetSchema>, 'experiment'> & { experiment: ExperimentInput };

/** Dotted paths of the values set in the experiment's algorithm settings (every section), as written. */
export function settingPaths(experiment: ExperimentInput): string[] {
  const e = experiment as Record<string, unknown>;
  return SETTINGS_SECTIONS.flatMap((section) => {
    const v = e[section];
    return v && typeof v === 'object' ? Object.keys(v).map((k) => `${section}.${k}`) : [];
  });
}

/** The preset's setup with its game day's faults and length: the experiment the game day runs. */
export function gameDayExperiment(p: Preset): ExperimentInput {
  return { ...p.experiment, faults: p.gameDay.faults, untilMs: p.gameDay.untilMs } as ExperimentInput;
}

export function parsePreset(
  input: unknown,
): { ok: true; preset: Preset; setup: Experiment } | { ok: false; errors: FieldError[] } {
  const r = presetSchema.safeParse(input);
  if (!r.success) return { ok: false, errors: issueErrors(r.error.issues) };
  const p = r.data as Preset;
  const errors: FieldError[] = [];
  const raw = (p.experiment ?? {}) as Record<string, unknown>;
  if (typeof raw.algorithm !== 'string')
    errors.push({ field: 'experiment.algorithm', message: 'a preset names its algorithm' });
  if (raw.faults !== undefined)
    errors.push({ field: 'experiment.faults', message: 'the setup has no faults (they belong in gameDay)' });
  const setup = parseExperiment(p.experiment);
  if (!setup.ok) errors.push(...errorsIn('experiment', setup.errors));
  for (const path of settingPaths(p.experiment))
    if (!p.sources[path])
      errors.push({ field: `sources.${path}`, message: 'every setting names its source' });
  for (const path of Object.keys(p.sources))
    if (!settingPaths(p.experiment).includes(path) && path !== 'nodes')
      errors.push({ field: `sources.${path}`, message: 'names a setting the preset does not set' });
  const day = parseExperiment(gameDayExperiment(p));
  if (setup.ok && !day.ok) errors.push(...errorsIn('gameDay', day.errors));
  if (errors.length || !setup.ok) return { ok: false, errors };
  return { ok: true, preset: p, setup: setup.experiment };
}
