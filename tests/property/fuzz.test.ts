// Fuzzing the lab's front doors: experiment objects (files, the CLI, run links) and the page's and
// the embed's URL parameters, valid and invalid, generated at random. Whatever comes in, parsing
// never throws; the result is either a run that works (and keeps every invariant its algorithm
// promises, those a switched-off safety mechanism gives up aside) or errors that name a field or
// parameter that is really there.
//
// FUZZ_RUNS sets the cases per property (default 300; `npm run test:long` uses more) and
// FUZZ_SEED the fast-check seed. A failure prints the seed, the shrunk input and how to rerun it.
import fc from 'fast-check';
import * as zm from 'zod/mini';
import { deflateSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import {
  ALGORITHM_KINDS,
  ALGORITHM_SETTINGS,
  algorithmFor,
  experimentSchemas,
  parseCommand,
  parseExperiment,
  runExperiment,
  type AlgorithmKind,
  type Command,
  type Experiment,
  type ExperimentInput,
  type InvariantName,
  type Violation,
} from '../../src/engine';
import { decodeRun, encodeRun, MAX_RUN_JSON_BYTES, SHARE_VERSION } from '../../src/shared/share';
import { readEmbedParams, readPageParams } from '../../src/shared/link';
import { SCENES } from '../../src/shared/scenes';
import { catalog } from '../../src/scenario/catalog';
import { clampSpeed, MAX_SPEED, MIN_SPEED } from '../../src/store/labStore';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20_250_214);
const OPTIONS = { seed: SEED, numRuns: RUNS };
/** ~15 ms a case on a loaded machine; generous so a long run does not trip the default. */
const TIMEOUT_MS = Math.max(60_000, RUNS * 200);
/** Simulated time each accepted experiment runs for: short, but past elections and faults. */
const RUN_MS = 20_000;
/** ...and at most this many of its algorithm's fastest rounds: tight timings cost events per ms. */
const RUN_ROUNDS = 400;

// Clocks within this band of each other: the engine orders terms for clocks within about 3x
// (docs/model.md, "Elections end in order"); wilder skew is the clock-skew scenario's lesson,
// where the checker rightly reports a violation in safe mode. The property tests use the same band.
const RATES = [0.6, 0.8, 1.25, 1.5];

/** Every field name a schema has, at any depth, read from the schema itself. */
function fieldNames(schema: unknown, into = new Set<string>()): Set<string> {
  const def = (schema as { _zod: { def: Record<string, unknown> } })._zod.def;
  switch (def.type) {
    case 'object':
      for (const [key, field] of Object.entries(def.shape as Record<string, unknown>)) {
        into.add(key);
        fieldNames(field, into);
      }
      break;
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
      fieldNames(def.innerType, into);
      break;
    case 'pipe':
      fieldNames(def.in, into);
      break;
    case 'array':
      fieldNames(def.element, into);
      break;
    case 'union':
      for (const option of def.options as unknown[]) fieldNames(option, into);
      break;
  }
  return into;
}

/** Every field name the experiment format has, at any depth: a missing one is a real path too. */
const SCHEMA_KEYS = fieldNames(experimentSchemas(zm, ALGORITHM_KINDS).experimentSchema);

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

// ------------------------------------------------------------------ algorithms and their settings

/** The settings only some algorithms have ("raft", "lease", "safety.preVote"...). */
type SettingPath = keyof typeof ALGORITHM_SETTINGS;
const SETTING_PATHS = Object.keys(ALGORITHM_SETTINGS) as SettingPath[];
/** Settings that are a section of their own (not the witness, not a safety switch). */
type SectionPath = Exclude<SettingPath, 'witness' | `safety.${string}`>;
/** The safety switches only some algorithms have; followersReject is everyone's. */
const SWITCHES = ['quorum', 'fencing', 'preVote', 'checkQuorum'] as const;

function has(algorithm: AlgorithmKind | undefined, setting: SettingPath): boolean {
  return algorithmFor(algorithm).settings.includes(setting);
}

/** The algorithm an input names: undefined when absent (Raft) or not an algorithm at all. */
function kindOf(input: unknown): { known: boolean; kind?: AlgorithmKind } {
  const a = (input as Record<string, unknown> | null)?.algorithm;
  if (a === undefined) return { known: true };
  return (ALGORITHM_KINDS as readonly unknown[]).includes(a)
    ? { known: true, kind: a as AlgorithmKind }
    : { known: false };
}

/** The period of an algorithm's fastest round, which sets how many events a simulated ms costs. */
function fastestRoundMs(e: Experiment): number {
  const kind: AlgorithmKind = e.algorithm ?? 'raft';
  switch (kind) {
    case 'raft':
      return Math.min(e.raft!.heartbeatMs, e.raft!.electionTimeoutMs);
    case 'k8s-lease':
      return e.lease!.retryPeriodMs;
    case 'etcd-election':
      // Keep-alives go every third of the TTL.
      return Math.floor(e.etcd!.ttlMs / 3);
    case 'zookeeper':
      // Session pings go every third of the session timeout.
      return Math.max(1, Math.min(e.zookeeper!.tickTimeMs, Math.floor(e.zookeeper!.sessionTimeoutMs / 3)));
    case 'bully':
      return Math.min(e.bully!.heartbeatMs, e.bully!.timeoutMs, e.bully!.answerTimeoutMs);
    case 'ring':
      return Math.min(e.ring!.heartbeatMs, e.ring!.timeoutMs, e.ring!.ackTimeoutMs);
    case 'redis-sentinel':
    case 'pacemaker':
      // Sentinels ping every second and replicas acknowledge every second, whatever the settings.
      return 1000;
    default:
      // A new algorithm needs its fastest round named here.
      return kind satisfies never;
  }
}

// The cross-field rules parseExperiment is documented to enforce (docs/experiment.md), written
// out here rather than borrowed from the engine, so the generators and the parser can disagree.
const RULES: Partial<Record<SectionPath, (s: Record<string, number | string | boolean>) => boolean>> = {
  // client-go's NewLeaderElector: LeaseDuration > RenewDeadline > 1.2 x RetryPeriod.
  lease: (s) =>
    (s.durationMs as number) > (s.renewDeadlineMs as number) &&
    (s.renewDeadlineMs as number) > 1.2 * (s.retryPeriodMs as number),
  // 0 for none, else past a keep-alive interval (TTL / 3) and at most the TTL.
  etcd: (s) =>
    s.renewDeadlineMs === 0 ||
    ((s.renewDeadlineMs as number) > Math.floor((s.ttlMs as number) / 3) &&
      (s.renewDeadlineMs as number) <= (s.ttlMs as number)),
  // The ensemble negotiates a session timeout of 2 to 20 ticks.
  zookeeper: (s) =>
    (s.sessionTimeoutMs as number) >= 2 * (s.tickTimeMs as number) &&
    (s.sessionTimeoutMs as number) <= 20 * (s.tickTimeMs as number),
};

/** Mostly lab-like periods, sometimes absurdly tight ones (a round every few ms). */
const periodArb = (min: number, labMin: number, labMax: number) =>
  fc.oneof(
    { arbitrary: fc.integer({ min: labMin, max: labMax }), weight: 9 },
    { arbitrary: fc.integer({ min, max: labMin - 1 }), weight: 1 },
  );
/** Anything the schema's range allows, for the occasional setting no one would choose. */
const anyArb = (min: number, max: number) => fc.integer({ min, max });

/** Each section with every field given and valid, its cross-field rule kept. */
const FULL_SECTIONS: { [P in SectionPath]: fc.Arbitrary<ReturnType<(typeof ALGORITHM_SETTINGS)[P]>> } = {
  raft: fc.oneof(
    {
      weight: 9,
      arbitrary: fc
        .tuple(periodArb(1, 20, 1000), fc.integer({ min: 2, max: 20 }))
        .map(([heartbeatMs, k]) => ({ heartbeatMs, electionTimeoutMs: heartbeatMs * k })),
    },
    // The format has no rule between them: a heartbeat slower than the timeout is still valid.
    {
      weight: 1,
      arbitrary: fc.record({ heartbeatMs: anyArb(1, 600_000), electionTimeoutMs: anyArb(2, 3_600_000) }),
    },
  ),
  lease: fc
    .record({
      retry: periodArb(1, 50, 3000),
      extraDeadline: fc.integer({ min: 1, max: 8000 }),
      extraDuration: fc.integer({ min: 1, max: 10_000 }),
      releaseOnCancel: fc.boolean(),
    })
    .map(({ retry, extraDeadline, extraDuration, releaseOnCancel }) => {
      const renewDeadlineMs = Math.floor(1.2 * retry) + extraDeadline;
      return {
        durationMs: renewDeadlineMs + extraDuration,
        renewDeadlineMs,
        retryPeriodMs: retry,
        releaseOnCancel,
      };
    }),
  etcd: fc
    .oneof({ arbitrary: anyArb(1000, 30_000), weight: 9 }, { arbitrary: anyArb(1000, 3_600_000), weight: 1 })
    .chain((ttlMs) =>
      fc.record({
        ttlMs: fc.constant(ttlMs),
        renewDeadlineMs: fc.oneof(fc.constant(0), fc.integer({ min: Math.floor(ttlMs / 3) + 1, max: ttlMs })),
      }),
    ),
  zookeeper: periodArb(1, 50, 3000).chain((tickTimeMs) =>
    fc.record({
      sessionTimeoutMs: fc.integer({ min: 2 * tickTimeMs, max: Math.min(20 * tickTimeMs, 3_600_000) }),
      tickTimeMs: fc.constant(tickTimeMs),
      watch: fc.constantFrom('predecessor' as const, 'leader' as const),
    }),
  ),
  // min-replicas-to-write is checked against the cluster's size (a rule across sections), so the
  // generated sections leave it off; tests/unit/engine/redisSentinel.test.ts covers it.
  sentinel: fc.record({
    quorum: fc.integer({ min: 1, max: 3 }),
    downAfterMs: periodArb(1, 500, 60_000),
    failoverTimeoutMs: periodArb(1, 1000, 300_000),
    minReplicasToWrite: fc.constant(0),
    minReplicasMaxLagMs: periodArb(1, 1000, 20_000),
  }),
  stonith: fc.record({ tokenMs: periodArb(1, 500, 10_000), timeoutMs: periodArb(1, 1000, 120_000) }),
  bully: fc.oneof(
    {
      weight: 9,
      arbitrary: fc
        .tuple(periodArb(10, 50, 3000), fc.integer({ min: 2, max: 8 }), periodArb(1, 20, 2000))
        .map(([heartbeatMs, k, answerTimeoutMs]) => ({
          heartbeatMs,
          timeoutMs: heartbeatMs * k,
          answerTimeoutMs,
        })),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        heartbeatMs: anyArb(10, 600_000),
        timeoutMs: anyArb(10, 3_600_000),
        answerTimeoutMs: anyArb(1, 600_000),
      }),
    },
  ),
  ring: fc.oneof(
    {
      weight: 9,
      arbitrary: fc
        .tuple(
          periodArb(10, 50, 3000),
          fc.integer({ min: 2, max: 8 }),
          fc.integer({ min: 0, max: 500 }),
          periodArb(1, 20, 2000),
          fc.integer({ min: 2, max: 10 }),
        )
        .map(([heartbeatMs, k, hopMs, ackTimeoutMs, rounds]) => ({
          heartbeatMs,
          timeoutMs: heartbeatMs * k,
          hopMs,
          ackTimeoutMs,
          roundTimeoutMs: Math.min(3_600_000, Math.max(10, rounds * (hopMs + ackTimeoutMs))),
        })),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        heartbeatMs: anyArb(10, 600_000),
        timeoutMs: anyArb(10, 3_600_000),
        hopMs: anyArb(0, 600_000),
        ackTimeoutMs: anyArb(1, 600_000),
        roundTimeoutMs: anyArb(10, 3_600_000),
      }),
    },
  ),
};

/**
 * A section as an experiment may give it: some fields left out (they take their defaults) when
 * what is left, with the defaults, still keeps the section's rule; otherwise all of them.
 */
function sectionArb(path: SectionPath): fc.Arbitrary<Record<string, unknown>> {
  const defaults = ALGORITHM_SETTINGS[path]() as Record<string, number | string | boolean>;
  const rule = RULES[path] ?? (() => true);
  return fc
    .tuple(
      FULL_SECTIONS[path] as fc.Arbitrary<Record<string, number | string | boolean>>,
      fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
    )
    .map(([full, keep]) => {
      const some = Object.fromEntries(Object.entries(full).filter((_, i) => keep[i]));
      return rule({ ...defaults, ...some }) ? some : full;
    });
}

// ------------------------------------------------------------------ valid experiments

function nodeIds(nodes: number, witness: boolean): string[] {
  return Array.from({ length: nodes }, (_, i) => `n${i + 1}`).concat(witness ? ['w'] : []);
}

/** What a valid experiment's faults may name: its algorithm, nodes, witness and services. */
interface Setup {
  algorithm: AlgorithmKind | undefined;
  nodes: number | undefined;
  witness: boolean | undefined;
}

function validFaultArb({ algorithm, nodes, witness }: Setup): fc.Arbitrary<Record<string, unknown>> {
  // Absent, they take their defaults (5 nodes, no witness); faults name only nodes that exist.
  const voters = nodeIds(nodes ?? 5, false);
  const ids = nodeIds(nodes ?? 5, witness ?? false);
  // The services the algorithm runs against (an API server, store members): they can be killed,
  // restarted, isolated and partitioned, and nothing else.
  const services = (algorithmFor(algorithm).services ?? []).map((s) => s.id);
  const atMs = fc.integer({ min: 0, max: RUN_MS });
  const target = fc.constantFrom(...ids, 'leader');
  const anyTarget = fc.constantFrom(...ids, 'leader', ...services);
  const groups = fc
    .tuple(
      fc.shuffledSubarray([...ids, ...services, 'storage'], { minLength: 1 }),
      fc.integer({ min: 1, max: 3 }),
    )
    .map(([members, count]) => {
      const gs: string[][] = Array.from({ length: Math.min(count, members.length) }, () => []);
      members.forEach((m, i) => gs[i % gs.length].push(m));
      return gs;
    });
  // Leadership transfer is Raft's; the switches are the algorithm's own plus everyone's.
  const campaign = has(algorithm, 'safety.preVote') ? { transfer: fc.boolean() } : {};
  const switches = Object.fromEntries(
    SWITCHES.filter((k) => has(algorithm, `safety.${k}`)).map((k) => [k, fc.boolean()]),
  );
  return fc.oneof(
    fc.record({ atMs, do: fc.constant('kill'), node: anyTarget }),
    fc.record({ atMs, do: fc.constant('stop'), node: target }),
    fc.record({ atMs, do: fc.constant('restart'), node: anyTarget }),
    fc.record(
      { atMs, do: fc.constant('pause'), node: target, forMs: fc.integer({ min: 1, max: 40_000 }) },
      { requiredKeys: ['atMs', 'do', 'node'] },
    ),
    fc.record({ atMs, do: fc.constant('resume'), node: target }),
    fc.record({ atMs, do: fc.constant('partition'), groups }),
    fc.record({ atMs, do: fc.constant('heal') }),
    fc.record({ atMs, do: fc.constant('isolate'), node: anyTarget }),
    fc.record({
      atMs,
      do: fc.constant('clockRate'),
      node: target,
      // Mostly within the band; sometimes any rate the format takes (the run must still work).
      rate: fc.oneof(
        { arbitrary: fc.constantFrom(...RATES), weight: 9 },
        { arbitrary: fc.double({ min: 0.05, max: 20, noNaN: true }), weight: 1 },
      ),
    }),
    fc.record(
      { atMs, do: fc.constant('campaign'), node: fc.constantFrom(...voters, 'leader'), ...campaign },
      { requiredKeys: ['atMs', 'do', 'node'] },
    ),
    fc.record({ atMs, do: fc.constant('write'), node: target }),
    // Switching a defence off (or back on) mid-run: what follows may break an invariant, but
    // only one that a switch allows.
    fc.record(
      { atMs, do: fc.constant('safety'), followersReject: fc.boolean(), ...switches },
      { requiredKeys: ['atMs', 'do'] },
    ),
  );
}

/** An algorithm (absent: Raft, the default), and the cluster's size and witness if it has one. */
const setupArb: fc.Arbitrary<Setup> = fc
  .option(fc.constantFrom(...ALGORITHM_KINDS), { nil: undefined, freq: ALGORITHM_KINDS.length })
  .chain((algorithm) =>
    fc.record({
      algorithm: fc.constant(algorithm),
      nodes: fc.option(fc.integer({ min: 1, max: 9 }), { nil: undefined }),
      witness: has(algorithm, 'witness')
        ? fc.option(fc.boolean(), { nil: undefined })
        : fc.constant(undefined),
    }),
  );

const networkArb = fc
  .tuple(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 2000 }))
  .map(([delayMsMin, spread]) => ({ delayMsMin, delayMsMax: delayMsMin + spread }));

/** Experiments the format accepts under one setup: every field optional, every value in range. */
function experimentArb(setup: Setup): fc.Arbitrary<Record<string, unknown>> {
  const { algorithm, nodes, witness } = setup;
  const given = {
    ...(algorithm !== undefined ? { algorithm: fc.constant(algorithm) } : {}),
    ...(nodes !== undefined ? { nodes: fc.constant(nodes) } : {}),
    ...(witness !== undefined ? { witness: fc.constant(witness) } : {}),
  };
  // Only the algorithm's own settings; any other algorithm's is an error (the broken cases).
  const sections = Object.fromEntries(
    SETTING_PATHS.filter((p): p is SectionPath => p !== 'witness' && !p.startsWith('safety.'))
      .filter((p) => has(algorithm, p))
      .map((p) => [p, sectionArb(p)]),
  );
  const switches = Object.fromEntries(
    SWITCHES.filter((k) => has(algorithm, `safety.${k}`)).map((k) => [k, fc.boolean()]),
  );
  return fc.record(
    {
      ...given,
      seed: fc.integer({ min: 0, max: 4294967295 }),
      ...sections,
      network: networkArb,
      warmUpMs: fc.integer({ min: 0, max: 5000 }),
      safety: fc.record({ followersReject: fc.boolean(), ...switches }, { requiredKeys: [] }),
      workload: fc.record(
        {
          leaderWriteEveryMs: fc.integer({ min: 10, max: 5000 }),
          clients: fc.integer({ min: 0, max: 20 }),
          clientWriteEveryMs: fc.integer({ min: 10, max: 5000 }),
          clientLeaderCacheMs: fc.integer({ min: 0, max: 60_000 }),
        },
        { requiredKeys: [] },
      ),
      faults: fc.array(validFaultArb(setup), { maxLength: 10 }),
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
    { requiredKeys: Object.keys(given) as never[] },
  );
}

const validExperimentArb: fc.Arbitrary<Record<string, unknown>> = setupArb.chain(experimentArb);

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

/**
 * The places each input's mutations have put a value at. Whether a replacement breaks a field is
 * told by the kind of the valid value it replaces; a value a mutation placed says nothing of it
 * (a boolean replacing a bad 0 in a boolean field makes it valid again).
 */
const PLACED = new WeakMap<object, string[]>();
const pathKey = (path: (string | number)[]) => path.map(String).join('\u0000');
function markPlaced(input: object, path: (string | number)[]): void {
  PLACED.set(input, [...(PLACED.get(input) ?? []), pathKey(path)]);
}
function isPlaced(input: object, path: (string | number)[]): boolean {
  const marks = PLACED.get(input) ?? [];
  return path.some((_, i) => marks.includes(pathKey(path.slice(0, i + 1))));
}

const replaceArb = fc
  .tuple(fc.nat(), fc.constantFrom(...BAD_VALUES))
  .map(([pick, bad]): Mutation => (input) => {
    const all = places(input).filter((p) => p.path.length > 0);
    if (!all.length) return null;
    const { path, value } = all[pick % all.length];
    const placed = structuredClone(bad);
    setOwn(at(input, path.slice(0, -1)) as object, path[path.length - 1], placed);
    const original = !isPlaced(input, path);
    markPlaced(input, path);
    const wrongKind = kind(bad) !== kind(value);
    const neverValid = typeof bad === 'number' && NEVER_VALID_NUMBERS.some((n) => Object.is(n, bad));
    return (original && wrongKind) || neverValid
      ? { field: path.join('.'), by: 'shape', still: holds(path, placed) }
      : null;
  });

const addKeyArb = fc
  .tuple(fc.nat(), UNKNOWN_KEY, fc.jsonValue({ maxDepth: 2 }))
  .map(([pick, key, value]): Mutation => (input) => {
    const objects = places(input).filter((p) => kind(p.value) === 'object');
    const { path, value: obj } = objects[pick % objects.length];
    setOwn(obj as object, key, value);
    markPlaced(input, [...path, key]);
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

/** What an input's algorithm, size and witness are, as parsing will read them. */
interface Cluster {
  algorithm: AlgorithmKind | undefined;
  nodes: number;
  witness: boolean;
}
function clusterOf(input: unknown): Cluster | null {
  const { known, kind: algorithm } = kindOf(input);
  if (!known) return null;
  const o = input as Record<string, unknown>;
  return { algorithm, nodes: typeof o.nodes === 'number' ? o.nodes : 5, witness: o.witness === true };
}
const hasService = (c: Cluster, id: string) =>
  (algorithmFor(c.algorithm).services ?? []).some((s) => s.id === id);

/**
 * A fault the format rejects, appended to the list; `field` is relative to the fault. A rule break
 * may depend on the cluster: `broken` says whether it is one there (the fault may be fine).
 */
type BadFault = { fault: Json; field: string; by: 'shape' | 'rule'; broken?: (c: Cluster) => boolean };
const badFaultArb = fc.constantFrom<BadFault>(
  { fault: { atMs: 1, do: 'explode', node: 'n1' }, field: 'do', by: 'shape' },
  { fault: { atMs: 1, node: 'n1' }, field: 'do', by: 'shape' },
  { fault: { atMs: -5, do: 'kill', node: 'n1' }, field: 'atMs', by: 'shape' },
  { fault: { atMs: 1.5, do: 'heal' }, field: 'atMs', by: 'shape' },
  { fault: { atMs: 1, do: 'kill', node: 'n0' }, field: 'node', by: 'shape' },
  { fault: { atMs: 1, do: 'kill', node: 'N1' }, field: 'node', by: 'shape' },
  { fault: { atMs: 1, do: 'kill', node: 'storage' }, field: 'node', by: 'shape' },
  { fault: { atMs: 1, do: 'kill', node: 'n1', forMs: 5 }, field: 'forMs', by: 'shape' },
  { fault: { atMs: 1, do: 'stop', node: 'n1', forMs: 5 }, field: 'forMs', by: 'shape' },
  { fault: { atMs: 1, do: 'pause', node: 'n1', forMs: 0 }, field: 'forMs', by: 'shape' },
  { fault: { atMs: 1, do: 'clockRate', node: 'n1', rate: 0 }, field: 'rate', by: 'shape' },
  { fault: { atMs: 1, do: 'clockRate', node: 'n1', rate: 100 }, field: 'rate', by: 'shape' },
  { fault: { atMs: 1, do: 'heal', transfer: true }, field: 'transfer', by: 'shape' },
  { fault: { atMs: 1, do: 'safety', fencing: false, node: 'n1' }, field: 'node', by: 'shape' },
  { fault: { atMs: 1, do: 'safety', jitter: true }, field: 'jitter', by: 'shape' },
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
  {
    fault: { atMs: 1, do: 'partition', groups: [['n1', 'n9']] },
    field: 'groups.0.1',
    by: 'rule',
    broken: (c) => c.nodes < 9,
  },
  { fault: { atMs: 1, do: 'kill', node: 'n9' }, field: 'node', by: 'rule', broken: (c) => c.nodes < 9 },
  // The witness: Raft's, and there only when asked for; it never campaigns.
  {
    fault: { atMs: 1, do: 'isolate', node: 'w' },
    field: 'node',
    by: 'rule',
    broken: (c) => !(c.witness && has(c.algorithm, 'witness')),
  },
  { fault: { atMs: 1, do: 'campaign', node: 'w' }, field: 'node', by: 'rule' },
  // Services exist only under the algorithms that run against them, and can only be killed,
  // restarted, isolated or partitioned.
  {
    fault: { atMs: 1, do: 'kill', node: 'api' },
    field: 'node',
    by: 'rule',
    broken: (c) => !hasService(c, 'api'),
  },
  {
    fault: { atMs: 1, do: 'restart', node: 'm2' },
    field: 'node',
    by: 'rule',
    broken: (c) => !hasService(c, 'm2'),
  },
  {
    fault: { atMs: 1, do: 'isolate', node: 'z3' },
    field: 'node',
    by: 'rule',
    broken: (c) => !hasService(c, 'z3'),
  },
  {
    fault: { atMs: 1, do: 'partition', groups: [['n1'], ['m1', 'storage']] },
    field: 'groups.1.0',
    by: 'rule',
    broken: (c) => !hasService(c, 'm1'),
  },
  { fault: { atMs: 1, do: 'pause', node: 'api' }, field: 'node', by: 'rule' },
  { fault: { atMs: 1, do: 'stop', node: 'm1' }, field: 'node', by: 'rule' },
  { fault: { atMs: 1, do: 'campaign', node: 'z1' }, field: 'node', by: 'rule' },
  // Raft's own: leadership transfer and the switches only some algorithms have.
  {
    fault: { atMs: 1, do: 'campaign', node: 'n1', transfer: true },
    field: 'transfer',
    by: 'rule',
    broken: (c) => !has(c.algorithm, 'safety.preVote'),
  },
  ...SWITCHES.map((k): BadFault => ({
    fault: { atMs: 1, do: 'safety', [k]: false },
    field: k,
    by: 'rule',
    broken: (c) => !has(c.algorithm, `safety.${k}`),
  })),
  { fault: null, field: '', by: 'shape' },
  { fault: ['kill', 'n1'], field: '', by: 'shape' },
);

const appendFaultArb = badFaultArb.map(({ fault, field, by, broken }): Mutation => (input) => {
  if (input.faults === undefined) input.faults = [];
  if (!Array.isArray(input.faults)) return null;
  const i = input.faults.length;
  const placed = structuredClone(fault);
  input.faults.push(placed);
  markPlaced(input, ['faults', i]);
  const text = show(placed);
  // A later mutation may change the fault (delete its bad field) or, for a rule break, the cluster.
  const brokenIn = (now: unknown) => {
    if (!broken) return true;
    const c = clusterOf(now);
    return c !== null && broken(c);
  };
  if (!brokenIn(input)) return null;
  return {
    field: field ? `faults.${i}.${field}` : `faults.${i}`,
    by,
    still: (now) => holds(['faults', i], placed)(now) && show(placed) === text && brokenIn(now),
  };
});

/** A value that path would have under an algorithm that has it. */
const SETTING_VALUES: { [P in SettingPath]: fc.Arbitrary<unknown> } = {
  witness: fc.boolean(),
  raft: sectionArb('raft'),
  lease: sectionArb('lease'),
  'safety.quorum': fc.boolean(),
  // Off is what an algorithm without a token has anyway, and is accepted under it (older links).
  'safety.fencing': fc.constant(true),
  'safety.preVote': fc.boolean(),
  'safety.checkQuorum': fc.boolean(),
  etcd: sectionArb('etcd'),
  zookeeper: sectionArb('zookeeper'),
  sentinel: sectionArb('sentinel'),
  stonith: sectionArb('stonith'),
  bully: sectionArb('bully'),
  ring: sectionArb('ring'),
};

/** Where a setting is (not) given, and whether the input's algorithm has it. */
function settingBroken(path: SettingPath, value: unknown) {
  const at = path.split('.');
  return (now: unknown) => {
    const c = clusterOf(now);
    return c !== null && !has(c.algorithm, path) && holds(at, value)(now);
  };
}

/** Another algorithm's setting, well-formed, given to this one: named by its path. */
const wrongSettingArb = fc
  .tuple(
    fc.nat(),
    fc.constantFrom(...SETTING_PATHS).chain((p) => fc.tuple(fc.constant(p), SETTING_VALUES[p])),
  )
  .map(([pick, [first, value]]): Mutation => (input) => {
    const c = clusterOf(input);
    if (!c) return null;
    // The one drawn if the algorithm lacks it, else another it lacks (every algorithm lacks some).
    const lacking = SETTING_PATHS.filter((p) => !has(c.algorithm, p));
    const path = lacking.includes(first) ? first : lacking[pick % lacking.length];
    const placed = path === first ? structuredClone(value) : ALGORITHM_SETTINGS[path]();
    const [head, key] = path.split('.');
    markPlaced(input, path.split('.'));
    if (key === undefined) setOwn(input, head, placed);
    else {
      if (input[head] === undefined) input[head] = {};
      if (kind(input[head]) !== 'object') return null;
      setOwn(input[head] as object, key, placed);
    }
    return { field: path, by: 'rule', still: settingBroken(path, placed) };
  });

/** The experiment moved to another algorithm, its settings left as they were: each is named. */
const switchAlgorithmArb = fc
  .option(fc.constantFrom(...ALGORITHM_KINDS), { nil: undefined })
  .map((to): Mutation => (input) => {
    if (to === undefined) delete input.algorithm;
    else input.algorithm = to;
    markPlaced(input, ['algorithm']);
    // Fencing off is accepted (and dropped) under an algorithm with no token: not broken.
    const given = SETTING_PATHS.filter(
      (p) =>
        !has(to, p) &&
        lookup(input, p.split('.')).found &&
        !(p === 'safety.fencing' && lookup(input, p.split('.')).value === false),
    );
    if (!given.length) return null;
    const path = given[0];
    return { field: path, by: 'rule', still: settingBroken(path, lookup(input, path.split('.')).value) };
  });

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  replaceArb,
  addKeyArb,
  deleteArb,
  appendFaultArb,
  wrongSettingArb,
  switchAlgorithmArb,
);

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
  // The format's own fields under a real algorithm, whose settings decide what else is an error.
  fc
    .tuple(
      fc.constantFrom(...ALGORITHM_KINDS),
      fc.dictionary(fc.constantFrom(...SCHEMA_KEYS, 'extra'), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
      fc.subarray(SETTING_PATHS.filter((p) => !p.includes('.'))),
    )
    .map(([algorithm, fields, sections]) => ({
      ...fields,
      ...Object.fromEntries(sections.map((p) => [p, ALGORITHM_SETTINGS[p]()])),
      algorithm,
    })),
);

// ------------------------------------------------------------------ the oracle

/** What each safety switch, when off, lets happen (docs/model.md): nothing else is ever allowed. */
const HAZARDS: Record<'quorum' | 'fencing', readonly InvariantName[]> = {
  quorum: ['oneLeaderPerTerm', 'leaderHasMajority'],
  fencing: ['staleWriteAccepted'],
};

/** Was the switch off at any moment of the run: from the start, or switched off by a fault? */
function everOff(e: Experiment, name: 'quorum' | 'fencing'): boolean {
  return e.safety[name] === false || e.faults.some((f) => f.do === 'safety' && f[name] === false);
}

function clocksInBand(e: Experiment): boolean {
  return e.faults.every(
    (f) => f.do !== 'clockRate' || (f.rate >= RATES[0] && f.rate <= RATES[RATES.length - 1]),
  );
}

/**
 * Every violation is allowed by something that allows it: a switch that was off (its own hazards
 * and no others), or the algorithm itself (what it breaks by design: Bully's and the Ring's one
 * leader per epoch, with no quorum). With every switch on, only the algorithm's own.
 */
function unexplained(e: Experiment, violations: readonly Violation[]): Violation[] {
  const alg = algorithmFor(e.algorithm);
  return violations.filter((v) => {
    switch (v.allowedBy) {
      case 'algorithm':
        return !(alg.unsafeBy ?? []).includes(v.invariant);
      case 'quorum':
        return !(
          has(e.algorithm, 'safety.quorum') &&
          everOff(e, 'quorum') &&
          HAZARDS.quorum.includes(v.invariant)
        );
      case 'fencing':
        return !(everOff(e, 'fencing') && HAZARDS.fencing.includes(v.invariant));
      default:
        return true;
    }
  });
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
    // Tight timings cost events per simulated ms; a few hundred rounds say as much as 20 s.
    const untilMs = Math.min(r.experiment.untilMs, RUN_MS, RUN_ROUNDS * fastestRoundMs(r.experiment));
    const e = { ...r.experiment, untilMs };
    let trace!: ReturnType<typeof runExperiment>;
    expect(() => (trace = runExperiment(e)), `reproduce with seed=${e.seed}: ${show(e)}`).not.toThrow();
    expect(trace.final.nodes.length).toBe(e.nodes + (e.witness ? 1 : 0));
    if (clocksInBand(e)) {
      const why2 = `reproduce with seed=${e.seed}: ${show(e)}`;
      expect(unexplained(e, trace.summary.violations), why2).toEqual([]);
      if (!everOff(e, 'quorum') && !everOff(e, 'fencing'))
        expect(
          trace.summary.violations.filter((v) => v.allowedBy !== 'algorithm'),
          why2,
        ).toEqual([]);
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
  it('knows every field of the current format, read from its schema', () => {
    for (const field of [
      'algorithm',
      'releaseOnCancel',
      'ttlMs',
      'watch',
      'hopMs',
      'checkQuorum',
      'transfer',
    ])
      expect(SCHEMA_KEYS.has(field), field).toBe(true);
    expect(SCHEMA_KEYS.has('jitterMs')).toBe(false);
  });

  it(
    'accepts every valid experiment and runs it without a violation the switches do not allow',
    () => {
      fc.assert(
        fc.property(validExperimentArb, (input) => {
          const r = parseExperiment(input);
          expect(r.ok, `${show(input)}\n${r.ok ? '' : show(r.errors)}`).toBe(true);
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
  'algorithm',
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

/** A fault as a live command: without its time (it applies now). */
function toCommand(fault: Record<string, unknown>): Command {
  const { atMs: _atMs, ...command } = fault;
  return command as Command;
}
/** Commands of any algorithm, for links that hold them with nonsense around. */
const commandArb: fc.Arbitrary<Command> = setupArb.chain((setup) => validFaultArb(setup).map(toCommand));
/** Short valid runs, as the lab's Share button would encode them: commands for the run's own algorithm. */
const realRunArb = setupArb
  .chain((setup) =>
    fc.record({
      experiment: experimentArb(setup).map((e) => ({ ...e, faults: [] }) as ExperimentInput),
      commands: fc.array(
        fc.record({
          atMs: fc.integer({ min: 0, max: 600_000 }),
          command: validFaultArb(setup).map(toCommand),
        }),
        { maxLength: 6 },
      ),
      atMs: fc.integer({ min: 0, max: 600_000 }),
    }),
  )
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
        v: fc.oneof(fc.constantFrom(1, SHARE_VERSION), fc.jsonValue({ maxDepth: 1 })),
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
  algorithm: fc.oneof(
    fc.constantFrom(...ALGORITHM_KINDS),
    fc.constantFrom(...ALGORITHM_KINDS).map((k) => k.toUpperCase()),
    fc.constantFrom('k8s', 'etcd', 'lease', 'Raft '),
    junkArb,
  ),
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
  fc.tuple(names, fc.boolean()).chain(([name, raw]) =>
    // Own keys only: a junk name such as "constructor" is no parameter of ours.
    (Object.prototype.hasOwnProperty.call(valueFor, name) ? valueFor[name] : junkArb).map((value) =>
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
  ignored('algorithm', setupFromLink && e?.algorithm === q.get('algorithm')?.toLowerCase());
  ignored('witness', setupFromLink);
  const rawSpeed = Number(q.get('speed'));
  ignored('speed', Number.isFinite(rawSpeed) && rawSpeed > 0 && p.speed === clampSpeed(rawSpeed));
  // Scenario ids are read in any case, as algorithm names are.
  ignored('scenario', !run && p.scenario?.id === q.get('scenario')?.toLowerCase());
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

/** readEmbedParams' contract: never throws; one of the known choices; what it ignored is named. */
function checkEmbedOptions(search: string): void {
  const why = `search ${JSON.stringify(search)}`;
  let o!: ReturnType<typeof readEmbedParams>;
  expect(() => (o = readEmbedParams(search)), why).not.toThrow();
  expect(
    SCENES.map((s) => s.id),
    why,
  ).toContain(o.scene);
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
      (name === 'scene' && SCENES.some((sc) => (sc.aliases as readonly string[]).includes(raw.toLowerCase())))
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
