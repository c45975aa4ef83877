// The experiment format: defaults, errors that name each bad field, and Kubernetes' lease rule.
import { describe, expect, it } from 'vitest';
import { normalizeExperiment, parseCommand, parseExperiment, validateLeaseTiming } from '../../../src/engine';
import { LabEngine } from '../../../src/store/labEngine';

function errors(input: unknown) {
  const r = parseExperiment(input);
  if (r.ok) throw new Error('expected the experiment to be rejected');
  return r.errors;
}

describe('defaults', () => {
  it('fills in every documented default for an empty experiment', () => {
    const e = normalizeExperiment({});
    expect(e).toMatchObject({
      seed: 1,
      nodes: 5,
      witness: false,
      raft: { heartbeatMs: 100, electionTimeoutMs: 1000 },
      network: { delayMsMin: 2, delayMsMax: 10 },
      warmUpMs: 2000,
      safety: { quorum: true, fencing: true, followersReject: true, preVote: true, checkQuorum: true },
      workload: {
        leaderWriteEveryMs: 1000,
        clients: 0,
        clientWriteEveryMs: 1000,
        clientLeaderCacheMs: 30_000,
      },
      faults: [],
      untilMs: 60_000,
      sampleEveryMs: 100,
    });
  });

  it('keeps the given fields and defaults the rest of a partly given group', () => {
    const e = normalizeExperiment({ raft: { electionTimeoutMs: 5_000 }, safety: { fencing: false } });
    expect(e.raft).toEqual({ heartbeatMs: 100, electionTimeoutMs: 5_000 });
    expect(e.safety).toEqual({
      quorum: true,
      fencing: false,
      followersReject: true,
      preVote: true,
      checkQuorum: true,
    });
    const k = normalizeExperiment({ algorithm: 'k8s-lease', lease: { durationMs: 20_000 } });
    expect(k.lease).toEqual({
      durationMs: 20_000,
      renewDeadlineMs: 10_000,
      retryPeriodMs: 2000,
      releaseOnCancel: false,
    });
  });
});

describe('errors name the bad field', () => {
  it.each([
    [{ nodes: 10 }, 'nodes'],
    [{ nodes: 0 }, 'nodes'],
    [{ seed: 1.5 }, 'seed'],
    [{ witness: 'yes' }, 'witness'],
    [{ lease: { retryPeriodMs: 0 } }, 'lease.retryPeriodMs'],
    [{ lease: { foo: 1 } }, 'lease.foo'],
    [{ colour: 'red' }, 'colour'],
    [{ network: { delayMsMin: 10, delayMsMax: 5 } }, 'network.delayMsMax'],
    [{ workload: { clients: -1 } }, 'workload.clients'],
    [
      {
        faults: [
          { atMs: 1, do: 'heal' },
          { atMs: 2, do: 'heal' },
          { atMs: 3, do: 'kill', node: 'n7' },
        ],
      },
      'faults.2.node',
    ],
    [{ faults: [{ atMs: 0, do: 'explode' }] }, 'faults.0.do'],
    [{ faults: [{ atMs: -1, do: 'kill', node: 'n1' }] }, 'faults.0.atMs'],
    [{ faults: [{ atMs: 0, do: 'pause', node: 'n1', forMs: 0 }] }, 'faults.0.forMs'],
    [{ faults: [{ atMs: 0, do: 'clockRate', node: 'n1', rate: 50 }] }, 'faults.0.rate'],
    [{ faults: [{ atMs: 0, do: 'kill', node: 'w' }] }, 'faults.0.node'],
    [{ witness: true, faults: [{ atMs: 0, do: 'campaign', node: 'w' }] }, 'faults.0.node'],
    [{ faults: [{ atMs: 0, do: 'partition', groups: [['n1'], ['n1', 'n2']] }] }, 'faults.0.groups.1.0'],
    [{ nodes: 3, faults: [{ atMs: 0, do: 'partition', groups: [['n1', 'n4']] }] }, 'faults.0.groups.0.1'],
  ])('%j -> %s', (input, field) => {
    expect(errors(input).map((e) => e.field)).toEqual([field]);
  });

  it('reports every bad field at once', () => {
    expect(
      errors({ nodes: 12, seed: -1, untilMs: 'soon' })
        .map((e) => e.field)
        .sort(),
    ).toEqual(['nodes', 'seed', 'untilMs']);
  });

  it('throws from normalizeExperiment with the fields in the message', () => {
    expect(() => normalizeExperiment({ nodes: 12 })).toThrow(/nodes/);
  });

  it('names the bad field of a live command', () => {
    const r = parseCommand({ do: 'pause', node: 'n1', forMs: -5 });
    expect(r.ok ? [] : r.errors.map((e) => e.field)).toEqual(['forMs']);
    expect(parseCommand({ do: 'kill', node: 'leader' })).toEqual({
      ok: true,
      command: { do: 'kill', node: 'leader' },
    });
  });
});

// client-go's NewLeaderElector: LeaseDuration > RenewDeadline > JitterFactor (1.2) x RetryPeriod > 0.
describe('Kubernetes lease validation', () => {
  const table: [string, number, number, number, string[]][] = [
    ['the defaults', 15_000, 10_000, 2000, []],
    ['duration equal to renew deadline', 10_000, 10_000, 2000, ['lease.durationMs']],
    ['duration below renew deadline', 9000, 10_000, 2000, ['lease.durationMs']],
    ['renew deadline exactly 1.2 x retry', 15_000, 2400, 2000, ['lease.renewDeadlineMs']],
    ['renew deadline just above 1.2 x retry', 15_000, 2401, 2000, []],
    ['renew deadline below retry', 15_000, 1500, 2000, ['lease.renewDeadlineMs']],
    ['retry period zero', 15_000, 10_000, 0, ['lease.retryPeriodMs']],
    ['two rules broken', 5000, 6000, 5000, ['lease.durationMs', 'lease.renewDeadlineMs']],
    ['1.2 x 3 in floating point', 10, 4, 3, []],
  ];

  it.each(table)('%s (%d / %d / %d)', (_name, durationMs, renewDeadlineMs, retryPeriodMs, fields) => {
    const found = validateLeaseTiming({ durationMs, renewDeadlineMs, retryPeriodMs });
    expect(found.map((e) => e.field)).toEqual(fields);
  });

  it('says which rule failed', () => {
    const [d] = validateLeaseTiming({ durationMs: 10_000, renewDeadlineMs: 10_000, retryPeriodMs: 2000 });
    expect(d.message).toBe('durationMs (10000) must be greater than renewDeadlineMs (10000)');
    const [r] = validateLeaseTiming({ durationMs: 15_000, renewDeadlineMs: 3, retryPeriodMs: 3 });
    expect(r.message).toBe('renewDeadlineMs (3) must be greater than 1.2 x retryPeriodMs (3.6)');
    const [z] = validateLeaseTiming({ durationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 0 });
    expect(z.message).toMatch(/retryPeriodMs must be greater than zero/);
  });

  it('is applied by parseExperiment', () => {
    const k8s = (lease: Record<string, number>) => ({ algorithm: 'k8s-lease', lease });
    expect(errors(k8s({ durationMs: 10_000 }))).toEqual([
      {
        field: 'lease.durationMs',
        message: 'durationMs (10000) must be greater than renewDeadlineMs (10000)',
      },
    ]);
    expect(errors(k8s({ renewDeadlineMs: 2400 })).map((e) => e.field)).toEqual(['lease.renewDeadlineMs']);
    expect(parseExperiment(k8s({ durationMs: 3, renewDeadlineMs: 2, retryPeriodMs: 1 })).ok).toBe(true);
  });
});

describe('algorithm', () => {
  it('is absent for Raft, so every experiment written before algorithms existed comes out as it did', () => {
    const e = normalizeExperiment({});
    expect('algorithm' in e).toBe(false);
    expect(Object.keys(e).slice(0, 4)).toEqual(['seed', 'nodes', 'witness', 'raft']);
    expect(e.lease).toBeUndefined();
    expect(e.safety).toEqual({
      quorum: true,
      fencing: true,
      followersReject: true,
      preVote: true,
      checkQuorum: true,
    });
  });

  it("fills in the chosen algorithm's own settings and leaves out everyone else's", () => {
    const e = normalizeExperiment({ algorithm: 'bully' });
    expect(e.bully).toEqual({ heartbeatMs: 1000, timeoutMs: 4000, answerTimeoutMs: 500 });
    expect(e.lease).toBeUndefined();
    expect(e.witness).toBeUndefined();
    expect(e.safety).toEqual({ fencing: true, followersReject: true });
    expect(normalizeExperiment({ algorithm: 'ring' }).ring).toMatchObject({
      hopMs: 50,
      roundTimeoutMs: 6000,
    });
    // A filled-in experiment parses to itself.
    expect(normalizeExperiment(e)).toEqual(e);
    expect(normalizeExperiment(normalizeExperiment({}))).toEqual(normalizeExperiment({}));
  });

  it('names a setting that means nothing under the chosen algorithm instead of ignoring it', () => {
    const fields = (input: unknown) => {
      const r = parseExperiment(input);
      return r.ok ? [] : r.errors.map((x) => x.field);
    };
    expect(fields({ algorithm: 'bully', safety: { preVote: false } })).toEqual(['safety.preVote']);
    expect(fields({ algorithm: 'bully', safety: { quorum: true } })).toEqual(['safety.quorum']);
    expect(fields({ algorithm: 'ring', lease: { durationMs: 20000 } })).toEqual(['lease']);
    expect(fields({ algorithm: 'bully', witness: true })).toEqual(['witness']);
    expect(fields({ bully: { timeoutMs: 3000 } })).toEqual(['bully']);
    expect(fields({ algorithm: 'bully', ring: {} })).toEqual(['ring']);
    expect(
      fields({ algorithm: 'bully', faults: [{ atMs: 1, do: 'safety', preVote: false, fencing: false }] }),
    ).toEqual(['faults.0.preVote']);
    expect(
      fields({ algorithm: 'ring', faults: [{ atMs: 1, do: 'campaign', node: 'n1', transfer: true }] }),
    ).toEqual(['faults.0.transfer']);
    const r = parseExperiment({ algorithm: 'bully', safety: { preVote: false } });
    expect(r.ok ? '' : r.errors[0].message).toBe('means nothing under the Bully algorithm (leave it out)');
    expect(fields({ algorithm: 'paxos' })).toEqual(['algorithm']);
    // The lease is Kubernetes' now: a Raft experiment naming one gets a clear error.
    expect(fields({ lease: { durationMs: 15_000 } })).toEqual(['lease']);
    expect(fields({ algorithm: 'k8s-lease', witness: true })).toEqual(['witness']);
    expect(fields({ algorithm: 'k8s-lease', safety: { checkQuorum: false } })).toEqual([
      'safety.checkQuorum',
    ]);
  });

  it('refuses a live command that means nothing under the run\u2019s algorithm, by name', () => {
    const lab = new LabEngine(normalizeExperiment({ algorithm: 'bully' }));
    expect(lab.apply({ do: 'safety', quorum: false })).toEqual({
      ok: false,
      error: 'quorum: means nothing under the Bully algorithm',
    });
    expect(lab.apply({ do: 'safety', fencing: false })).toEqual({ ok: true });
  });

  it('accepts faults on the services an algorithm runs against, and names those it cannot', () => {
    const fields = (input: unknown) => {
      const r = parseExperiment(input);
      return r.ok ? [] : r.errors.map((x) => `${x.field}: ${x.message}`);
    };
    const k8s = (faults: unknown[]) => ({ algorithm: 'k8s-lease', faults });
    expect(
      fields(
        k8s([
          { atMs: 1, do: 'kill', node: 'm1' },
          { atMs: 2, do: 'isolate', node: 'api' },
        ]),
      ),
    ).toEqual([]);
    expect(fields(k8s([{ atMs: 1, do: 'pause', node: 'm2' }]))).toEqual([
      'faults.0.node: a service can be killed, restarted or isolated, not sent "pause"',
    ]);
    expect(fields({ faults: [{ atMs: 1, do: 'kill', node: 'm1' }] })).toEqual([
      'faults.0.node: no node "m1" in this cluster',
    ]);
  });
});
