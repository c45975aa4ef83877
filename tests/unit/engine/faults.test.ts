// Faults and live commands: the same verbs for the experiment's timeline, the page and the tests.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/engine';
import { bootToLeader, eventsOf, leaders, nodeView } from './harness';

const steadyNet = { network: { delayMsMin: 5, delayMsMax: 5 } };

describe('kill', () => {
  it('takes a leader down and records the failover: lost, detected, elected, ready', () => {
    const sim = new Simulation({
      seed: 41,
      faults: [{ atMs: 20_000, do: 'kill', node: 'leader' }],
      untilMs: 60_000,
    });
    sim.runUntil(19_999);
    const old = leaders(sim)[0].id;
    sim.runUntil(60_000);
    expect(nodeView(sim, old).alive).toBe(false);
    expect(eventsOf(sim, 'steppedDown')).toEqual([
      expect.objectContaining({ node: old, reason: 'killed', atMs: 20_000 }),
    ]);
    const firstCampaign = eventsOf(sim, 'campaign').find((e) => e.atMs > 20_000)!;
    const elected = eventsOf(sim, 'elected').find((e) => e.atMs > 20_000)!;
    expect(sim.summary().failovers).toEqual([
      expect.objectContaining({
        lostAtMs: 20_000,
        detectedAtMs: firstCampaign.atMs,
        electedAtMs: elected.atMs,
        readyAtMs: elected.atMs + 2000,
        node: elected.node,
        term: elected.term,
      }),
    ]);
  });

  it('is skipped on a dead node, as restart is on a live one', () => {
    const sim = new Simulation({
      faults: [
        { atMs: 100, do: 'restart', node: 'n2' },
        { atMs: 200, do: 'kill', node: 'n2' },
        { atMs: 300, do: 'kill', node: 'n2' },
      ],
    });
    sim.runUntil(1000);
    expect(eventsOf(sim, 'fault').map((f) => [f.fault.do, f.skipped ?? false, f.live])).toEqual([
      ['restart', true, false],
      ['kill', false, false],
      ['kill', true, false],
    ]);
  });
});

describe('the "leader" target', () => {
  it('resolves to whoever leads when the fault fires, and is skipped when nobody does', () => {
    for (const seed of [1, 2, 3, 4]) {
      const sim = new Simulation({
        seed,
        faults: [
          { atMs: 20_000, do: 'kill', node: 'leader' },
          { atMs: 20_001, do: 'kill', node: 'leader' },
        ],
      });
      sim.runUntil(19_999);
      const leader = leaders(sim)[0].id;
      sim.runUntil(20_001);
      const [first, second] = eventsOf(sim, 'fault');
      expect(first).toMatchObject({ target: leader });
      expect(second.skipped).toBe(true);
      expect(second.target).toBeUndefined();
    }
  });

  it('includes a paused leader', () => {
    const { sim, leader } = bootToLeader({ seed: 42 });
    sim.apply({ do: 'pause', node: 'leader' });
    sim.apply({ do: 'kill', node: 'leader' });
    expect(eventsOf(sim, 'fault').map((f) => f.target)).toEqual([leader.id, leader.id]);
    expect(nodeView(sim, leader.id)).toMatchObject({ alive: false, paused: false });
  });
});

describe('pause and resume', () => {
  it('freezes a leader for forMs while it still counts as leader, then it carries on', () => {
    // Shorter than any follower's election timeout (1-2 s at etcd's defaults): nobody campaigns.
    const { sim, leader } = bootToLeader({ seed: 43, ...steadyNet });
    sim.runUntil(5000);
    sim.apply({ do: 'pause', node: leader.id, forMs: 600 });
    const sent = new Set<number>();
    while (sim.nextEventAtMs() >= 0 && sim.nextEventAtMs() < 5600) {
      sim.step();
      expect(sim.snapshot().leaderCount).toBe(1);
      // A paused leader fails the is-leader scrape: observed, there is no leader.
      expect(sim.snapshot().leaderCountObserved).toBe(0);
      for (const m of sim.snapshot().messages) if (m.from === leader.id && m.sentAtMs > 5000) sent.add(m.id);
    }
    sim.runUntil(5599);
    expect(nodeView(sim, leader.id).paused).toBe(true);
    // Nothing runs on a paused node: it sends nothing at all.
    expect(sent.size).toBe(0);
    sim.runUntil(5600);
    expect(sim.snapshot().leaderCountObserved).toBe(1);
    expect(nodeView(sim, leader.id)).toMatchObject({ paused: false, role: 'leader' });
    sim.runUntil(20_000);
    expect(nodeView(sim, leader.id).role).toBe('leader');
    expect(sim.summary().leaderTransitions).toBe(0);
  });

  it('keeps what reached a paused node and handles it, in order, on resume', () => {
    const { sim, leader } = bootToLeader({ seed: 44, ...steadyNet });
    sim.runUntil(5000);
    const f = sim.snapshot().nodes.find((n) => n.id !== leader.id)!.id;
    const heardBefore = nodeView(sim, f).lastRenewAtMs;
    sim.apply({ do: 'pause', node: f });
    sim.runUntil(9000);
    // Heartbeats reached it but waited: it has not "heard" them yet.
    expect(nodeView(sim, f).lastRenewAtMs).toBe(heardBefore);
    sim.apply({ do: 'resume', node: f });
    expect(nodeView(sim, f)).toMatchObject({ paused: false, lastRenewAtMs: 9000, knownLeader: leader.id });
  });

  it('lasts until resume without forMs, and resume cancels an earlier forMs', () => {
    const { sim } = bootToLeader({ seed: 45 });
    sim.apply({ do: 'pause', node: 'n1', forMs: 10_000 });
    sim.runUntil(sim.nowMs + 1000);
    sim.apply({ do: 'resume', node: 'n1' });
    sim.runUntil(sim.nowMs + 1000);
    sim.apply({ do: 'pause', node: 'n1' });
    sim.runUntil(sim.nowMs + 60_000);
    expect(nodeView(sim, 'n1').paused).toBe(true);
  });

  it('is skipped on a paused or dead node; resume is skipped on a running one', () => {
    const sim = new Simulation({
      faults: [
        { atMs: 100, do: 'resume', node: 'n1' },
        { atMs: 200, do: 'pause', node: 'n1' },
        { atMs: 300, do: 'pause', node: 'n1' },
        { atMs: 400, do: 'kill', node: 'n2' },
        { atMs: 500, do: 'pause', node: 'n2' },
      ],
    });
    sim.runUntil(1000);
    expect(eventsOf(sim, 'fault').map((f) => f.skipped ?? false)).toEqual([true, false, true, false, true]);
  });
});

describe('partition, isolate and heal', () => {
  it('puts unlisted nodes in a group of their own and drops messages between groups', () => {
    const { sim, leader } = bootToLeader({ seed: 46, nodes: 5 });
    const others = sim
      .snapshot()
      .nodes.map((n) => n.id)
      .filter((id) => id !== leader.id);
    sim.apply({ do: 'partition', groups: [others.slice(0, 2)] });
    expect(sim.snapshot().partition).toEqual([others.slice(0, 2), [leader.id, ...others.slice(2)].sort()]);
    sim.runUntil(sim.nowMs + 3000);
    const dropped = sim.snapshot().messages.filter((m) => m.droppedAtMs !== undefined);
    expect(dropped.length).toBeGreaterThan(0);
    for (const m of dropped)
      expect(others.slice(0, 2).includes(m.from)).not.toBe(others.slice(0, 2).includes(m.to));
    sim.runUntil(60_000);
    // The minority side cannot even raise its term (pre-vote); the majority keeps its leader.
    expect(leaders(sim).map((n) => n.id)).toEqual([leader.id]);
    for (const id of others.slice(0, 2)) expect(nodeView(sim, id).term).toBe(leader.term);
  });

  it('cuts the storage off from every group it is not placed in', () => {
    const { sim, leader } = bootToLeader({ seed: 47 });
    sim.runUntil(5000);
    const others = sim
      .snapshot()
      .nodes.map((n) => n.id)
      .filter((id) => id !== leader.id);
    sim.apply({
      do: 'partition',
      groups: [
        [others[0], 'storage'],
        [leader.id, ...others.slice(1)],
      ],
    });
    sim.runUntil(15_000);
    // The leader still leads its majority, but none of its writes reaches the storage.
    expect(nodeView(sim, leader.id).role).toBe('leader');
    expect(eventsOf(sim, 'write').filter((w) => w.atMs > 5010)).toEqual([]);
    // A node on the storage's side gets through.
    sim.apply({ do: 'write', node: others[0] });
    sim.runUntil(15_100);
    expect(eventsOf(sim, 'write').filter((w) => w.atMs > 5010)).toEqual([
      expect.objectContaining({ node: others[0] }),
    ]);
  });

  it('isolates one node from its peers (not from the storage), even inside a partition', () => {
    const { sim } = bootToLeader({ seed: 48 });
    sim.apply({
      do: 'partition',
      groups: [
        ['n1', 'n2'],
        ['n3', 'n4', 'n5'],
      ],
    });
    sim.apply({ do: 'isolate', node: 'n4' });
    expect(sim.snapshot().partition).toEqual([['n4'], ['n1', 'n2'], ['n3', 'n5']]);
    sim.apply({ do: 'heal' });
    sim.apply({ do: 'isolate', node: 'n2' });
    expect(sim.snapshot().partition).toEqual([['n2'], ['n1', 'n3', 'n4', 'n5']]);
    sim.apply({ do: 'write', node: 'n2' });
    sim.runUntil(sim.nowMs + 20);
    expect(eventsOf(sim, 'write').filter((w) => w.kind === 'manual')).toEqual([
      expect.objectContaining({ node: 'n2' }),
    ]);
  });

  it('heals every cut, and a heal without a partition is skipped', () => {
    const { sim } = bootToLeader({ seed: 49 });
    sim.apply({ do: 'heal' });
    sim.apply({ do: 'isolate', node: 'n1' });
    sim.apply({ do: 'heal' });
    expect(sim.snapshot().partition).toBeNull();
    expect(eventsOf(sim, 'fault').map((f) => [f.fault.do, f.skipped ?? false, f.live])).toEqual([
      ['heal', true, true],
      ['isolate', false, true],
      ['heal', false, true],
    ]);
  });
});

describe('clockRate', () => {
  it("runs the node's own clock at rate x real time from now on", () => {
    const sim = new Simulation({ seed: 50 });
    sim.runUntil(10_000);
    sim.apply({ do: 'clockRate', node: 'n2', rate: 0.5 });
    sim.apply({ do: 'clockRate', node: 'n3', rate: 3 });
    sim.runUntil(14_000);
    const local = (id: string) => nodeView(sim, id).localNowMs;
    expect([local('n1'), local('n2'), local('n3')]).toEqual([14_000, 12_000, 22_000]);
    expect(nodeView(sim, 'n2').clockRate).toBe(0.5);
  });
});

describe('campaign', () => {
  it('forces an election timeout now; with pre-vote a healthy leader keeps its place', () => {
    const { sim, leader } = bootToLeader({ seed: 51 });
    sim.runUntil(5000);
    const f = sim.snapshot().nodes.find((n) => n.id !== leader.id)!;
    sim.apply({ do: 'campaign', node: f.id });
    expect(eventsOf(sim, 'campaign').at(-1)).toMatchObject({
      node: f.id,
      atMs: 5000,
      preVote: true,
      transfer: false,
    });
    sim.runUntil(10_000);
    expect(nodeView(sim, f.id).term).toBe(f.term);
    expect(leaders(sim).map((n) => n.id)).toEqual([leader.id]);
  });

  it('with transfer, moves leadership to the node in a higher term', () => {
    const { sim, leader } = bootToLeader({ seed: 52 });
    sim.runUntil(5000);
    const f = sim.snapshot().nodes.find((n) => n.id !== leader.id)!;
    sim.apply({ do: 'campaign', node: f.id, transfer: true });
    sim.runUntil(5100);
    expect(leaders(sim).map((n) => [n.id, n.term])).toEqual([[f.id, leader.term + 1]]);
    expect(eventsOf(sim, 'steppedDown')).toEqual([
      expect.objectContaining({ node: leader.id, reason: 'saw higher term' }),
    ]);
    expect(sim.summary().violations).toEqual([]);
  });

  it('is skipped for the witness, which never campaigns', () => {
    const { sim } = bootToLeader({ nodes: 2, witness: true });
    sim.apply({ do: 'campaign', node: 'w', transfer: true });
    expect(eventsOf(sim, 'fault').at(-1)!.skipped).toBe(true);
    expect(eventsOf(sim, 'campaign').filter((e) => e.node === 'w')).toEqual([]);
  });
});

describe('write and safety', () => {
  it("sends a write now with the node's current token, whatever it believes", () => {
    const { sim, leader } = bootToLeader({ seed: 53, ...steadyNet });
    sim.runUntil(5000);
    const f = sim.snapshot().nodes.find((n) => n.id !== leader.id)!.id;
    sim.apply({ do: 'write', node: f });
    sim.runUntil(5005);
    expect(eventsOf(sim, 'write').at(-1)).toMatchObject({
      node: f,
      token: leader.term,
      kind: 'manual',
      result: 'accepted',
    });
  });

  it('switches safety live and reports it in the snapshot', () => {
    const sim = new Simulation({});
    sim.apply({ do: 'safety', fencing: false, preVote: false });
    expect(sim.snapshot().safety).toEqual({
      quorum: true,
      fencing: false,
      followersReject: true,
      preVote: false,
      checkQuorum: true,
    });
  });

  it('rejects an invalid live command, naming the field', () => {
    const sim = new Simulation({});
    expect(() => sim.apply({ do: 'pause', node: 'x9' })).toThrow(/node/);
    expect(() => sim.apply({ do: 'explode' })).toThrow(/do/);
    expect(() => sim.apply({ do: 'clockRate', node: 'n1', rate: 0 })).toThrow(/rate/);
  });
  it('forgets what reached a paused node when the node is killed: nothing stays in flight for good', () => {
    const cycles = (n: number) => {
      const sim = new Simulation({ seed: 3, nodes: 5 });
      sim.runUntil(10_000);
      for (let i = 0; i < n; i++) {
        const t = sim.nowMs;
        sim.apply({ do: 'pause', node: 'n2', forMs: 50_000 });
        sim.runUntil(t + 20_000);
        sim.apply({ do: 'kill', node: 'n2' });
        sim.runUntil(t + 21_000);
        sim.apply({ do: 'restart', node: 'n2' });
        sim.runUntil(t + 40_000);
      }
      return sim
        .snapshot()
        .messages.filter((m) => m.droppedAtMs === undefined && m.sentAtMs < sim.nowMs - 30_000);
    };
    // Heartbeats and votes sent to n2 during each pause would otherwise stay as dots forever.
    expect(cycles(1)).toEqual([]);
    expect(cycles(10)).toEqual([]);
  });
});
