// The candidate's state machine (etcd's session and election recipe, the check-then-work-then-
// send write loop) against the fake gateway, on a hand-driven clock where a pause is what
// SIGSTOP does: the process's timers freeze while time and etcd go on, and fire late, in order.
import { beforeEach, describe, expect, it } from 'vitest';
import { Candidate, type CandidateSettings } from '../../../src/real/candidate/candidateCore';
import type { CandidateOutput, WriteEvent } from '../../../src/real/model/events';
import { FencedStorage } from '../../../src/real/cluster/storage';
import { FakeEtcd, type FakeGateway } from './fakeGateway';
import { ManualClock } from './manualClock';

const base: CandidateSettings = {
  node: 'n1',
  prefix: 'lab-election',
  ttlMs: 2000,
  renewDeadlineMs: null,
  warmUpMs: 500,
  writeEveryMs: 300,
  retryMs: 100,
};

interface Host {
  candidate: Candidate;
  gateway: FakeGateway;
  events: CandidateOutput[];
}

let clock: ManualClock;
let etcd: FakeEtcd;
let storage: FencedStorage;
let writes: (WriteEvent & { checkedAtMs: number })[];
let highestIssued: number;

beforeEach(() => {
  clock = new ManualClock();
  etcd = new FakeEtcd(clock);
  highestIssued = 0;
  storage = new FencedStorage(() => highestIssued);
  writes = [];
});

function host(node: string, settings: Partial<CandidateSettings> = {}): Host {
  const events: CandidateOutput[] = [];
  const gateway = etcd.gateway(node, 600);
  const candidate = new Candidate(
    { ...base, ...settings, node },
    {
      gateway,
      storage: {
        write: (w) =>
          Promise.resolve().then(() => {
            const { event } = storage.write(w, clock.nowMs);
            writes.push({ ...event, checkedAtMs: w.checkedAtMs });
            return { result: event.result, maxTokenSeen: event.maxTokenSeen };
          }),
      },
      emit: (e) => {
        events.push(e);
        if (e.type === 'elected') highestIssued = Math.max(highestIssued, e.term);
      },
      clock: clock.view(node),
    },
  );
  return { candidate, gateway, events };
}

const of = <T extends CandidateOutput['type']>(h: Host, type: T) =>
  h.events.filter((e): e is Extract<CandidateOutput, { type: T }> => e.type === type);

/** Two candidates, n1 first: n1 leads and has warmed up. */
async function twoWithLeader(settings: Partial<CandidateSettings> = {}) {
  const a = host('n1', settings);
  const b = host('n2', settings);
  a.candidate.start();
  await clock.advance(10);
  b.candidate.start();
  await clock.advance(1000);
  return { a, b };
}

describe('candidate against the fake gateway', () => {
  it('the first to campaign leads with its key create revision as the token; the other waits behind it', async () => {
    const { a, b } = await twoWithLeader();
    const [ca] = of(a, 'campaign');
    const [cb] = of(b, 'campaign');
    expect(cb.term).toBeGreaterThan(ca.term);
    expect(of(a, 'elected')).toEqual([
      { atMs: expect.any(Number), type: 'elected', node: 'n1', term: ca.term, votes: [] },
    ]);
    expect(of(b, 'elected')).toEqual([]);
    expect(a.candidate.role).toBe('leader');
    expect(b.candidate.role).toBe('candidate');
    // Ready after the warm-up, then a write every writeEveryMs with its token, all accepted.
    const [ready] = of(a, 'ready');
    expect(ready.atMs - of(a, 'elected')[0].atMs).toBe(500);
    expect(writes.length).toBeGreaterThanOrEqual(1);
    expect(writes.every((w) => w.node === 'n1' && w.token === ca.term && w.result === 'accepted')).toBe(true);
  });

  it('keeps its lease alive about every TTL/3 while it runs', async () => {
    const { a } = await twoWithLeader();
    const calls = a.gateway.calls;
    const acks = of(a, 'keepAlive').length;
    await clock.advance(6000);
    expect(of(a, 'keepAlive').length - acks).toBe(9); // 6000 / 666
    expect(a.gateway.calls).toBeGreaterThan(calls);
    expect(a.candidate.role).toBe('leader');
    expect(of(a, 'steppedDown')).toEqual([]);
  });

  it('a killed leader is replaced once its lease expires on the etcd side (about one TTL)', async () => {
    const { b } = await twoWithLeader();
    const killedAtMs = clock.nowMs;
    clock.pause('n1'); // never resumed: the process is gone
    await clock.advance(4000);
    const [elected] = of(b, 'elected');
    expect(elected).toBeDefined();
    const failoverMs = elected.atMs - killedAtMs;
    // The last keep-alive was up to TTL/3 before the kill; the lessor sweeps every 500 ms.
    expect(failoverMs).toBeGreaterThan(2000 - 667);
    expect(failoverMs).toBeLessThanOrEqual(2000 + 500);
    expect(elected.term).toBe(of(b, 'campaign')[0].term);
  });

  it('a pause shorter than the TTL is survived: the lease is renewed after the gap', async () => {
    const { a, b } = await twoWithLeader();
    clock.pause('n1');
    await clock.advance(1500);
    clock.resume('n1');
    await clock.advance(100);
    expect(a.candidate.role).toBe('leader');
    const renewed = of(a, 'session').filter((e) => e.state === 'renewed');
    expect(renewed).toHaveLength(1);
    expect(renewed[0].gapMs).toBeGreaterThan(1500);
    expect(of(b, 'elected')).toEqual([]);
  });

  it('a pause past the TTL: the write checked before it is sent after it with the old token, and fencing rejects it', async () => {
    const { a, b } = await twoWithLeader();
    const oldToken = a.candidate.token;
    clock.pause('n1');
    const pausedAtMs = clock.nowMs;
    await clock.advance(4000);
    expect(of(b, 'elected')).toHaveLength(1);
    const newToken = b.candidate.token;
    expect(newToken).toBeGreaterThan(oldToken);
    await clock.advance(1000); // n2 has written with its token by now
    clock.resume('n1');
    const resumedAtMs = clock.nowMs;
    await clock.advance(50);
    const zombie = writes.filter((w) => w.node === 'n1' && w.atMs >= resumedAtMs);
    expect(zombie).toHaveLength(1);
    expect(zombie[0]).toMatchObject({ token: oldToken, result: 'rejected', maxTokenSeen: newToken });
    expect(zombie[0].checkedAtMs).toBeLessThan(pausedAtMs); // checked before the pause
    const [down] = of(a, 'steppedDown');
    expect(down).toMatchObject({ node: 'n1', term: oldToken, reason: 'lease expired' });
    expect(a.candidate.role).not.toBe('leader');
  });

  it('the same pause with fencing off: the stale write is accepted', async () => {
    const { a, b } = await twoWithLeader();
    storage.fencing = false;
    clock.pause('n1');
    await clock.advance(5000);
    clock.resume('n1');
    const resumedAtMs = clock.nowMs;
    await clock.advance(50);
    const zombie = writes.filter((w) => w.node === 'n1' && w.atMs >= resumedAtMs);
    expect(zombie).toHaveLength(1);
    expect(zombie[0]).toMatchObject({ token: a.candidate.token, result: 'accepted', stale: true });
    expect(b.candidate.token).toBeGreaterThan(zombie[0].token);
  });

  it('a pause past the renew deadline but within the TTL: it stops acting and gives up its lease, so the next leads at once', async () => {
    const settings = { ttlMs: 3000, renewDeadlineMs: 1500 };
    const { a, b } = await twoWithLeader(settings);
    clock.pause('n1');
    await clock.advance(2000);
    expect(of(b, 'elected')).toEqual([]); // the lease is still alive in etcd
    clock.resume('n1');
    const resumedAtMs = clock.nowMs;
    await clock.advance(50);
    const [down] = of(a, 'steppedDown');
    expect(down).toMatchObject({ node: 'n1', reason: 'renew deadline passed' });
    // No write was checked after the deadline had passed (one checked before the pause may leave).
    expect(writes.filter((w) => w.node === 'n1' && w.checkedAtMs >= resumedAtMs)).toEqual([]);
    // It revoked its lease: its key went with it, and n2 leads without waiting for the TTL.
    const [elected] = of(b, 'elected');
    expect(elected).toBeDefined();
    expect(elected.atMs - resumedAtMs).toBeLessThan(50);
  });

  it('cut from etcd with a renew deadline: it stops at the deadline, before its lease ends', async () => {
    const settings = { ttlMs: 3000, renewDeadlineMs: 1500 };
    const { a, b } = await twoWithLeader(settings);
    const lastAck = of(a, 'keepAlive').at(-1)!.atMs;
    a.gateway.cut = true;
    await clock.advance(1600);
    const [down] = of(a, 'steppedDown');
    expect(down.reason).toBe('renew deadline passed');
    expect(down.atMs).toBe(lastAck + 1500);
    expect(writes.filter((w) => w.node === 'n1' && w.checkedAtMs > down.atMs)).toEqual([]);
    // Its revoke cannot reach etcd either: the key lives until the lease expires there.
    expect(of(b, 'elected')).toEqual([]);
    await clock.advance(2000);
    expect(of(b, 'elected')).toHaveLength(1);
  });

  it('a keep-alive waits for its answer as long as the session lasts, not a fixed request timeout', async () => {
    // etcd holds a renewal while its raft elects a leader; cut at 600 ms, it would be retried
    // on that grid and answered up to a timeout after the new raft leader could have.
    const settings = { ttlMs: 3000, renewDeadlineMs: 2000 };
    const { a } = await twoWithLeader(settings);
    const lastAck = of(a, 'keepAlive').at(-1)!.atMs;
    a.gateway.cut = true;
    await clock.advance(1100);
    // Sent one period (1000 ms) after the last answer: 1000 ms of the 2000 ms deadline left.
    expect(a.gateway.keepAliveTimeouts.at(-1)).toBe(lastAck + 2000 - (lastAck + 1000));
    expect(a.gateway.keepAliveTimeouts.every((t) => t > 600)).toBe(true);
    expect(of(a, 'steppedDown')).toEqual([]);
  });

  it('a write rejected for a newer token deposes the leader, which campaigns again', async () => {
    const { a } = await twoWithLeader();
    const token = a.candidate.token;
    storage.write({ node: 'n3', token: token + 10, checkedAtMs: clock.nowMs }, clock.nowMs);
    await clock.advance(400);
    const [down] = of(a, 'steppedDown');
    expect(down).toMatchObject({ reason: 'fenced by storage', term: token });
    expect(of(a, 'campaign').length).toBe(2);
  });

  it('resign deletes the key: the next candidate leads at once', async () => {
    const { a, b } = await twoWithLeader();
    const at = clock.nowMs;
    await a.candidate.resign();
    await clock.advance(10);
    expect(of(a, 'steppedDown')[0].reason).toBe('resigned');
    expect(of(b, 'elected')[0].atMs - at).toBeLessThanOrEqual(10);
    expect(etcd.leases.size).toBe(1); // n1's lease was revoked
  });
});
