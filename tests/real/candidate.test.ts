// The real candidate's runtime (src/real/candidate/candidateCore.ts) in this process, against a
// real etcd cluster's JSON gateway: the recipe is the engine's state machine, so what is tested
// here is its I/O (each request a gateway call, each answer the machine's input, the run's events
// in the engine's shapes), with real timers. The recipe's timing rules are tested in the engine
// against its own etcd model (tests/unit/engine/etcdElection.test.ts); this file has no etcd of
// its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Every algorithm's rules, as Node code loads them (the page loads each on demand).
import '../../src/engine/algorithms/all';
import { runExperiment, type SimEvent } from '../../src/engine';
import { Candidate } from '../../src/real/candidate/candidateCore';
import { HttpGateway } from '../../src/real/candidate/gateway';
import type { RealRun } from '../../src/real/cluster/run';
import { FencedStorage } from '../../src/real/cluster/storage';
import type { KeepAliveReport, RealEvent } from '../../src/real/model/events';

type Seen = RealEvent | KeepAliveReport;
import { waitFor } from '../../src/real/measurement/waits';
import { hasEtcd, startRun, stopAndCheck } from './harness';

const TTL_MS = 2000;
let run: RealRun;
let port: number;
let prefix = '';
let storage: FencedStorage;
let highest = 0;
const started: Candidate[] = [];

interface Host {
  candidate: Candidate;
  events: Seen[];
}

function host(node: string): Host {
  const events: Seen[] = [];
  const t0 = Date.now();
  const candidate = new Candidate(
    { node, prefix, ttlMs: TTL_MS, renewDeadlineMs: null, warmUpMs: 100, writeEveryMs: 200, retryMs: 100 },
    {
      gateway: new HttpGateway(port, 1000),
      storage: {
        write: async (w) => {
          const r = storage.write(w, Date.now() - t0);
          events.push(r.event, ...r.violations);
          return { result: r.event.result, maxTokenSeen: r.event.maxTokenSeen };
        },
      },
      emit: (e) => {
        if (e.type === 'elected') highest = Math.max(highest, e.term);
        events.push(e);
      },
      clock: {
        now: () => Date.now() - t0,
        setTimeout: (fn, ms) => setTimeout(fn, ms),
        clearTimeout: (t) => clearTimeout(t as ReturnType<typeof setTimeout>),
      },
    },
  );
  started.push(candidate);
  return { candidate, events };
}

const of = <T extends Seen['type']>(h: Host, type: T) =>
  h.events.filter((e): e is Extract<Seen, { type: T }> => e.type === type);

function keysByType(events: { type: string }[]): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const e of events) if (!m.has(e.type)) m.set(e.type, Object.keys(e).sort());
  return m;
}

describe.skipIf(!hasEtcd)('the real candidate runs the engine’s recipe on etcd', () => {
  beforeAll(async () => {
    run = await startRun({ ttlMs: TTL_MS });
    port = run.cluster!.members[0].clientPort;
  });
  afterAll(async () => {
    await Promise.all(started.map((c) => c.resign()));
    await stopAndCheck(run);
  });

  let n = 0;
  const fresh = () => {
    // Each test campaigns under a prefix of its own (the run's own candidates use another).
    prefix = `runtime-test-${++n}`;
    storage = new FencedStorage(() => highest);
  };

  it('the first to campaign leads with its key’s create revision as its token; the next waits, then leads with a higher one when the first resigns', async () => {
    fresh();
    const a = host('a1');
    a.candidate.start();
    await waitFor('a1 elected', () => of(a, 'elected')[0], 10_000);
    const b = host('b1');
    b.candidate.start();
    await waitFor('b1 campaigning', () => of(b, 'campaign')[0], 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(b.candidate.role).toBe('candidate');
    expect(of(b, 'elected')).toEqual([]);
    const tokenA = of(a, 'elected')[0].term;
    expect(of(a, 'campaign')[0].term).toBe(tokenA);
    expect(of(b, 'campaign')[0].term).toBeGreaterThan(tokenA);
    // Its writes carry its token, and the storage accepts them.
    await waitFor('a1 wrote', () => of(a, 'write')[0], 5000);
    expect(of(a, 'write').every((w) => w.token === tokenA && w.result === 'accepted')).toBe(true);

    const resignedAt = Date.now();
    await a.candidate.resign();
    expect(of(a, 'steppedDown').map((e) => e.reason)).toEqual(['resigned']);
    expect(of(a, 'session').map((e) => e.state)).toEqual(['granted', 'lost']);
    // Resigning revoked the lease, and its key with it: the next leads at once, not a TTL later.
    const e = await waitFor('b1 elected', () => of(b, 'elected')[0], 10_000);
    expect(Date.now() - resignedAt).toBeLessThan(TTL_MS);
    expect(e.term).toBe(of(b, 'campaign')[0].term);
    await b.candidate.resign();

    // Every event it has in common with the engine has exactly the engine's fields.
    const sim = runExperiment({
      seed: 4,
      nodes: 3,
      untilMs: 60_000,
      safety: { fencing: false },
      faults: [{ atMs: 20_000, do: 'pause', node: 'leader', forMs: 25_000 }],
    });
    const engine = keysByType(sim.events as SimEvent[]);
    const real = keysByType([...a.events, ...b.events]);
    for (const type of ['campaign', 'elected', 'ready', 'steppedDown', 'write']) {
      expect(real.get(type), type).toEqual(engine.get(type));
    }
  });

  it('keeps its lease alive about every TTL/3 while it runs', async () => {
    fresh();
    const a = host('a2');
    a.candidate.start();
    await waitFor('a2 elected', () => of(a, 'elected')[0], 10_000);
    const from = of(a, 'keepAlive').length;
    await new Promise((r) => setTimeout(r, 2 * TTL_MS));
    const sent = of(a, 'keepAlive').length - from;
    // 2 TTLs at TTL/3: 6 answered keep-alives, give or take one at each end.
    expect(sent).toBeGreaterThanOrEqual(5);
    expect(sent).toBeLessThanOrEqual(7);
    expect(of(a, 'steppedDown')).toEqual([]);
    await a.candidate.resign();
  });

  it('a lease revoked behind its back: the next keep-alive finds it gone, the leader steps down and campaigns again in a new session', async () => {
    fresh();
    const a = host('a3');
    a.candidate.start();
    const first = await waitFor('a3 elected', () => of(a, 'elected')[0], 10_000);
    const lease = of(a, 'session')[0].leaseId;
    await new HttpGateway(port, 1000).revoke(lease);
    const down = await waitFor('a3 stepped down', () => of(a, 'steppedDown')[0], 5000);
    expect(down.reason).toBe('lease expired');
    const again = await waitFor('a3 elected again', () => of(a, 'elected')[1], 10_000);
    // A new session, a new key, a higher create revision: the new leadership's token is higher.
    expect(again.term).toBeGreaterThan(first.term);
    const sessions = of(a, 'session');
    expect(sessions.map((s) => s.state).slice(0, 3)).toEqual(['granted', 'lost', 'granted']);
    expect(sessions[2].leaseId).not.toBe(lease);
    await a.candidate.resign();
  });
});
