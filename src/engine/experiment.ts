// The experiment, the engine's public input: every field is optional; parsing fills in defaults
// (Kubernetes' 15 s / 10 s / 2 s lease) and names each bad field by path, the same for the CLI, URL
// loader and importer. Schemas run on the lab's validator (schemaKit.ts) and, in Node, on zod.
import type * as zm from 'zod/mini';
import { ALGORITHM_KINDS, algorithmFor } from './algorithms';
import { z as kit, type SchemaKit } from './schemaKit';

/** Whole numbers within bounds, and defaults: the fields every schema here is made of. */
function fieldKinds(z: SchemaKit) {
  const int = (min: number, max: number) => z.int().check(z.minimum(min), z.maximum(max));
  const intOr = (min: number, max: number, fallback: number) => z._default(int(min, max), fallback);
  const boolOr = (fallback: boolean) => z._default(z.boolean(), fallback);
  return { int, intOr, boolOr };
}

// Settings only some algorithms have, absent from the schema's defaults: parsing fills in those the
// chosen algorithm uses (ALGORITHM_SETTINGS) and rejects the others by name.
export function settingsSchemas(z: SchemaKit) {
  const { intOr, boolOr } = fieldKinds(z);
  return {
    leaseSchema: z.strictObject({
      durationMs: intOr(1, 3_600_000, 15000),
      renewDeadlineMs: intOr(1, 3_600_000, 10000),
      retryPeriodMs: intOr(1, 3_600_000, 2000),
      releaseOnCancel: boolOr(false),
    }),
    raftSchema: z.strictObject({
      heartbeatMs: intOr(1, 600_000, 100),
      electionTimeoutMs: intOr(2, 3_600_000, 1000),
    }),
    etcdSchema: z.strictObject({
      ttlMs: intOr(1000, 3_600_000, 10_000),
      /** 0: none. Otherwise the leader stops acting when no keep-alive has succeeded for this long. */
      renewDeadlineMs: intOr(0, 3_600_000, 0),
    }),
    zookeeperSchema: z.strictObject({
      sessionTimeoutMs: intOr(1, 3_600_000, 10_000),
      tickTimeMs: intOr(1, 600_000, 2000),
      /** predecessor: the recipe; leader: every candidate watches the leader's znode (the herd effect). */
      watch: z._default(z.enum(['predecessor', 'leader']), 'predecessor'),
    }),
    sentinelSchema: z.strictObject({
      /** `sentinel monitor <name> <ip> <port> <quorum>`: sentinels that must agree the primary is down. */
      quorum: intOr(1, 3, 2),
      /** `down-after-milliseconds`: no valid PING reply for this long and a sentinel calls it down. */
      downAfterMs: intOr(1, 3_600_000, 30_000),
      /** `failover-timeout`: a failover not done in this long is aborted; a new try waits twice it. */
      failoverTimeoutMs: intOr(1, 86_400_000, 180_000),
      /** redis.conf `min-replicas-to-write`: 0 is off (Redis's default). */
      minReplicasToWrite: intOr(0, 8, 0),
      /** redis.conf `min-replicas-max-lag`: a replica counts while its last ACK is at most this old. */
      minReplicasMaxLagMs: intOr(1, 3_600_000, 10_000),
    }),
    stonithSchema: z.strictObject({
      /** Corosync's `token`: a node not heard from for this long is lost. */
      tokenMs: intOr(1, 600_000, 3000),
      /** Pacemaker's `stonith-timeout`: how long to wait for the fence device to confirm. */
      timeoutMs: intOr(1, 3_600_000, 60_000),
    }),
    bullySchema: z.strictObject({
      heartbeatMs: intOr(10, 600_000, 1000),
      timeoutMs: intOr(10, 3_600_000, 4000),
      answerTimeoutMs: intOr(1, 600_000, 500),
    }),
    ringSchema: z.strictObject({
      heartbeatMs: intOr(10, 600_000, 1000),
      timeoutMs: intOr(10, 3_600_000, 4000),
      hopMs: intOr(0, 600_000, 50),
      ackTimeoutMs: intOr(1, 600_000, 500),
      roundTimeoutMs: intOr(10, 3_600_000, 6000),
    }),
  };
}

/** The experiment's schemas, built with `z`; `kinds` is a parameter as its type depends on these schemas. */
export function experimentSchemas<K extends string>(z: SchemaKit, kinds: readonly [K, ...K[]]) {
  const { int, intOr, boolOr } = fieldKinds(z);
  const settings = settingsSchemas(z);
  /** A nested section: unknown keys are errors, and an absent section gets its fields' defaults. */
  const section = <T extends zm.core.$ZodLooseShape>(shape: T) => {
    const object = z.strictObject(shape);
    // {} is valid input for every section (all its fields have defaults); the generic type cannot tell.
    return z.prefault(object, {} as zm.input<typeof object>);
  };

  // Nodes n1..n9, the witness w, "leader" (whoever leads then), and the services an algorithm runs
  // against: the API server "api" and store members m1..m9 (which exist is checked per algorithm).
  const endpoint = (also: string) =>
    z
      .string()
      .check(
        z.regex(
          new RegExp(`^(n[1-9]|w|${also}|api|m[1-9]|z[1-9]|s[1-9]|f1)$`),
          `must be "n1".."n9", "w", "${also}", "api", "m1".."m9", "z1".."z9", "s1".."s9" or "f1"`,
        ),
      );
  const nodeRef = endpoint('leader');
  const groupMember = endpoint('storage');
  const at = int(0, 1e9);
  const onNode = <D extends string>(d: D) => z.strictObject({ atMs: at, do: z.literal(d), node: nodeRef });
  /** The safety switches, as the experiment sets them and a `safety` fault turns them. */
  const switches = <F>(followersReject: F) => ({
    quorum: z.optional(z.boolean()),
    fencing: z.optional(z.boolean()),
    followersReject,
    preVote: z.optional(z.boolean()),
    checkQuorum: z.optional(z.boolean()),
  });

  const faultSchema = z.discriminatedUnion('do', [
    onNode('kill'),
    onNode('stop'),
    onNode('restart'),
    z.strictObject({ atMs: at, do: z.literal('pause'), node: nodeRef, forMs: z.optional(int(1, 1e8)) }),
    onNode('resume'),
    z.strictObject({
      atMs: at,
      do: z.literal('partition'),
      groups: z.array(z.array(groupMember).check(z.minLength(1))).check(z.minLength(1)),
    }),
    z.strictObject({ atMs: at, do: z.literal('heal') }),
    onNode('isolate'),
    z.strictObject({
      atMs: at,
      do: z.literal('clockRate'),
      node: nodeRef,
      rate: z.number().check(z.minimum(0.05), z.maximum(20)),
    }),
    z.strictObject({ atMs: at, do: z.literal('campaign'), node: nodeRef, transfer: z.optional(z.boolean()) }),
    onNode('write'),
    z.strictObject({ atMs: at, do: z.literal('safety'), ...switches(z.optional(z.boolean())) }),
  ]);

  const experimentSchema = z.strictObject({
    /** The election algorithm; absent means Raft (so every experiment written before it opens unchanged). */
    algorithm: z.optional(z.enum(kinds)),
    seed: intOr(0, 4294967295, 1),
    nodes: intOr(1, 9, 5),
    witness: z.optional(z.boolean()),
    raft: z.optional(settings.raftSchema),
    lease: z.optional(settings.leaseSchema),
    etcd: z.optional(settings.etcdSchema),
    zookeeper: z.optional(settings.zookeeperSchema),
    sentinel: z.optional(settings.sentinelSchema),
    stonith: z.optional(settings.stonithSchema),
    bully: z.optional(settings.bullySchema),
    ring: z.optional(settings.ringSchema),
    network: section({
      delayMsMin: intOr(0, 60_000, 2),
      delayMsMax: intOr(0, 60_000, 10),
    }),
    warmUpMs: intOr(0, 600_000, 2000),
    safety: section(switches(boolOr(true))),
    workload: section({
      leaderWriteEveryMs: intOr(10, 3_600_000, 1000),
      clients: intOr(0, 10_000, 0),
      clientWriteEveryMs: intOr(10, 3_600_000, 1000),
      clientLeaderCacheMs: intOr(0, 86_400_000, 30000),
    }),
    faults: z._default(z.array(faultSchema).check(z.maxLength(10_000)), []),
    untilMs: intOr(0, 86_400_000, 60000),
    sampleEveryMs: intOr(10, 3_600_000, 100),
    limits: section({
      maxEvents: intOr(100, 10_000_000, 200_000),
      maxSamples: intOr(100, 10_000_000, 100_000),
    }),
  });
  return { faultSchema, experimentSchema };
}

const SETTINGS = settingsSchemas(kit);
export const { faultSchema, experimentSchema } = experimentSchemas(kit, ALGORITHM_KINDS);
type Settings = typeof SETTINGS;

export type Experiment = zm.output<typeof experimentSchema>;
export type RaftSettings = zm.output<Settings['raftSchema']>;

/** etcd's Raft defaults (--heartbeat-interval, --election-timeout), and a slower one to watch at 1x. */
export const RAFT_PRESETS = {
  etcd: { heartbeatMs: 100, electionTimeoutMs: 1000 },
  teaching: { heartbeatMs: 1000, electionTimeoutMs: 5000 },
} as const satisfies Record<string, RaftSettings>;

/** Warm-up as the lesson names it: a cold leader's (the top of its "1-10 s"), a pre-warmed standby's. */
export const WARM_UP_PRESETS = {
  cold: 10_000,
  prewarmed: 0,
} as const satisfies Record<string, number>;
export type BullySettings = zm.output<Settings['bullySchema']>;
export type RingSettings = zm.output<Settings['ringSchema']>;
export type SentinelSettings = zm.output<Settings['sentinelSchema']>;

/** The settings only some algorithms have (ElectionAlgorithm.settings lists its own), with their defaults. */
export const ALGORITHM_SETTINGS = {
  witness: (): boolean => false,
  raft: () => SETTINGS.raftSchema.parse({}),
  lease: () => SETTINGS.leaseSchema.parse({}),
  'safety.quorum': (): boolean => true,
  'safety.fencing': (): boolean => true,
  'safety.preVote': (): boolean => true,
  'safety.checkQuorum': (): boolean => true,
  etcd: () => SETTINGS.etcdSchema.parse({}),
  zookeeper: () => SETTINGS.zookeeperSchema.parse({}),
  sentinel: () => SETTINGS.sentinelSchema.parse({}),
  stonith: () => SETTINGS.stonithSchema.parse({}),
  bully: () => SETTINGS.bullySchema.parse({}),
  ring: () => SETTINGS.ringSchema.parse({}),
};
export type SettingPath = keyof typeof ALGORITHM_SETTINGS;
const SETTING_PATHS = Object.keys(ALGORITHM_SETTINGS) as SettingPath[];

/** The settings that are sections of their own (an object of timings), not a switch or the witness. */
export type SettingsSection = Exclude<SettingPath, 'witness' | `safety.${string}`>;
export const SETTINGS_SECTIONS = SETTING_PATHS.filter(
  (p): p is SettingsSection => p !== 'witness' && !p.startsWith('safety.'),
);

/** Top-level keys in the schema's order, and safety's: a filled-in experiment keeps them so. */
const KEY_ORDER = Object.keys(experimentSchema.shape);
const SAFETY_ORDER = ['quorum', 'fencing', 'followersReject', 'preVote', 'checkQuorum'];
export type ExperimentInput = zm.input<typeof experimentSchema>;
export type Fault = zm.output<typeof faultSchema>;
/** A live command: a fault without its time (it applies now). */
export type Command = DistributiveOmit<Fault, 'atMs'>;
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

export interface FieldError {
  /** Dotted path of the bad field, e.g. "lease.renewDeadlineMs" or "faults.2.node". */
  field: string;
  message: string;
}

type ParseResult = { ok: true; experiment: Experiment } | { ok: false; errors: FieldError[] };

/** client-go NewLeaderElector's: LeaseDuration > RenewDeadline > JitterFactor(1.2) x RetryPeriod > 0 */
export function validateLeaseTiming(lease: {
  durationMs: number;
  renewDeadlineMs: number;
  retryPeriodMs: number;
}): FieldError[] {
  const errors: FieldError[] = [];
  if (!(lease.retryPeriodMs > 0)) {
    errors.push({ field: 'lease.retryPeriodMs', message: 'retryPeriodMs must be greater than zero' });
  }
  if (!(lease.durationMs > lease.renewDeadlineMs)) {
    errors.push({
      field: 'lease.durationMs',
      message: `durationMs (${lease.durationMs}) must be greater than renewDeadlineMs (${lease.renewDeadlineMs})`,
    });
  }
  if (!(lease.renewDeadlineMs > 1.2 * lease.retryPeriodMs)) {
    errors.push({
      field: 'lease.renewDeadlineMs',
      // Rounded for the message only: 1.2 x 3 is 3.5999999999999996 in floating point.
      message: `renewDeadlineMs (${lease.renewDeadlineMs}) must be greater than 1.2 x retryPeriodMs (${Number((1.2 * lease.retryPeriodMs).toFixed(3))})`,
    });
  }
  return errors;
}

function nodeExists(id: string, e: Experiment): boolean {
  if (id === 'leader') return true;
  if (id === 'w') return e.witness === true;
  if (id.startsWith('n')) return Number(id.slice(1)) <= e.nodes;
  return (algorithmFor(e.algorithm).services ?? []).some((s) => s.id === id);
}

/** One error per bad field; an unknown key is named by its own path rather than its parent's. */
function issuesToErrors(issues: zm.core.$ZodIssue[]): FieldError[] {
  const field = (path: PropertyKey[]) => (path.length ? path.map(String).join('.') : '(root)');
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ field: field([...issue.path, key]), message: 'unknown field' }))
      : [{ field: field(issue.path), message: issue.message }],
  );
}

type Bag = Record<string, unknown>;
const getPath = (o: Bag, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Bag)[k] : undefined), o);

/**
 * Fill in the settings the algorithm uses and name those given that mean nothing under it. Keys keep
 * the schema's order, so a Raft experiment written before algorithms existed comes out as it did.
 */
function applyAlgorithmSettings(raw: unknown, e: Experiment, errors: FieldError[]): Experiment {
  const alg = algorithmFor(e.algorithm);
  const given = (raw && typeof raw === 'object' ? raw : {}) as Bag;
  const filled = e as unknown as Bag;
  const safety = e.safety as unknown as Bag;
  for (const path of SETTING_PATHS) {
    if (alg.settings.includes(path)) {
      if (getPath(filled, path) !== undefined) continue;
      if (path.startsWith('safety.')) safety[path.slice(7)] = ALGORITHM_SETTINGS[path]();
      else filled[path] = ALGORITHM_SETTINGS[path]();
    } else if (path === 'safety.fencing' && getPath(given, path) === false) {
      // Fencing off is what an algorithm without a token has anyway: an older link that said so
      // keeps working (and the switch is left out, as the algorithm has none).
      delete safety.fencing;
      continue;
    } else if (getPath(given, path) !== undefined) {
      errors.push({ field: path, message: `means nothing under the ${alg.title} algorithm (leave it out)` });
    }
  }
  e.faults.forEach((f, i) => errors.push(...commandProblems(e, f, `faults.${i}.`)));
  const inOrder = (o: Bag, keys: string[]) =>
    Object.fromEntries(keys.flatMap((k) => (o[k] === undefined ? [] : [[k, o[k]]])));
  return { ...inOrder(filled, KEY_ORDER), safety: inOrder(safety, SAFETY_ORDER) } as unknown as Experiment;
}

/** What a command (or fault) sets that means nothing under the algorithm; `prefix` starts each field. */
export function commandProblems(e: Pick<Experiment, 'algorithm'>, cmd: Command, prefix = ''): FieldError[] {
  const alg = algorithmFor(e.algorithm);
  const errors: FieldError[] = [];
  const nothing = `means nothing under the ${alg.title} algorithm`;
  if (cmd.do === 'safety') {
    for (const k of ['quorum', 'fencing', 'preVote', 'checkQuorum'] as const) {
      if (cmd[k] !== undefined && !alg.settings.includes(`safety.${k}`))
        errors.push({ field: prefix + k, message: nothing });
    }
  }
  if (cmd.do === 'campaign' && cmd.transfer !== undefined && !alg.settings.includes('safety.preVote')) {
    errors.push({ field: prefix + 'transfer', message: nothing });
  }
  if ('node' in cmd && cmd.node === 'w' && !alg.settings.includes('witness')) {
    errors.push({ field: prefix + 'node', message: `${alg.title} has no witness` });
  }
  // What a fault can do to a service of the algorithm is narrower than to a node.
  const service = 'node' in cmd && (alg.services ?? []).some((s) => s.id === cmd.node);
  if (service && cmd.do !== 'kill' && cmd.do !== 'restart' && cmd.do !== 'isolate') {
    errors.push({
      field: prefix + 'node',
      message: `a service can be killed, restarted or isolated, not sent "${cmd.do}"`,
    });
  }
  return errors;
}

export function parseExperiment(input: unknown): ParseResult {
  const parsed = experimentSchema.safeParse(input ?? {});
  if (!parsed.success) return { ok: false, errors: issuesToErrors(parsed.error.issues) };
  const errors: FieldError[] = [];
  const e = applyAlgorithmSettings(input, parsed.data, errors);
  if (e.lease) errors.push(...validateLeaseTiming(e.lease));
  if (e.zookeeper) {
    const { sessionTimeoutMs: t, tickTimeMs: tick } = e.zookeeper;
    if (t < 2 * tick || t > 20 * tick) {
      errors.push({
        field: 'zookeeper.sessionTimeoutMs',
        message: `sessionTimeoutMs (${t}) must be between 2 and 20 x tickTimeMs (${2 * tick}..${20 * tick}), as the ensemble negotiates it`,
      });
    }
  }
  if (e.etcd && e.etcd.renewDeadlineMs > 0) {
    const keepAliveMs = Math.floor(e.etcd.ttlMs / 3);
    if (e.etcd.renewDeadlineMs <= keepAliveMs || e.etcd.renewDeadlineMs > e.etcd.ttlMs) {
      errors.push({
        field: 'etcd.renewDeadlineMs',
        message: `renewDeadlineMs (${e.etcd.renewDeadlineMs}) must be longer than the keep-alive interval (ttlMs / 3 = ${keepAliveMs}) and at most ttlMs (${e.etcd.ttlMs}), or 0 for none`,
      });
    }
  }
  if (e.sentinel && e.sentinel.minReplicasToWrite > e.nodes - 1) {
    errors.push({
      field: 'sentinel.minReplicasToWrite',
      message: `minReplicasToWrite (${e.sentinel.minReplicasToWrite}) must be at most the replicas there are (nodes - 1 = ${e.nodes - 1}), or the primary could never take a write`,
    });
  }
  if (e.network.delayMsMax < e.network.delayMsMin) {
    errors.push({ field: 'network.delayMsMax', message: 'delayMsMax must be at least delayMsMin' });
  }
  e.faults.forEach((f, i) => {
    if ('node' in f && !nodeExists(f.node, e)) {
      errors.push({ field: `faults.${i}.node`, message: `no node "${f.node}" in this cluster` });
    }
    if (f.do === 'partition') {
      const seen = new Set<string>();
      f.groups.forEach((g, gi) =>
        g.forEach((m, mi) => {
          const field = `faults.${i}.groups.${gi}.${mi}`;
          if (m !== 'storage' && !nodeExists(m, e))
            errors.push({ field, message: `no node "${m}" in this cluster` });
          else if (seen.has(m)) errors.push({ field, message: `"${m}" is in more than one group` });
          seen.add(m);
        }),
      );
    }
    if (f.do === 'campaign' && f.node === 'w') {
      errors.push({ field: `faults.${i}.node`, message: 'the witness votes but never campaigns' });
    }
  });
  if (errors.length) return { ok: false, errors };
  return { ok: true, experiment: e };
}

/** Parse or throw an Error listing every bad field. */
export function normalizeExperiment(input: unknown): Experiment {
  const r = parseExperiment(input);
  if (!r.ok) throw new Error('invalid experiment: ' + formatErrors(r.errors));
  return r.experiment;
}

export function formatErrors(errors: FieldError[]): string {
  return errors.map((e) => `${e.field}: ${e.message}`).join('; ');
}

export function parseCommand(
  input: unknown,
): { ok: true; command: Command } | { ok: false; errors: FieldError[] } {
  const withTime = typeof input === 'object' && input !== null ? { ...input, atMs: 0 } : input;
  const r = faultSchema.safeParse(withTime);
  if (!r.success) return { ok: false, errors: issuesToErrors(r.error.issues) };
  const { atMs: _atMs, ...command } = r.data;
  return { ok: true, command: command as Command };
}
