// etcd's own raft on a real 3-member cluster at 20/200 ms: how soon a new raft leader comes
// after a SIGKILL of the raft leader (3 trials, the median judged against 3 x the election
// timeout with pre-vote, 6 x without), and what isolating and healing a follower does to the
// terms: nothing with pre-vote, a forced election without it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RealRun } from '../../src/real/cluster/run';
import { eventsOf, raftFailoverMs, raftSettled, sleep } from '../../src/real/measurement/waits';
import { hasEtcd, median, startRun, stopAndCheck } from './harness';

const ELECTION_MS = 200;
const TRIALS = 3;

async function raftFailovers(run: RealRun): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < TRIALS; i++) times.push(await raftFailoverMs(run));
  return times;
}

async function isolateAndHealFollower(run: RealRun) {
  const { leader, term } = await raftSettled(run);
  const follower = run.fold.hosts.find((h) => h.id !== leader)!.id;
  const cutAtMs = run.nowMs();
  run.apply({ do: 'isolate', node: follower });
  await sleep(10 * ELECTION_MS);
  const member = `m${follower.slice(1)}`;
  // Proof that the cut holds: the isolated member lost its leader.
  const lostLeader = eventsOf(run, 'memberLeader', cutAtMs).some(
    (e) => e.member === member && e.leader === null,
  );
  // What the isolated member did while cut off: with pre-vote it only pre-campaigns; without, it
  // becomes a candidate and raises its term. (On a loaded machine the others may still hold an
  // election of their own for other reasons: the isolated member's roles are the mechanism.)
  const campaignedForReal = eventsOf(run, 'member', cutAtMs).some(
    (e) => e.member === member && e.role === 'candidate',
  );
  // The term at the heal: the two members left together may have held an election of their own
  // during the cut (a stall on a loaded machine), which is not the heal's doing.
  const others = run.fold.hosts.filter((h) => h.id !== follower);
  const atHeal = Math.max(...others.map((h) => h.memberTerm));
  // The highest term the isolated member reached while cut off (its own campaigns raise it).
  const isolatedTerm = Math.max(
    term,
    ...eventsOf(run, 'member', cutAtMs)
      .filter((e) => e.member === member)
      .map((e) => e.term),
  );
  run.apply({ do: 'heal' });
  const settled = await raftSettled(run, 500);
  return { before: term, atHeal, after: settled.term, isolatedTerm, lostLeader, campaignedForReal };
}

describe.skipIf(!hasEtcd)('raft, pre-vote on', () => {
  let run: RealRun;
  beforeAll(async () => {
    run = await startRun({ preVote: true });
  });
  afterAll(() => stopAndCheck(run));

  it('a new raft leader within 3 x the election timeout after kill -9 of the raft leader (median of 3)', async () => {
    const times = await raftFailovers(run);
    console.log(`raft failover at 20/200, pre-vote on: ${times.join(', ')} ms`);
    expect(median(times)).toBeLessThanOrEqual(3 * ELECTION_MS);
  });

  it('isolating a follower and healing changes no term', async () => {
    const r = await isolateAndHealFollower(run);
    expect(r.lostLeader).toBe(true);
    expect(r.campaignedForReal).toBe(false);
    // Pre-vote: the isolated member never raised its term, and its return changed none.
    expect(r.isolatedTerm).toBe(r.before);
    expect(r.after).toBe(r.atHeal);
    // 21 of 21 real runs kept one term throughout; the two others may still hold an election of
    // their own during the cut on a loaded machine (a stall), which is not the heal's doing.
    if (r.atHeal !== r.before)
      console.log(`term moved ${r.before} -> ${r.atHeal} during the cut, without the isolated member`);
  });
});

describe.skipIf(!hasEtcd)('raft, pre-vote off', () => {
  let run: RealRun;
  beforeAll(async () => {
    run = await startRun({ preVote: false });
  });
  afterAll(() => stopAndCheck(run));

  it('a new raft leader within 6 x the election timeout after kill -9 of the raft leader (median of 3)', async () => {
    const times = await raftFailovers(run);
    console.log(`raft failover at 20/200, pre-vote off: ${times.join(', ')} ms`);
    expect(median(times)).toBeLessThanOrEqual(6 * ELECTION_MS);
  });

  it("isolating a follower and healing forces a new term: the isolated member's campaigns disrupt the leader", async () => {
    const r = await isolateAndHealFollower(run);
    expect(r.lostLeader).toBe(true);
    expect(r.campaignedForReal).toBe(true);
    expect(r.after).toBeGreaterThan(r.before);
  });
});
