// The experiment: the engine's public input format. Every field is optional; parsing fills in
// the defaults (Kubernetes' 15 s / 10 s / 2 s lease timing) and reports each bad field by its
// path, so the CLI, the page's URL loader and the file importer all speak the same errors.
import { z } from 'zod';

const nodeRef = z.string().regex(/^(n[1-9]|w|leader)$/, 'must be "n1".."n9", "w" or "leader"');
const groupMember = z.string().regex(/^(n[1-9]|w|storage)$/, 'must be "n1".."n9", "w" or "storage"');
const at = z.number().int().min(0).max(1e9);

export const faultSchema = z.discriminatedUnion('do', [
  z.object({ atMs: at, do: z.literal('kill'), node: nodeRef }).strict(),
  z.object({ atMs: at, do: z.literal('restart'), node: nodeRef }).strict(),
  z
    .object({ atMs: at, do: z.literal('pause'), node: nodeRef, forMs: z.number().int().min(1).max(1e8).optional() })
    .strict(),
  z.object({ atMs: at, do: z.literal('resume'), node: nodeRef }).strict(),
  z.object({ atMs: at, do: z.literal('partition'), groups: z.array(z.array(groupMember).min(1)).min(1) }).strict(),
  z.object({ atMs: at, do: z.literal('heal') }).strict(),
  z.object({ atMs: at, do: z.literal('isolate'), node: nodeRef }).strict(),
  z
    .object({ atMs: at, do: z.literal('clockRate'), node: nodeRef, rate: z.number().min(0.05).max(20) })
    .strict(),
  z.object({ atMs: at, do: z.literal('campaign'), node: nodeRef, transfer: z.boolean().optional() }).strict(),
  z.object({ atMs: at, do: z.literal('write'), node: nodeRef }).strict(),
  z
    .object({
      atMs: at,
      do: z.literal('safety'),
      quorum: z.boolean().optional(),
      fencing: z.boolean().optional(),
      followersReject: z.boolean().optional(),
      preVote: z.boolean().optional(),
    })
    .strict(),
]);

export const experimentSchema = z
  .object({
    seed: z.number().int().min(0).max(4294967295).default(1),
    nodes: z.number().int().min(1).max(9).default(5),
    witness: z.boolean().default(false),
    lease: z
      .object({
        durationMs: z.number().int().min(1).max(3_600_000).default(15000),
        renewDeadlineMs: z.number().int().min(1).max(3_600_000).default(10000),
        retryPeriodMs: z.number().int().min(1).max(3_600_000).default(2000),
        jitterMs: z.number().int().min(0).max(600_000).default(2000),
      })
      .strict()
      .prefault({}),
    network: z
      .object({
        delayMsMin: z.number().int().min(0).max(60_000).default(2),
        delayMsMax: z.number().int().min(0).max(60_000).default(10),
      })
      .strict()
      .prefault({}),
    warmUpMs: z.number().int().min(0).max(600_000).default(2000),
    safety: z
      .object({
        quorum: z.boolean().default(true),
        fencing: z.boolean().default(true),
        followersReject: z.boolean().default(true),
        preVote: z.boolean().default(true),
      })
      .strict()
      .prefault({}),
    workload: z
      .object({
        leaderWriteEveryMs: z.number().int().min(10).max(3_600_000).default(1000),
        clients: z.number().int().min(0).max(10_000).default(0),
        clientWriteEveryMs: z.number().int().min(10).max(3_600_000).default(1000),
        clientLeaderCacheMs: z.number().int().min(0).max(86_400_000).default(30000),
      })
      .strict()
      .prefault({}),
    faults: z.array(faultSchema).max(10_000).default([]),
    untilMs: z.number().int().min(0).max(86_400_000).default(60000),
    sampleEveryMs: z.number().int().min(10).max(3_600_000).default(100),
    limits: z
      .object({
        maxEvents: z.number().int().min(100).max(10_000_000).default(200_000),
        maxSamples: z.number().int().min(100).max(10_000_000).default(100_000),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type Experiment = z.output<typeof experimentSchema>;
export type ExperimentInput = z.input<typeof experimentSchema>;
export type Fault = z.output<typeof faultSchema>;
/** A live command: a fault without its time (it applies now). */
export type Command = DistributiveOmit<Fault, 'atMs'>;
type DistributiveOmit<T, K extends keyof T> = T extends unknown ? Omit<T, K> : never;

export interface FieldError {
  /** Dotted path of the bad field, e.g. "lease.renewDeadlineMs" or "faults.2.node". */
  field: string;
  message: string;
}

export type ParseResult = { ok: true; experiment: Experiment } | { ok: false; errors: FieldError[] };

/**
 * Kubernetes' leader-election validation (client-go NewLeaderElector):
 * LeaseDuration > RenewDeadline > JitterFactor(1.2) x RetryPeriod > 0.
 */
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
  if (id === 'w') return e.witness;
  return Number(id.slice(1)) <= e.nodes;
}

/** One error per bad field; an unknown key is named by its own path rather than its parent's. */
function issuesToErrors(issues: z.core.$ZodIssue[]): FieldError[] {
  const field = (path: PropertyKey[]) => (path.length ? path.map(String).join('.') : '(root)');
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ field: field([...issue.path, key]), message: 'unknown field' }))
      : [{ field: field(issue.path), message: issue.message }],
  );
}

/** Parse and validate an experiment; never throws. */
export function parseExperiment(input: unknown): ParseResult {
  const parsed = experimentSchema.safeParse(input ?? {});
  if (!parsed.success) return { ok: false, errors: issuesToErrors(parsed.error.issues) };
  const e = parsed.data;
  const errors = validateLeaseTiming(e.lease);
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
          if (m !== 'storage' && !nodeExists(m, e)) {
            errors.push({ field: `faults.${i}.groups.${gi}.${mi}`, message: `no node "${m}" in this cluster` });
          } else if (seen.has(m)) {
            errors.push({ field: `faults.${i}.groups.${gi}.${mi}`, message: `"${m}" is in more than one group` });
          }
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

/** Parse or throw an Error listing every bad field (for tests and scripts). */
export function normalizeExperiment(input: unknown): Experiment {
  const r = parseExperiment(input);
  if (!r.ok) throw new Error('invalid experiment: ' + formatErrors(r.errors));
  return r.experiment;
}

export function formatErrors(errors: FieldError[]): string {
  return errors.map((e) => `${e.field}: ${e.message}`).join('; ');
}

export function parseCommand(input: unknown): { ok: true; command: Command } | { ok: false; errors: FieldError[] } {
  const withTime = typeof input === 'object' && input !== null ? { ...input, atMs: 0 } : input;
  const r = faultSchema.safeParse(withTime);
  if (!r.success) return { ok: false, errors: issuesToErrors(r.error.issues) };
  const { atMs: _atMs, ...command } = r.data;
  return { ok: true, command: command as Command };
}
