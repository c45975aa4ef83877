// The lesson's exercises on a real cluster (etcd at 20/200 ms, candidates with a 2 s session
// TTL): kill -9 the holder and time the takeover; kill -STOP it past its TTL, kill -CONT it, and
// see its stale write rejected by the fenced storage (accepted and flagged with fencing off); a
// pause shorter than the TTL is survived; the holder partitioned into the minority loses to the
// majority and rejoins when healed; a host killed and restarted (one that does not lead, then the
// leader's) rejoins as a follower. leader_count returns to 1 after each.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealRun } from '../../src/real/cluster/run';
import {
  appFailoverMs,
  appSettled,
  eventsOf,
  pausePastTtl,
  raftSettled,
  waitFor,
} from '../../src/real/measurement/waits';
import { hasEtcd, startRun, stopAndCheck } from './harness';

const TTL_MS = 2000;

/** leader_count after every event from now on (the fold has applied the event before listeners run). */
function countLeadersFrom(run: RealRun) {
  const seen: number[] = [run.fold.leaderCount()];
  const off = run.onEvent(() => seen.push(run.fold.leaderCount()));
  return { min: () => Math.min(...seen), max: () => Math.max(...seen), stop: off };
}

/** A restarted host: its member follows etcd's raft leader again, its candidate campaigns and waits. */
async function rejoined(run: RealRun, id: string, sinceMs: number): Promise<void> {
  const member = `m${id.slice(1)}`;
  const termAtRestart = Math.max(...run.fold.hosts.filter((h) => h.memberAlive).map((h) => h.memberTerm));
  const following = await waitFor(
    `${member} following a raft leader again`,
    () => eventsOf(run, 'memberLeader', sinceMs).find((e) => e.member === member && e.leader !== null),
    10_000,
  );
  const settled = await raftSettled(run);
  const h = run.fold.host(id)!;
  expect(h.memberLeader).toBe(run.state().raftLeader);
  // In the term it left, it follows. With the suite's fast timings (election timeout 200 ms) a
  // busy machine can hold the leader's heartbeats past the timeout, and the election that follows
  // may go to any member, this one included (seen once in a full run).
  if (settled.term === termAtRestart) expect(h.memberRole).toBe('follower');
  else console.log(`${member}: a raft election while it rejoined, term ${termAtRestart} -> ${settled.term}`);
  const campaign = await waitFor(
    `${id}'s candidate campaigning again`,
    () => eventsOf(run, 'campaign', sinceMs).find((e) => e.node === id),
    15_000,
  );
  await waitFor(`${id} waiting behind the leader`, () => run.fold.host(id)?.role === 'candidate', 5000);
  console.log(
    `${id} restarted: ${member} following ${following.atMs - sinceMs} ms, ${id} campaigning ${campaign.atMs - sinceMs} ms after`,
  );
}

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

  it('the holder partitioned into the minority: the majority elects the next, the old one stops leading; healed, leader_count is 1', async () => {
    const { leader, token } = await appSettled(run);
    const others = run.fold.hosts.map((h) => h.id).filter((id) => id !== leader);
    const cutAtMs = run.nowMs();
    const counts = countLeadersFrom(run);
    expect(run.apply({ do: 'partition', groups: [[leader], others] })).toMatchObject({ ok: true });
    // Its member cannot reach a majority, so no keep-alive is answered: the candidate's own
    // session deadline (a TTL after its last answered keep-alive) ends its leadership.
    const down = await waitFor(
      'the partitioned leader to step down',
      () => eventsOf(run, 'steppedDown', cutAtMs).find((e) => e.node === leader),
      TTL_MS + 3000,
    );
    expect(down.reason).toBe('lease expired');
    expect(down.atMs - cutAtMs).toBeLessThanOrEqual(TTL_MS + 1000);
    // The majority's etcd expires the lease (a 500 ms sweep; a new raft leader first extends it
    // when the cut member was the raft leader), and one of the two others wins.
    const next = await waitFor(
      'a leader on the majority side',
      () => eventsOf(run, 'elected', cutAtMs).find((e) => e.node !== leader),
      TTL_MS + 5000,
    );
    console.log(
      `partition: old leader stepped down ${down.atMs - cutAtMs} ms, next elected ${next.atMs - cutAtMs} ms after the cut (max leader_count ${counts.max()})`,
    );
    expect(others).toContain(next.node);
    expect(next.term).toBeGreaterThan(token);
    await waitFor('leader_count 1 during the partition', () => run.fold.leaderCount() === 1, 3000);
    expect(run.fold.topLeader()).toMatchObject({ id: next.node });
    expect(run.fold.host(leader)?.role).not.toBe('leader');
    // The old leader writes nothing once the next one leads (or the storage rejects it), and no
    // stale write is accepted.
    const staleAccepted = eventsOf(run, 'write', next.atMs).filter(
      (w) => w.node === leader && w.result === 'accepted',
    );
    expect(staleAccepted).toEqual([]);
    expect(eventsOf(run, 'violation', cutAtMs)).toEqual([]);
    const healAtMs = run.nowMs();
    run.apply({ do: 'heal' });
    await waitFor(
      'a new session for the old leader once healed',
      () => eventsOf(run, 'session', healAtMs).find((e) => e.node === leader && e.state === 'granted'),
      8000,
    );
    await appSettled(run);
    expect(run.fold.leaderCount()).toBe(1);
    expect(run.fold.topLeader()?.id).toBe(next.node);
    counts.stop();
  });

  it('a host that does not lead killed and restarted: its member follows again, its candidate campaigns behind the leader, leader_count stays 1', async () => {
    const { leader, token } = await appSettled(run);
    // Neither the candidates' leader nor etcd's raft leader: killing it starts no election.
    const raftLeader = run.state().raftLeader;
    const victim = run.fold.hosts.find((h) => h.id !== leader && h.id !== raftLeader)!.id;
    const counts = countLeadersFrom(run);
    const killedAtMs = run.nowMs();
    expect(run.apply({ do: 'kill', node: victim, part: 'host' })).toMatchObject({ ok: true, target: victim });
    await waitFor(
      'the host down',
      () => !run.fold.host(victim)?.memberAlive && !run.fold.host(victim)?.candidateAlive,
      5000,
    );
    const restartedAtMs = run.nowMs();
    expect(run.apply({ do: 'restart', node: victim })).toMatchObject({ ok: true, target: victim });
    await rejoined(run, victim, restartedAtMs);
    // Through it all the same leader, alone.
    expect(run.fold.topLeader()).toMatchObject({ id: leader, token });
    expect(eventsOf(run, 'elected', killedAtMs)).toEqual([]);
    expect(counts.min()).toBe(1);
    expect(counts.max()).toBe(1);
    counts.stop();
  });

  it("the leader's host killed and restarted: the next leads, the restarted one comes back as a follower", async () => {
    const { leader, token } = await appSettled(run);
    const killedAtMs = run.nowMs();
    expect(run.apply({ do: 'kill', node: 'leader', part: 'host' })).toMatchObject({
      ok: true,
      target: leader,
    });
    // A lease expiry (and, when its member was etcd's raft leader, a raft election first).
    const next = await waitFor(
      'the next leader',
      () => eventsOf(run, 'elected', killedAtMs).find((e) => e.node !== leader),
      TTL_MS + 5000,
    );
    console.log(`leader's host killed: next elected ${next.atMs - killedAtMs} ms after`);
    expect(next.term).toBeGreaterThan(token);
    const restartedAtMs = run.nowMs();
    expect(run.apply({ do: 'restart', node: leader })).toMatchObject({ ok: true, target: leader });
    await rejoined(run, leader, restartedAtMs);
    await appSettled(run);
    expect(run.fold.topLeader()?.id).toBe(next.node);
    expect(run.fold.leaderCount()).toBe(1);
    expect(run.trace().summary.failovers.at(-1)).toMatchObject({ from: leader, cause: 'killed' });
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
