// The lab's own validator (src/engine/schemaKit.ts) against zod: the experiment's, the scenario
// files' and the presets' schemas, each built once with the kit (as the page runs them) and once
// with zod/mini (as the published JSON Schema is made), must give the same result for every input:
// the same output, key order included, or the same issues, with the same paths and messages.
// Inputs: every game day and preset file as written, then each of them and a set of experiments
// bent at random (a field replaced by an odd value, removed, or joined by an unknown one), and
// values of any shape.
import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as zm from 'zod/mini';
import { ALGORITHM_KINDS, experimentSchemas } from '../../src/engine';
import { z as kit } from '../../src/engine/schemaKit';
import { schemaMessage } from '../../src/engine/zodErrors';
import { scenarioSchemas } from '../../src/scenario/schema';
import { presetSchemas } from '../../src/presets/schema';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_206);

type Parser = { safeParse(v: unknown): unknown };
function schemasOf(z: typeof kit): Record<string, Parser> {
  const { experimentSchema, faultSchema } = experimentSchemas(z, ALGORITHM_KINDS);
  const { scenarioSchema, claimsSchema } = scenarioSchemas(z);
  const { presetSchema } = presetSchemas(z, claimsSchema);
  return { experimentSchema, faultSchema, scenarioSchema, presetSchema };
}
const OURS = schemasOf(kit);
const ZODS = schemasOf(zm);

/** A result as text that keeps what toEqual would not: key order, undefined values, NaN. */
function shown(result: unknown): string {
  const r = result as {
    success: boolean;
    data?: unknown;
    error?: { issues: { code: string; path: PropertyKey[]; message: string; keys?: unknown }[] };
  };
  const value = r.success
    ? { data: r.data }
    : {
        issues: r.error?.issues.map((i) => ({
          code: i.code,
          path: i.path.map(String),
          message: i.message,
          keys: i.keys,
        })),
      };
  return JSON.stringify(value, (_k, v: unknown) =>
    v === undefined ? '(undefined)' : typeof v === 'number' && !Number.isFinite(v) ? String(v) : v,
  );
}

function same(schema: string, input: unknown): void {
  const ours = shown(OURS[schema].safeParse(input));
  const zods = shown(ZODS[schema].safeParse(input));
  expect(ours, `${schema} on ${JSON.stringify(input)}`).toBe(zods);
}

const files = (dir: string): unknown[] => {
  const path = new URL(`../../scenes/${dir}/`, import.meta.url).pathname;
  return readdirSync(path)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(path + f, 'utf8')) as unknown);
};
const SCENARIOS = files('scenarios');
const PRESETS = files('presets');
const EXPERIMENTS: unknown[] = [
  {},
  ...SCENARIOS.map((s) => (s as { experiment: unknown }).experiment),
  ...PRESETS.map((p) => (p as { experiment: unknown }).experiment),
  { algorithm: 'k8s-lease', lease: { durationMs: 15000, renewDeadlineMs: 10000, retryPeriodMs: 2000 } },
  {
    faults: [
      {
        atMs: 0,
        do: 'partition',
        groups: [
          ['n1', 'n2'],
          ['n3', 'storage'],
        ],
      },
    ],
  },
  {
    faults: [
      { atMs: 5, do: 'safety', quorum: false, fencing: true },
      { atMs: 6, do: 'heal' },
    ],
  },
];

/** Values that make schemas fail in every way they can. */
const ODD = fc.constantFrom<unknown>(
  undefined,
  null,
  0,
  -1,
  1.5,
  1e20,
  -1e20,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  '',
  'x',
  'n1',
  'kill',
  'leader',
  '\u{1F600}',
  true,
  false,
  [],
  [1],
  {},
  { extra: 1 },
  Array.from({ length: 201 }, () => 'a').join(''),
);

type Json = Record<string, unknown> | unknown[];
/** Every path into a value, objects' keys and arrays' indices. */
function paths(v: unknown, at: (string | number)[] = []): (string | number)[][] {
  if (v === null || typeof v !== 'object') return [at];
  const keys: (string | number)[] = Array.isArray(v) ? v.map((_x, i) => i) : Object.keys(v);
  return [at, ...keys.flatMap((k) => paths((v as Record<string | number, unknown>)[k], [...at, k]))];
}
/** The value with the thing at `path` replaced (undefined deletes it), or a key added there. */
function bent(v: unknown, path: (string | number)[], what: 'set' | 'delete' | 'add', odd: unknown): unknown {
  const copy = structuredClone(v) as Json;
  if (path.length === 0) return what === 'set' ? odd : copy;
  const parent = path
    .slice(0, -1)
    .reduce<unknown>((o, k) => (o as Record<string | number, unknown>)[k], copy) as
    Record<string | number, unknown> | unknown[];
  const last = path[path.length - 1];
  const target = (parent as Record<string | number, unknown>)[last];
  if (what === 'add' && target !== null && typeof target === 'object' && !Array.isArray(target))
    (target as Record<string, unknown>).surprise = odd;
  else if (what === 'delete' && !Array.isArray(parent)) delete parent[last as string];
  else (parent as Record<string | number, unknown>)[last] = odd;
  return copy;
}
const bending = (base: unknown) =>
  fc
    .tuple(fc.integer({ min: 0, max: 10_000 }), fc.constantFrom('set', 'delete', 'add'), ODD, fc.nat(3))
    .map(([pick, what, odd, more]) => {
      let v = base;
      for (let i = 0; i <= more; i++) {
        const all = paths(v);
        v = bent(v, all[(pick + i * 7) % all.length], what as 'set' | 'delete' | 'add', odd);
      }
      return v;
    });

describe("the lab's validator gives zod's results", () => {
  // zod's messages are the lab's English (zodErrors.ts), as they are wherever zod validates here.
  beforeAll(() => zm.config({ localeError: schemaMessage }));
  afterAll(() => zm.config({ localeError: schemaMessage }));

  it('on every game day and preset file, and the experiments they hold', () => {
    for (const s of SCENARIOS) same('scenarioSchema', s);
    for (const p of PRESETS) same('presetSchema', p);
    for (const e of EXPERIMENTS) same('experimentSchema', e);
  });

  it('on experiments, faults, game days and presets bent at random', () => {
    const cases: [string, unknown[]][] = [
      ['experimentSchema', EXPERIMENTS],
      ['scenarioSchema', SCENARIOS],
      ['presetSchema', PRESETS],
    ];
    for (const [schema, bases] of cases)
      fc.assert(
        fc.property(
          fc.constantFrom(...bases).chain((b) => bending(b)),
          (input) => same(schema, input),
        ),
        { seed: SEED, numRuns: RUNS },
      );
    fc.assert(
      fc.property(bending({ atMs: 1000, do: 'pause', node: 'n1', forMs: 500 }), (input) =>
        same('faultSchema', input),
      ),
      { seed: SEED, numRuns: RUNS },
    );
  });

  it('on values of any shape', () => {
    for (const schema of Object.keys(OURS))
      fc.assert(
        fc.property(fc.anything({ withNullPrototype: true }), (input) => same(schema, input)),
        { seed: SEED, numRuns: RUNS },
      );
  });

  it('on a fault list past its bound, which fails on its length alone', () => {
    same('experimentSchema', { faults: Array.from({ length: 10_001 }, () => ({ do: 'heal' })) });
  });
});
