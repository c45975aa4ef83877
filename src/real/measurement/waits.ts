// Waiting on a real run: for a state, raft agreement, a ready leader (the real suite and measurements).
import type { RealEvent } from '../model/events';
import { hostOfMember } from '../model/fold';
import type { RealRun } from '../cluster/run';

/** Poll until fn gives a value or withinMs passes (null): a trial records a miss, it does not abort. */
export async function within<T>(fn: () => T | null | undefined | false, withinMs: number): Promise<T | null> {
  const end = Date.now() + withinMs;
  for (;;) {
    const v = fn();
    if (v) return v;
    if (Date.now() > end) return null;
    await sleep(20);
  }
}

/** As within, but a miss is an error that says what was waited for. */
export async function waitFor<T>(
  what: string,
  fn: () => T | null | undefined | false,
  timeoutMs: number,
): Promise<T> {
  const v = await within(fn, timeoutMs);
  if (!v) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
  return v;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The run's kept events of one type, at or after sinceMs. */
export function eventsOf<T extends RealEvent['type']>(
  run: RealRun,
  type: T,
  sinceMs = 0,
): Extract<RealEvent, { type: T }>[] {
  return run
    .eventsFrom(0)
    .map((x) => x.event)
    .filter((e): e is Extract<RealEvent, { type: T }> => e.type === type && e.atMs >= sinceMs);
}

/** Another member than `not`'s became raft leader at or after sinceMs. */
export function otherBecameRaftLeader(run: RealRun, sinceMs: number, not: string) {
  return eventsOf(run, 'member', sinceMs).find((e) => e.role === 'leader' && hostOfMember(e.member) !== not);
}

/** Every member runs and follows the same raft leader at one term, and has for settleMs. */
export async function raftSettled(
  run: RealRun,
  settleMs = 300,
  timeoutMs = 10_000,
): Promise<{ leader: string; term: number }> {
  let since = -1;
  return waitFor(
    'the members to agree on one raft leader',
    () => {
      const hosts = run.fold.hosts;
      const leader = hosts[0].memberLeader;
      const term = hosts[0].memberTerm;
      const agreed =
        leader !== null &&
        hosts.every((h) => h.memberAlive && h.memberLeader === leader && h.memberTerm === term);
      if (!agreed) {
        since = -1;
        return null;
      }
      if (since < 0) since = Date.now();
      return Date.now() - since >= settleMs ? { leader, term } : null;
    },
    timeoutMs,
  );
}

/** One candidate leads and has warmed up, and every candidate has a session. */
export async function appSettled(
  run: RealRun,
  timeoutMs = 20_000,
): Promise<{ leader: string; token: number }> {
  return waitFor(
    'a ready application leader',
    () => {
      const top = run.fold.topLeader();
      const sessions = new Set(eventsOf(run, 'session').map((e) => e.node));
      return top?.ready && run.fold.leaderCount() === 1 && sessions.size === run.settings.nodes
        ? { leader: top.id, token: top.token }
        : null;
    },
    timeoutMs,
  );
}

/** Kill the raft leader's member; ms from the kill to another member's "became leader" (etcd's clock). */
export async function raftFailoverMs(run: RealRun): Promise<number> {
  const { leader } = await raftSettled(run);
  const killedAtMs = run.nowMs();
  run.apply({ do: 'kill', node: leader, part: 'member' });
  const elected = await waitFor(
    'a new raft leader',
    () => otherBecameRaftLeader(run, killedAtMs, leader),
    10_000,
  );
  run.apply({ do: 'restart', node: leader, part: 'member' });
  await run.cluster?.waitHealthy(run.cluster.members, 10_000);
  return elected.atMs - killedAtMs;
}

/** Kill -9 the application leader; ms from the kill to another candidate's election. */
export async function appFailoverMs(run: RealRun): Promise<number> {
  const { leader } = await appSettled(run);
  const killedAtMs = run.nowMs();
  run.apply({ do: 'kill', node: leader });
  const next = await waitFor(
    'a new leader',
    () => eventsOf(run, 'elected', killedAtMs).find((e) => e.node !== leader),
    run.settings.ttlMs + 10_000,
  );
  run.apply({ do: 'restart', node: leader });
  return next.atMs - killedAtMs;
}

/**
 * SIGSTOP the application leader for pauseMs (past its TTL) and wait for its write after SIGCONT (the
 * zombie); leaderCountWhilePaused is leader_count after the next election, the stopped one still leads.
 */
export async function pausePastTtl(run: RealRun, pauseMs = 2 * run.settings.ttlMs) {
  const { leader, token } = await appSettled(run);
  const pausedAtMs = run.nowMs();
  run.apply({ do: 'pause', node: leader, forMs: pauseMs });
  const next = await waitFor(
    'a leader while the holder is stopped',
    () => eventsOf(run, 'elected', pausedAtMs).find((e) => e.node !== leader),
    pauseMs,
  );
  const leaderCountWhilePaused = run.fold.leaderCount();
  const resumedAtMs = pausedAtMs + pauseMs;
  const zombie = await waitFor(
    "the stopped holder's write after SIGCONT",
    () => eventsOf(run, 'write', resumedAtMs).find((w) => w.node === leader),
    pauseMs + 5000,
  );
  await waitFor('leader_count 1', () => run.fold.leaderCount() === 1, 5000);
  return { leader, token, nextToken: next.term, leaderCountWhilePaused, zombie, resumedAtMs };
}
