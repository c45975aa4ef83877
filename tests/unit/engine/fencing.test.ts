// Fencing: the token is the term; storage accepts a write iff token >= maxTokenSeen. With fencing
// off it accepts everything and flags each write whose token is below the highest token issued.
import { describe, expect, it } from 'vitest';
import { onStorageWrite } from '../../../src/engine/storage';
import { STORAGE } from '../../../src/engine/network';
import { K, type Message } from '../../../src/engine/core';
import { bench, benchNode, bootToLeader, deliver, eventsOf, nodeView, type Bench } from './harness';

function write(b: Bench, from: string, token: number): void {
  const idx = b.c.nodes.findIndex((n) => n.id === from);
  const m = {
    id: ++b.c.msgSeq,
    type: 'write',
    from: idx,
    to: STORAGE,
    term: token,
    token,
    sentAtMs: 0,
    deliverAtMs: 0,
  };
  onStorageWrite(b.c, b.out, m as Message);
}

const writes = (b: Bench) => b.out.events.list.filter((e) => e.type === 'write');

describe('storage with fencing on', () => {
  it('accepts iff token >= maxTokenSeen and raises maxTokenSeen', () => {
    const b = bench();
    b.c.books.highestTokenIssued = 6;
    for (const t of [3, 5, 5, 4, 6, 2]) write(b, 'n1', t);
    expect(writes(b).map((w) => [w.token, w.result, w.maxTokenSeen])).toEqual([
      [3, 'accepted', 3],
      [5, 'accepted', 5],
      [5, 'accepted', 5],
      [4, 'rejected', 5],
      [6, 'accepted', 6],
      [2, 'rejected', 6],
    ]);
    expect(b.c.storage).toMatchObject({ maxTokenSeen: 6, accepted: 4, rejected: 2 });
    expect(b.c.books.counters.fencingRejections).toBe(2);
    expect(b.c.books.violations).toEqual([]);
  });

  it('answers a rejected write with a retryable error that names the newer token', () => {
    const b = bench();
    write(b, 'n2', 5);
    const before = b.c.msgSeq;
    write(b, 'n1', 4);
    const answers = b.c.heap
      .filter((e) => e.kind === K.deliver && (e.msg as Message).id > before)
      .map((e) => e.msg as Message);
    expect(answers).toEqual([
      expect.objectContaining({ type: 'writeRejected', to: 0, token: 4, maxTokenSeen: 5 }),
    ]);
  });

  it("leaves Raft's own state alone when storage refuses a write: the refusal is the application's error", () => {
    // etcd's raft never hears of the storage; terms come only from Raft's own messages.
    const b = bench();
    const n1 = benchNode(b, 'n1');
    Object.assign(n1, { role: 'leader', term: 4 });
    deliver(b, 'n2', 'n1', { type: 'writeRejected', term: 5, token: 4, maxTokenSeen: 5 });
    expect(n1).toMatchObject({ role: 'leader', term: 4 });
    expect(b.out.events.list.filter((e) => e.type === 'steppedDown')).toEqual([]);
  });
});

describe('storage with fencing off', () => {
  it('accepts every write and flags those below the highest token issued as stale', () => {
    const b = bench({ safety: { fencing: false } });
    b.c.books.highestTokenIssued = 6;
    for (const t of [5, 6, 4, 6]) write(b, 'n1', t);
    expect(writes(b).map((w) => [w.token, w.result, w.stale])).toEqual([
      // 5 is not below maxTokenSeen, but token 6 was already issued: a zombie's write.
      [5, 'accepted', true],
      [6, 'accepted', false],
      [4, 'accepted', true],
      [6, 'accepted', false],
    ]);
    expect(b.c.books.counters).toMatchObject({ staleWritesAccepted: 2, fencingRejections: 0 });
    expect(b.c.books.violations.map((v) => [v.invariant, v.allowedBy])).toEqual([
      ['staleWriteAccepted', 'fencing'],
      ['staleWriteAccepted', 'fencing'],
    ]);
    // maxTokenSeen still never goes down.
    expect(b.c.storage.maxTokenSeen).toBe(6);
  });
});

describe('tokens in a run', () => {
  it("are the leader's term, claimed first, and increase strictly across leadership changes", () => {
    const { sim } = bootToLeader({
      seed: 21,
      untilMs: 120_000,
      faults: [
        { atMs: 20_000, do: 'kill', node: 'leader' },
        { atMs: 50_000, do: 'kill', node: 'leader' },
      ],
    });
    sim.runUntil(120_000);
    const elected = eventsOf(sim, 'elected');
    expect(elected).toHaveLength(3);
    const claims = eventsOf(sim, 'write').filter((w) => w.kind === 'claim');
    expect(claims.map((w) => [w.node, w.token])).toEqual(elected.map((e) => [e.node, e.term]));
    expect(claims.map((w) => w.token)).toEqual(
      [...new Set(claims.map((w) => w.token))].sort((x, y) => x - y),
    );
    for (const e of elected) {
      const own = eventsOf(sim, 'write').filter((w) => w.node === e.node && w.atMs >= e.atMs);
      // The claim is the new leader's first write; every regular write carries its term.
      expect(own[0]).toMatchObject({ kind: 'claim', token: e.term });
      const regular = own.filter((w) => w.kind === 'leader' && w.token === e.term);
      expect(regular.length).toBeGreaterThan(0);
    }
    expect(sim.summary().fencingRejections).toBe(0);
  });

  it('are written every leaderWriteEveryMs once the leader has warmed up', () => {
    const { sim, leader } = bootToLeader({
      seed: 22,
      network: { delayMsMin: 5, delayMsMax: 5 },
      warmUpMs: 3000,
      workload: { leaderWriteEveryMs: 700 },
    });
    const electedAtMs = sim.nowMs;
    sim.runUntil(20_000);
    const regular = eventsOf(sim, 'write').filter((w) => w.node === leader.id && w.kind === 'leader');
    expect(regular[0].atMs).toBeGreaterThanOrEqual(electedAtMs + 3000);
    const gaps = regular.slice(1).map((w, i) => w.atMs - regular[i].atMs);
    expect(new Set(gaps)).toEqual(new Set([700]));
    expect(eventsOf(sim, 'ready')).toEqual([
      expect.objectContaining({ node: leader.id, atMs: electedAtMs + 3000 }),
    ]);
  });

  it('fences a deposed node: its manual write with the old token is rejected, and it learns the term from Raft', () => {
    const { sim, leader } = bootToLeader({ seed: 23 });
    sim.runUntil(5000);
    const lonely = sim.snapshot().nodes.find((n) => n.id !== leader.id)!.id;
    sim.apply({ do: 'isolate', node: lonely });
    sim.apply({ do: 'kill', node: leader.id });
    sim.runUntil(40_000);
    const newTerm = Math.max(...eventsOf(sim, 'elected').map((e) => e.term));
    expect(nodeView(sim, lonely).term).toBeLessThan(newTerm);
    sim.apply({ do: 'write', node: lonely });
    sim.runUntil(40_100);
    const w = eventsOf(sim, 'write').filter((x) => x.node === lonely);
    expect(w).toEqual([
      expect.objectContaining({ kind: 'manual', result: 'rejected', maxTokenSeen: newTerm }),
    ]);
    // Storage's refusal taught it nothing; the leader's heartbeat does, once it can reach it.
    expect(nodeView(sim, lonely).term).toBeLessThan(newTerm);
    sim.apply({ do: 'heal' });
    sim.runUntil(45_000);
    expect(nodeView(sim, lonely).term).toBe(newTerm);
  });
});
