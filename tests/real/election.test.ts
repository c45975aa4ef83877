// The lesson's exercises on a real cluster (etcd at 20/200 ms, candidates with a 2 s session
// TTL): kill -9 the holder and time the takeover; kill -STOP it past its TTL, kill -CONT it, and
// see its stale write rejected by the fenced storage (accepted and flagged with fencing off); a
// pause shorter than the TTL is survived. leader_count returns to 1 after each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealRun } from '../../src/real/run';
import { appFailoverMs, appSettled, eventsOf, pausePastTtl, waitFor } from '../../src/real/waits';
import { hasEtcd, startRun, stopAndCheck } from './harness';

const TTL_MS = 2000;

describe.skipIf(!hasEtcd)('election on etcd', () => {
  let run: RealRun;
  beforeAll(async () => {
    run = await startRun({ ttlMs: TTL_MS });
  });
  afterAll(() => stopAndCheck(run));

  it('kill -9 of the holder: another leads once its lease expires, and leader_count is back to 1', async () => {
    const { leader } = await appSettled(run);
    const failoverMs = await appFailoverMs(run);
    console.log(`application failover after kill -9, TTL 2 s: ${failoverMs} ms`);
    // The lease had up to TTL/3 left to its last renewal; etcd expires leases on a 500 ms sweep.
    expect(failoverMs).toBeGreaterThan(TTL_MS - TTL_MS / 3 - 100);
    expect(failoverMs).toBeLessThan(TTL_MS + 2000);
    await waitFor('leader_count 1', () => run.fold.leaderCount() === 1, 2000);
    expect(run.trace().summary.failovers.at(-1)).toMatchObject({ from: leader, cause: 'killed' });
  });

  it('kill -STOP of the holder past its TTL, then kill -CONT: its stale write is rejected by the storage', async () => {
    const r = await pausePastTtl(run);
    console.log(`stale write ${r.zombie.atMs - r.resumedAtMs} ms after SIGCONT: ${r.zombie.result}`);
    expect(r.nextToken).toBeGreaterThan(r.token);
    expect(r.leaderCountWhilePaused).toBe(2); // the stopped one still believed it led
    expect(r.zombie).toMatchObject({ token: r.token, result: 'rejected', stale: false });
    expect(r.zombie.maxTokenSeen).toBeGreaterThanOrEqual(r.nextToken);
    expect(r.zombie.atMs - r.resumedAtMs).toBeLessThan(1000);
    expect(run.fold.leaderCount()).toBe(1);
  });

  it('the same with fencing off: the stale write is accepted and flagged as a violation', async () => {
    run.apply({ do: 'safety', fencing: false });
    const r = await pausePastTtl(run);
    run.apply({ do: 'safety', fencing: true });
    expect(r.zombie).toMatchObject({ token: r.token, result: 'accepted', stale: true });
    expect(eventsOf(run, 'violation', r.resumedAtMs).map((v) => v.invariant)).toContain('staleWriteAccepted');
  });

  it('a pause shorter than the TTL is survived: the same leader, its lease renewed after the gap', async () => {
    const { leader, token } = await appSettled(run);
    const pausedAtMs = run.nowMs();
    // Shorter than the TTL minus a keep-alive period: the lease survives wherever the pause lands.
    run.apply({ do: 'pause', node: 'leader', forMs: 1000 });
    const renewed = await waitFor(
      'the lease renewed after the pause',
      () => eventsOf(run, 'session', pausedAtMs).find((e) => e.node === leader && e.state === 'renewed'),
      5000,
    );
    expect(renewed.gapMs).toBeGreaterThan(1000);
    expect(eventsOf(run, 'steppedDown', pausedAtMs)).toEqual([]);
    expect(run.fold.topLeader()).toMatchObject({ id: leader, token });
  });
});

describe.skipIf(!hasEtcd)('election on etcd, with a renew deadline', () => {
  const DEADLINE_MS = 1500;
  let run: RealRun;
  beforeAll(async () => {
    run = await startRun({ ttlMs: TTL_MS, renewDeadlineMs: DEADLINE_MS });
  });
  afterAll(() => stopAndCheck(run));

  it('a leader cut from its etcd member stops acting at its renew deadline; the next leads when its lease expires', async () => {
    const { leader } = await appSettled(run);
    const cutAtMs = run.nowMs();
    run.apply({ do: 'isolate', node: leader, part: 'candidate' });
    const down = await waitFor(
      'the cut leader to step down',
      () => eventsOf(run, 'steppedDown', cutAtMs).find((e) => e.node === leader),
      TTL_MS + 2000,
    );
    expect(down.reason).toBe('renew deadline passed');
    // The deadline counts from its last answered keep-alive, up to TTL/3 before the cut.
    expect(down.atMs - cutAtMs).toBeLessThanOrEqual(DEADLINE_MS + 200);
    expect(down.atMs - cutAtMs).toBeGreaterThan(DEADLINE_MS - TTL_MS / 3 - 100);
    // It cannot revoke its lease through the cut: the next waits for etcd to expire it.
    const next = await waitFor(
      'the next leader',
      () => eventsOf(run, 'elected', cutAtMs).find((e) => e.node !== leader),
      TTL_MS + 3000,
    );
    expect(next.atMs).toBeGreaterThan(down.atMs);
    expect(eventsOf(run, 'write', down.atMs + 50).filter((w) => w.node === leader)).toEqual([]);
    run.apply({ do: 'heal' });
    await waitFor(
      'a new session once healed',
      () => eventsOf(run, 'session', next.atMs).find((e) => e.node === leader && e.state === 'granted'),
      5000,
    );
    expect(run.fold.leaderCount()).toBe(1);
  });
});
