// Fuzzing the lab's front doors: experiment objects (files, the CLI, run links) and the page's and
// the embed's URL parameters, valid and invalid, generated at random. Whatever comes in, parsing
// never throws; the result is either a run that works (and, with the safety switches on, keeps
// every invariant) or errors that name a field or parameter that is really there.
//
// FUZZ_RUNS sets the cases per property (default 300; `npm run test:long` uses more) and
// FUZZ_SEED the fast-check seed. A failure prints the seed, the shrunk input and how to rerun it.
import fc from 'fast-check';
import { deflateSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  parseCommand,
  parseExperiment,
  runExperiment,
  type Command,
  type ExperimentInput,
} from '../../src/engine';
import { decodeRun, encodeRun, MAX_RUN_JSON_BYTES } from '../../src/app/share';
import { readPageParams } from '../../src/app/urlParams';
import { readEmbedOptions, SCENES } from '../../src/embed/sceneParam';
import { catalog } from '../../src/scenario/catalog';
import { clampSpeed, MAX_SPEED, MIN_SPEED } from '../../src/store/labStore';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20_250_214);
const OPTIONS = { seed: SEED, numRuns: RUNS };
/** ~15 ms a case on a loaded machine; generous so a long run does not trip the default. */
const TIMEOUT_MS = Math.max(60_000, RUNS * 200);
/** Simulated time each accepted experiment runs for: short, but past elections and faults. */
const RUN_MS = 20_000;

// Clocks within this band of each other: the engine orders terms for clocks within about 3x
// (docs/model.md, "Elections end in order"); wilder skew is the clock-skew scenario's lesson,
// where the checker rightly reports a violation in safe mode. The property tests use the same band.
const RATES = [0.6, 0.8, 1.25, 1.5];

/** Every field name the experiment format has, at any depth: a missing one is a real path too. */
const SCHEMA_KEYS = new Set(
  (
    'seed nodes witness lease durationMs renewDeadlineMs retryPeriodMs jitterMs network delayMsMin delayMsMax ' +
    'warmUpMs safety quorum fencing followersReject preVote workload leaderWriteEveryMs clients clientWriteEveryMs ' +
    'clientLeaderCacheMs faults untilMs sampleEveryMs limits maxEvents maxSamples atMs do node forMs groups rate transfer'
  ).split(' '),
);

function show(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    typeof v === 'number' && !Number.isFinite(v) ? String(v) : typeof v === 'bigint' ? `${v}n` : v,
  );
}

/**
 * Does a reported field name a place in the input? Either the path resolves, or all but its last
 * segment does and the last is a field of the format (a required field that is missing). Keys may
 * themselves contain dots, so each object is matched by its own keys rather than by splitting.
 */
function namesPath(input: unknown, field: string): boolean {
  if (field === '(root)') return true;
  const walk = (value: unknown, rest: string): boolean => {
    if (value === null || typeof value !== 'object') return false;
    if (Array.isArray(value)) {
      const m = /^(\d+)(?:\.(.*))?$/s.exec(rest);
      if (!m || Number(m[1]) >= value.length) return false;
      return m[2] === undefined ? true : walk(value[Number(m[1])], m[2]);
    }
    for (const key of Object.keys(value)) {
      if (rest === key) return true;
      if (
        rest.startsWith(key + '.') &&
        walk((value as Record<string, unknown>)[key], rest.slice(key.length + 1))
      )
        return true;
    }
    return !rest.includes('.') && SCHEMA_KEYS.has(rest);
  };
  return walk(input, field);
}

// ------------------------------------------------------------------ valid experiments

function nodeIds(nodes: number, witness: boolean): string[] {
  return Array.from({ length: nodes }, (_, i) => `n${i + 1}`).concat(witness ? ['w'] : []);
}

function validFaultArb(ids: string[], voters: string[]): fc.Arbitrary<Record<string, unknown>> {
  const atMs = fc.integer({ min: 0, max: RUN_MS });
  const target = fc.constantFrom(...ids, 'leader');
  const groups = fc
    .tuple(fc.shuffledSubarray([...ids, 'storage'], { minLength: 1 }), fc.integer({ min: 1, max: 3 }))
    .map(([members, count]) => {
      const gs: string[][] = Array.from({ length: Math.min(count, members.length) }, () => []);
      members.forEach((m, i) => gs[i % gs.length].push(m));
      return gs;
    });
  return fc.oneof(
    fc.record({ atMs, do: fc.constant('kill'), node: target }),
    fc.record({ atMs, do: fc.constant('restart'), node: target }),
    fc.record(
      { atMs, do: fc.constant('pause'), node: target, forMs: fc.integer({ min: 1, max: 40_000 }) },
      { requiredKeys: ['atMs', 'do', 'node'] },
    ),
    fc.record({ atMs, do: fc.constant('resume'), node: target }),
    fc.record({ atMs, do: fc.constant('partition'), groups }),
    fc.record({ atMs, do: fc.constant('heal') }),
    fc.record({ atMs, do: fc.constant('isolate'), node: target }),
    fc.record({ atMs, do: fc.constant('clockRate'), node: target, rate: fc.constantFrom(...RATES) }),
    fc.record(
      { atMs, do: fc.constant('campaign'), node: fc.constantFrom(...voters), transfer: fc.boolean() },
      { requiredKeys: ['atMs', 'do', 'node'] },
    ),
    fc.record({ atMs, do: fc.constant('write'), node: target }),
    // Switching a defence off (or back on) mid-run: what follows may break an invariant, but
    // only one that a switch allows.
    fc.record(
      {
        atMs,
        do: fc.constant('safety'),
        quorum: fc.boolean(),
        fencing: fc.boolean(),
        preVote: fc.boolean(),
        followersReject: fc.boolean(),
      },
      { requiredKeys: ['atMs', 'do'] },
    ),
  );
}

const leaseArb = fc
  .record({
    // Mostly lab-like timings, sometimes absurdly tight ones (a round every few ms).
    retry: fc.oneof(
      { arbitrary: fc.integer({ min: 50, max: 3000 }), weight: 9 },
      { arbitrary: fc.integer({ min: 1, max: 49 }), weight: 1 },
    ),
    extraDeadline: fc.integer({ min: 1, max: 8000 }),
    extraDuration: fc.integer({ min: 1, max: 10_000 }),
    jitterMs: fc.integer({ min: 0, max: 3000 }),
  })
  .map(({ retry, extraDeadline, extraDuration, jitterMs }) => {
    // Kubernetes' rule: duration > deadline > 1.2 x retry.
    const renewDeadlineMs = Math.floor(1.2 * retry) + extraDeadline;
    return { retryPeriodMs: retry, renewDeadlineMs, durationMs: renewDeadlineMs + extraDuration, jitterMs };
  });

const networkArb = fc
  .tuple(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 2000 }))
  .map(([delayMsMin, spread]) => ({ delayMsMin, delayMsMax: delayMsMin + spread }));

/** Experiments the format accepts: every field optional, every value in range. */
const validExperimentArb: fc.Arbitrary<Record<string, unknown>> = fc
  .record({
    nodes: fc.option(fc.integer({ min: 1, max: 9 }), { nil: undefined }),
    witness: fc.option(fc.boolean(), { nil: undefined }),
  })
  .chain(({ nodes, witness }) => {
    // Absent, they take their defaults (5 nodes, no witness); faults name only nodes that exist.
    const ids = nodeIds(nodes ?? 5, witness ?? false);
    const sizing = {
      ...(nodes !== undefined ? { nodes: fc.constant(nodes) } : {}),
      ...(witness !== undefined ? { witness: fc.constant(witness) } : {}),
    };
    return fc.record(
      {
        seed: fc.integer({ min: 0, max: 4294967295 }),
        ...sizing,
        lease: leaseArb,
        network: networkArb,
        warmUpMs: fc.integer({ min: 0, max: 5000 }),
        safety: fc.record(
          {
            quorum: fc.boolean(),
            fencing: fc.boolean(),
            followersReject: fc.boolean(),
            preVote: fc.boolean(),
          },
          { requiredKeys: [] },
        ),
        workload: fc.record(
          {
            leaderWriteEveryMs: fc.integer({ min: 10, max: 5000 }),
            clients: fc.integer({ min: 0, max: 20 }),
            clientWriteEveryMs: fc.integer({ min: 10, max: 5000 }),
            clientLeaderCacheMs: fc.integer({ min: 0, max: 60_000 }),
          },
          { requiredKeys: [] },
        ),
        faults: fc.array(validFaultArb(ids, nodeIds(nodes ?? 5, false)), { maxLength: 10 }),
        untilMs: fc.integer({ min: 0, max: 86_400_000 }),
        sampleEveryMs: fc.integer({ min: 10, max: 5000 }),
        limits: fc.record(
          {
            maxEvents: fc.integer({ min: 100, max: 1_000_000 }),
            maxSamples: fc.integer({ min: 100, max: 100_000 }),
          },
          { requiredKeys: [] },
        ),
      },
      { requiredKeys: Object.keys(sizing) as never[] },
    );
  });

// ------------------------------------------------------------------ breaking them

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Place = { path: (string | number)[]; value: unknown };

/** Every place in a value: objects, arrays and leaves, with their paths. */
function places(value: unknown, path: (string | number)[] = []): Place[] {
  const here: Place = { path, value };
  if (Array.isArray(value)) return [here, ...value.flatMap((v, i) => places(v, [...path, i]))];
  if (value !== null && typeof value === 'object')
    return [here, ...Object.entries(value).flatMap(([k, v]) => places(v, [...path, k]))];
  return [here];
}

function kind(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/** Out of range for every number in the format (all are at least 0 and at most ~4.3e9). */
const NEVER_VALID_NUMBERS = [-1, 1e12, Number.NaN, Infinity, -Infinity];
const BAD_VALUES: unknown[] = [
  'x',
  '',
  ' 5',
  '5',
  null,
  true,
  false,
  [],
  [1],
  {},
  { a: 1 },
  0.5,
  1.5,
  ...NEVER_VALID_NUMBERS,
];

/** Keys that are in no object of the format; some are awkward for a parser in JavaScript. */
const UNKNOWN_KEY = fc
  .oneof(
    fc.constantFrom(
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'Seed',
      'nodes ',
      'a.b',
      '0',
      '',
    ),
    fc.string({ maxLength: 8 }),
  )
  .filter((k) => !SCHEMA_KEYS.has(k));

/**
 * A mutation, and what it is known to break: a field the format checks ('shape'), or one only a
 * cross-field rule catches ('rule'); null when unknown (the mutation may well leave it valid).
 * `still` tells whether a later mutation left the break in place (it may delete or replace it).
 */
type Broken = { field: string; by: 'shape' | 'rule'; still(input: unknown): boolean } | null;
type Mutation = (input: Record<string, unknown>) => Broken;

function setOwn(obj: object, key: string | number, value: unknown): void {
  // defineProperty, so "__proto__" becomes a plain own key, as JSON.parse makes it.
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function at(root: unknown, path: (string | number)[]): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], root);
}

/** The value at a path, if the path is (still) there. */
function lookup(root: unknown, path: (string | number)[]): { found: boolean; value?: unknown } {
  let v = root;
  for (const k of path) {
    if (v === null || typeof v !== 'object' || !Object.prototype.hasOwnProperty.call(v, k))
      return { found: false };
    v = (v as Record<string | number, unknown>)[k];
  }
  return { found: true, value: v };
}

function holds(path: (string | number)[], value: unknown) {
  return (input: unknown) => {
    const now = lookup(input, path);
    return now.found && Object.is(now.value, value);
  };
}

const replaceArb = fc
  .tuple(fc.nat(), fc.constantFrom(...BAD_VALUES))
  .map(([pick, bad]): Mutation => (input) => {
    const all = places(input).filter((p) => p.path.length > 0);
    if (!all.length) return null;
    const { path, value } = all[pick % all.length];
    const placed = structuredClone(bad);
    setOwn(at(input, path.slice(0, -1)) as object, path[path.length - 1], placed);
    const wrongKind = kind(bad) !== kind(value);
    const neverValid = typeof bad === 'number' && NEVER_VALID_NUMBERS.some((n) => Object.is(n, bad));
    return wrongKind || neverValid
      ? { field: path.join('.'), by: 'shape', still: holds(path, placed) }
      : null;
  });

const addKeyArb = fc
  .tuple(fc.nat(), UNKNOWN_KEY, fc.jsonValue({ maxDepth: 2 }))
  .map(([pick, key, value]): Mutation => (input) => {
    const objects = places(input).filter((p) => kind(p.value) === 'object');
    const { path, value: obj } = objects[pick % objects.length];
    setOwn(obj as object, key, value);
    return { field: [...path, key].join('.'), by: 'shape', still: holds([...path, key], value) };
  });

const REQUIRED_IN_FAULT = new Set(['atMs', 'do', 'node', 'groups', 'rate']);
const deleteArb = fc.nat().map((pick): Mutation => (input) => {
  const all = places(input).filter(
    (p) => p.path.length > 0 && kind(at(input, p.path.slice(0, -1))) === 'object',
  );
  if (!all.length) return null;
  const { path } = all[pick % all.length];
  const parent = at(input, path.slice(0, -1)) as Record<string, unknown>;
  const key = String(path[path.length - 1]);
  delete parent[key];
  const inFault = path[0] === 'faults' && path.length === 3;
  if (!inFault || !REQUIRED_IN_FAULT.has(key)) return null;
  // Still missing from the same fault object.
  const still = (now: unknown) =>
    holds(path.slice(0, -1), parent)(now) && !Object.prototype.hasOwnProperty.call(parent, key);
  return { field: path.join('.'), by: 'shape', still };
});
/** A fault the format rejects, appended to the list; `field` is relative to the fault. */
const badFaultArb = fc.constantFrom<{ fault: Json; field: string; by: 'shape' | 'rule' }>(
  { fault: { atMs: 1, do: 'explode', node: 'n1' }, field: 'do', by: 'shape' },
  { fault: { atMs: 1, node: 'n1' }, field: 'do', by: 'shape' },
  { fault: { atMs: -5, do: 'kill', node: 'n1' }, field: 'atMs', by: 'shape' },
  { fault: { atMs: 1.5, do: 'heal' }, field: 'atMs', by: 'shape' },
  { fault: { atMs: 1, do: 'kill', node: 'n0' }, field: 'node', by: 'shape' },
  { fault: { atMs: 1, do: 'kill', node: 'N1' }, field: 'node', by: 'shape' },
  { fault: { atMs: 1, do: 'kill', node: 'n1', forMs: 5 }, field: 'forMs', by: 'shape' },
  { fault: { atMs: 1, do: 'pause', node: 'n1', forMs: 0 }, field: 'forMs', by: 'shape' },
  { fault: { atMs: 1, do: 'clockRate', node: 'n1', rate: 0 }, field: 'rate', by: 'shape' },
  { fault: { atMs: 1, do: 'clockRate', node: 'n1', rate: 100 }, field: 'rate', by: 'shape' },
  { fault: { atMs: 1, do: 'partition', groups: [] }, field: 'groups', by: 'shape' },
  { fault: { atMs: 1, do: 'partition', groups: [[]] }, field: 'groups.0', by: 'shape' },
  { fault: { atMs: 1, do: 'partition', groups: 'n1|n2' }, field: 'groups', by: 'shape' },
  { fault: { atMs: 1, do: 'partition', groups: [['n1', 3]] }, field: 'groups.0.1', by: 'shape' },
  { fault: { atMs: 1, do: 'partition', groups: [['n1'], ['x']] }, field: 'groups.1.0', by: 'shape' },
  {
    fault: { atMs: 1, do: 'partition', groups: [['n1'], ['n1', 'storage']] },
    field: 'groups.1.0',
    by: 'rule',
  },
  { fault: { atMs: 1, do: 'partition', groups: [['n1', 'n9']] }, field: 'groups.0.1', by: 'rule' },
  { fault: { atMs: 1, do: 'kill', node: 'n9' }, field: 'node', by: 'rule' },
  { fault: { atMs: 1, do: 'isolate', node: 'w' }, field: 'node', by: 'rule' },
  { fault: { atMs: 1, do: 'campaign', node: 'w' }, field: 'node', by: 'rule' },
  { fault: null, field: '', by: 'shape' },
  { fault: ['kill', 'n1'], field: '', by: 'shape' },
);

const appendFaultArb = badFaultArb.map(({ fault, field, by }): Mutation => (input) => {
  if (input.faults === undefined) input.faults = [];
  if (!Array.isArray(input.faults)) return null;
  const i = input.faults.length;
  const placed = structuredClone(fault);
  input.faults.push(placed);
  // "n9" and an isolated "w" are unknown only in a cluster without them.
  const text = JSON.stringify(fault);
  if (text.includes('"n9"') && input.nodes === 9) return null;
  if (text.includes('"isolate"') && input.witness === true) return null;
  return { field: field ? `faults.${i}.${field}` : `faults.${i}`, by, still: holds(['faults', i], placed) };
});

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(replaceArb, addKeyArb, deleteArb, appendFaultArb);

/** An experiment that was valid, then broken in one to three places; with what each broke. */
const brokenExperimentArb = fc
  .tuple(validExperimentArb, fc.array(mutationArb, { minLength: 1, maxLength: 3 }))
  .map(([valid, mutations]) => {
    const input = structuredClone(valid);
    const broken = mutations.map((m) => m(input)).map((b) => (b && b.still(input) ? b : null));
    return { input, broken };
  });

/** Anything at all, shaped like an experiment or not. */
const arbitraryInputArb: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({
    maxDepth: 3,
    withBoxedValues: true,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withDate: true,
    withMap: true,
  }),
  fc.jsonValue({ maxDepth: 4 }),
  fc.dictionary(fc.constantFrom(...SCHEMA_KEYS, 'extra'), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
);

// ------------------------------------------------------------------ the oracle

function safetyAlwaysOn(e: ExperimentInput): boolean {
  const s = (e.safety ?? {}) as Record<string, boolean | undefined>;
  return (
    s.quorum !== false &&
    s.fencing !== false &&
    !(e.faults ?? []).some((f) => f.do === 'safety' && (f.quorum === false || f.fencing === false))
  );
}

function clocksInBand(e: ExperimentInput): boolean {
  return (e.faults ?? []).every(
    (f) => f.do !== 'clockRate' || (f.rate >= RATES[0] && f.rate <= RATES[RATES.length - 1]),
  );
}

/** parseExperiment's contract, checked on one input. */
function checkExperiment(input: unknown, broken: Broken[] = []): void {
  const why = `input ${show(input)}`;
  let r!: ReturnType<typeof parseExperiment>;
  expect(() => (r = parseExperiment(input)), why).not.toThrow();
  if (r.ok) {
    expect(
      broken.filter((b) => b !== null),
      `${why}\naccepted although broken`,
    ).toEqual([]);
    // Tight leases cost events per simulated ms; a few hundred rounds say as much as 20 s.
    const untilMs = Math.min(r.experiment.untilMs, RUN_MS, 400 * r.experiment.lease!.retryPeriodMs);
    const e = { ...r.experiment, untilMs };
    let trace!: ReturnType<typeof runExperiment>;
    expect(() => (trace = runExperiment(e)), `reproduce with seed=${e.seed}: ${show(e)}`).not.toThrow();
    expect(trace.final.nodes.length).toBe(e.nodes + (e.witness ? 1 : 0));
    if (clocksInBand(e)) {
      const why2 = `reproduce with seed=${e.seed}: ${show(e)}`;
      // A switch that is off allows its own hazards and no others; with all on, nothing at all.
      expect(
        trace.summary.violations.filter((v) => v.allowedBy === null),
        why2,
      ).toEqual([]);
      if (safetyAlwaysOn(e)) expect(trace.summary.violations, why2).toEqual([]);
    }
    return;
  }
  expect(r.errors.length, why).toBeGreaterThan(0);
  for (const err of r.errors) {
    expect(typeof err.message === 'string' && err.message.length > 0, `${why}\n${show(err)}`).toBe(true);
    expect(namesPath(input, err.field), `${why}\nerror names no field of the input: ${show(err)}`).toBe(true);
  }
  // What was broken is named: the field itself, or a field inside it. A cross-field rule runs only
  // once every field is well-formed, so rule breaks are expected only when nothing else broke.
  const known = broken.filter((b): b is NonNullable<Broken> => b !== null);
  const shape = known.filter((b) => b.by === 'shape');
  const expected = shape.length ? shape : broken.every((b) => b !== null) ? known : [];
  for (const b of expected) {
    // Or a broken field around it: nothing inside an unknown field or a wrong type is looked at.
    const within = (outer: string, inner: string) => inner === outer || inner.startsWith(outer + '.');
    // And a fault whose "do" is bad has nothing else checked: "do" decides which fields it may have.
    const fault = /^faults\.\d+/.exec(b.field)?.[0];
    const named = r.errors.some(
      (e) =>
        within(b.field, e.field) ||
        (within(e.field, b.field) && known.some((k) => k.field === e.field)) ||
        (fault !== undefined && e.field === `${fault}.do`),
    );
    expect(named, `${why}\nexpected an error for "${b.field}", got ${show(r.errors)}`).toBe(true);
  }
}

describe(`experiment fuzzing (${RUNS} cases each, fast-check seed ${SEED})`, () => {
  it(
    'accepts every valid experiment and runs it without a violation the switches do not allow',
    () => {
      fc.assert(
        fc.property(validExperimentArb, (input) => {
          expect(parseExperiment(input).ok, show(input)).toBe(true);
          checkExperiment(input);
        }),
        OPTIONS,
      );
    },
    TIMEOUT_MS,
  );

  it(
    'rejects a broken experiment, naming each broken field by its path',
    () => {
      fc.assert(
        fc.property(brokenExperimentArb, ({ input, broken }) => checkExperiment(input, broken)),
        OPTIONS,
      );
    },
    TIMEOUT_MS,
  );

  it(
    'never throws on arbitrary values, and names only paths that exist',
    () => {
      fc.assert(
        fc.property(arbitraryInputArb, (input) => checkExperiment(input)),
        OPTIONS,
      );
    },
    TIMEOUT_MS,
  );
});

// ------------------------------------------------------------------ URLs

const PAGE_PARAMS = [
  'seed',
  'nodes',
  'clients',
  'witness',
  'speed',
  'paused',
  'present',
  'scenario',
  'step',
  'run',
];
const EMBED_PARAMS = ['scene', 'controls', 'theme', 'autoplay', 'id'];
const SCENARIO_IDS = catalog.scenarios.map((s) => s.id);

/** Values that are hard on a parser: empty, spaces, numbers in other notations, bad escapes. */
const junkArb = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-0',
    '-1',
    '1.5',
    '1e3',
    '0x10',
    '1_000',
    'NaN',
    'Infinity',
    'null',
    'undefined',
    'true',
  ),
  fc.constantFrom(
    '%',
    '%zz',
    '%E0%A4%A',
    '%00',
    '+',
    '&',
    '=',
    '#',
    '?',
    '\u0000',
    '\uFFFF',
    '😀',
    'ü',
    '9'.repeat(400),
  ),
  fc.string({ maxLength: 12 }),
  fc.string({ unit: 'binary', maxLength: 12 }),
);

const intTextArb = (min: number, max: number) => fc.integer({ min, max }).map(String);

/** Short valid runs, as the lab's Share button would encode them. */
const commandArb: fc.Arbitrary<Command> = validFaultArb(nodeIds(9, true), nodeIds(9, false)).map((f) => {
  const { atMs: _atMs, ...command } = f;
  return command as Command;
});
const realRunArb = fc
  .record({
    experiment: validExperimentArb.map((e) => ({ ...e, faults: [] }) as ExperimentInput),
    commands: fc.array(fc.record({ atMs: fc.integer({ min: 0, max: 600_000 }), command: commandArb }), {
      maxLength: 6,
    }),
    atMs: fc.integer({ min: 0, max: 600_000 }),
  })
  .map((run) => encodeRun({ ...run, commands: [...run.commands].sort((a, b) => a.atMs - b.atMs) }));

function toBase64Url(text: string): string {
  return Buffer.from(deflateSync(strToU8(text))).toString('base64url');
}

/** A run link's value: intact, cut short, garbled, or a well-formed link holding nonsense. */
const runValueArb = fc.oneof(
  { arbitrary: realRunArb, weight: 4 },
  fc
    .tuple(realRunArb, fc.double({ min: 0, max: 1, noNaN: true }))
    .map(([t, f]) => t.slice(0, Math.floor(t.length * f))),
  fc
    .tuple(
      realRunArb,
      fc.array(fc.tuple(fc.nat(), fc.constantFrom('A', '-', '_', '+', '/', '=', '%', '.')), {
        minLength: 1,
        maxLength: 4,
      }),
    )
    .map(([t, edits]) =>
      edits.reduce(
        (s, [i, c]) => (s.length ? s.slice(0, i % s.length) + c + s.slice((i % s.length) + 1) : s),
        t,
      ),
    ),
  fc
    .record(
      {
        v: fc.oneof(fc.constant(1), fc.jsonValue({ maxDepth: 1 })),
        e: fc.oneof(validExperimentArb, fc.jsonValue({ maxDepth: 3 })),
        c: fc.oneof(
          fc.array(
            fc.tuple(
              fc.oneof(fc.nat(), fc.jsonValue({ maxDepth: 1 })),
              fc.oneof(commandArb, fc.jsonValue({ maxDepth: 2 })),
            ),
          ),
          fc.jsonValue({ maxDepth: 2 }),
        ),
        t: fc.oneof(fc.nat(), fc.jsonValue({ maxDepth: 1 })),
        sc: fc.jsonValue({ maxDepth: 1 }),
      },
      { requiredKeys: [] },
    )
    .map((payload) => toBase64Url(JSON.stringify(payload))),
  fc.jsonValue({ maxDepth: 2 }).map((v) => toBase64Url(JSON.stringify(v))),
  fc.base64String({ maxLength: 40 }),
  junkArb,
);

const valueFor: Record<string, fc.Arbitrary<string>> = {
  seed: fc.oneof(intTextArb(0, 4294967295), intTextArb(-10, 10), fc.constant('4294967296'), junkArb),
  nodes: fc.oneof(intTextArb(-1, 12), junkArb),
  clients: fc.oneof(intTextArb(-1, 2100), junkArb),
  witness: fc.oneof(fc.constantFrom('', '0', '1'), junkArb),
  speed: fc.oneof(
    fc.double({ min: -1, max: 200, noNaN: true }).map(String),
    fc.constantFrom('0', '64', '0.1', '1e-9', '1e9'),
    junkArb,
  ),
  paused: fc.oneof(fc.constant(''), junkArb),
  present: fc.oneof(fc.constant(''), junkArb),
  scenario: fc.oneof(
    fc.constantFrom(...SCENARIO_IDS),
    fc.constantFrom(...SCENARIO_IDS).map((s) => s.toUpperCase()),
    junkArb,
  ),
  step: fc.oneof(intTextArb(-1, 12), junkArb),
  run: runValueArb,
  scene: fc.oneof(
    fc.constantFrom(...Object.keys(SCENES), 'metric', 'metricline', 'stage', 'CHAIN', 'Metric-Line'),
    junkArb,
  ),
  controls: fc.oneof(fc.constantFrom('minimal', 'none', 'full', 'NONE'), junkArb),
  theme: fc.oneof(fc.constantFrom('light', 'dark', 'system', 'Dark'), junkArb),
  autoplay: fc.oneof(fc.constantFrom('0', '1', ''), junkArb),
  id: junkArb,
};

/** A query string: known and unknown names, encoded properly or pasted raw, maybe cut short. */
const pairArb = (names: fc.Arbitrary<string>) =>
  fc
    .tuple(names, fc.boolean())
    .chain(([name, raw]) =>
      (valueFor[name] ?? junkArb).map((value) =>
        raw ? `${name}=${value}` : `${encodeURIComponent(name)}=${encodeURIComponent(value)}`,
      ),
    );
const searchArb = fc
  .tuple(
    fc.array(
      pairArb(
        fc.oneof(
          { arbitrary: fc.constantFrom(...PAGE_PARAMS, ...EMBED_PARAMS), weight: 6 },
          { arbitrary: junkArb, weight: 1 },
        ),
      ),
      { maxLength: 8 },
    ),
    // Half the links carry a run, the parameter with the most to read.
    fc.option(pairArb(fc.constant('run')), { nil: undefined }),
    fc.nat(),
    fc.boolean(),
    fc.option(fc.nat(), { nil: undefined, freq: 4 }),
  )
  .map(([pairs, run, at, question, cut]) => {
    // A copy: fast-check keeps generated values to shrink them, so they must not be mutated.
    const all = [...pairs];
    if (run !== undefined) all.splice(at % (all.length + 1), 0, run);
    const s = (question ? '?' : '') + all.join('&');
    return cut === undefined ? s : s.slice(0, cut % (s.length + 1));
  });

function mentions(problems: string[], name: string): boolean {
  return problems.some((p) => p.includes(`"${name}"`) || (name === 'run' && /^run\b/.test(p)));
}

/** readPageParams' contract: never throws; usable values; whatever it ignored is named. */
function checkPageParams(search: string): void {
  const why = `search ${JSON.stringify(search)}`;
  let p!: ReturnType<typeof readPageParams>;
  expect(() => (p = readPageParams(search)), why).not.toThrow();
  const parsed = parseExperiment(p.experiment);
  expect(parsed.ok, `${why}\nunusable experiment ${show(p.experiment)}`).toBe(true);
  for (const c of p.commands) {
    expect(parseCommand(c.command).ok, why).toBe(true);
    expect(Number.isInteger(c.atMs) && c.atMs >= 0, why).toBe(true);
  }
  expect(Number.isFinite(p.atMs) && p.atMs >= 0, why).toBe(true);
  expect(p.speed >= MIN_SPEED && p.speed <= MAX_SPEED, why).toBe(true);
  expect(
    Number.isInteger(p.step) && p.step >= 0 && p.step < Math.max(1, p.scenario?.steps.length ?? 0),
    why,
  ).toBe(true);
  expect(
    p.problems.every((m) => typeof m === 'string' && m.length > 0),
    why,
  ).toBe(true);

  const q = new URLSearchParams(search);
  const e = parsed.ok ? parsed.experiment : null;
  const run = q.has('run') ? decodeRun(q.get('run') as string) : null;
  /** The parameter was ignored, so a problem must name it. */
  const ignored = (name: string, applied: boolean) => {
    if (q.has(name) && !applied)
      expect(
        mentions(p.problems, name),
        `${why}\n"${name}" was ignored without a word: ${show(p.problems)}`,
      ).toBe(true);
  };
  // A bad run link falls back to the setup in the other parameters.
  const setupFromLink = !run?.ok && !p.scenario;
  for (const [name, field] of [
    ['seed', 'seed'],
    ['nodes', 'nodes'],
    ['clients', 'clients'],
  ] as const) {
    const raw = Number(q.get(name));
    const value = field === 'clients' ? e?.workload.clients : e?.[field];
    ignored(name, setupFromLink && value === raw);
  }
  ignored('witness', setupFromLink);
  const rawSpeed = Number(q.get('speed'));
  ignored('speed', Number.isFinite(rawSpeed) && rawSpeed > 0 && p.speed === clampSpeed(rawSpeed));
  ignored('scenario', !run && p.scenario?.id === q.get('scenario'));
  ignored('step', !run && p.scenario !== null && p.step === Number(q.get('step')) - 1);
  if (run) {
    expect(p.badRun, why).toBe(!run.ok);
    if (run.ok) {
      expect(p.commands, why).toEqual(run.run.commands);
      expect(p.atMs, why).toBe(run.run.atMs);
      expect(p.experiment, why).toEqual(run.run.experiment);
    } else ignored('run', false);
  }
}

/** readEmbedOptions' contract: never throws; one of the known choices; what it ignored is named. */
function checkEmbedOptions(search: string): void {
  const why = `search ${JSON.stringify(search)}`;
  let o!: ReturnType<typeof readEmbedOptions>;
  expect(() => (o = readEmbedOptions(search)), why).not.toThrow();
  expect(Object.keys(SCENES), why).toContain(o.scene);
  expect(['minimal', 'none'], why).toContain(o.controls);
  expect(['light', 'dark', 'system'], why).toContain(o.theme);
  const q = new URLSearchParams(search);
  for (const [name, value] of [
    ['scene', o.scene],
    ['controls', o.controls],
    ['theme', o.theme],
  ] as const) {
    const raw = q.get(name);
    if (
      raw === null ||
      raw.toLowerCase() === value ||
      (name === 'scene' && ['metric', 'metricline', 'stage'].includes(raw.toLowerCase()))
    )
      continue;
    expect(
      mentions(o.problems, name),
      `${why}\n"${name}" was ignored without a word: ${show(o.problems)}`,
    ).toBe(true);
  }
}

describe(`URL fuzzing (${RUNS} cases each, fast-check seed ${SEED})`, () => {
  it(
    'the page reads any query string into a usable lab, naming every parameter it ignored',
    () => {
      fc.assert(fc.property(searchArb, checkPageParams), OPTIONS);
    },
    TIMEOUT_MS,
  );

  it(
    'the embed reads any query string into a scene, naming every parameter it ignored',
    () => {
      fc.assert(
        fc.property(searchArb, (search) => {
          checkEmbedOptions(search);
          // The embed reads the run, the seed and the rest with the page's own reader.
          checkPageParams(search);
        }),
        OPTIONS,
      );
    },
    TIMEOUT_MS,
  );

  it('refuses a run link that inflates past any real run instead of inflating it all', () => {
    // 4 MB of JSON in a ~5 KB link; deflate's ratio lets a link the size of a page hold gigabytes.
    const json = `{"v":1,"e":{},"c":[],"t":0,"pad":"${'a'.repeat(4 * MAX_RUN_JSON_BYTES)}"}`;
    const bomb = toBase64Url(json);
    expect(bomb.length).toBeLessThan(10_000);
    const r = decodeRun(bomb);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.problems.join()).toMatch(/"run" is far too large/);
    checkPageParams(`?run=${bomb}`);
  });

  it('names what it could not read in a real run link cut at every length', () => {
    const link = encodeRun({
      experiment: { seed: 7, nodes: 3, witness: true },
      commands: [
        { atMs: 12_000, command: { do: 'kill', node: 'leader' } },
        { atMs: 20_000, command: { do: 'partition', groups: [['n1'], ['n2', 'w', 'storage']] } },
      ],
      atMs: 45_000,
    });
    for (let n = 0; n < link.length; n++) checkPageParams(`?run=${link.slice(0, n)}&speed=4`);
  });
});
