// Kubernetes' leader election as client-go runs it (tools/leaderelection/leaderelection.go), with
// the Lease in an API server backed by a 3-member store. Each test is one of client-go's rules:
// acquire every RetryPeriod x [1, 2.2); a renew round RetryPeriod after the last success, bounded
// by RenewDeadline; a challenger waiting LeaseDuration from its own observedTime; leaderTransitions
// moving only when the holder changes; compare-and-swap giving two racers one winner; the store's
// majority; ReleaseOnCancel.
import { describe, expect, it } from 'vitest';
import { runExperiment, Simulation, type ExperimentInput, type MessageView } from '../../../src/engine';
import { eventsOf, ids, leaders, nodeView } from './harness';

const lab = (extra: Partial<ExperimentInput> = {}): ExperimentInput => ({
  algorithm: 'k8s-lease',
  seed: 3,
  nodes: 3,
  untilMs: 60_000,
  ...extra,
});

/** Writes that left a node: the leader's regular ones carry its token. */
const writesOf = (t: { events: readonly { type: string }[] }, node: string) =>
  eventsOf(t as never, 'write').filter((w) => w.node === node);

/** The last time before `atMs` that the holder's renewal reached the store (its write's claim or a renew). */
function leaderAt(sim: Simulation, atMs: number): string {
  sim.runUntil(atMs);
  const [l] = leaders(sim);
  return l.id;
}

describe('acquire', () => {
  it('elects one holder at start with leaderTransitions 0, the others retrying every RetryPeriod x [1, 2.2)', () => {
    const sim = new Simulation(lab({ untilMs: 30_000 }));
    sim.runUntil(30_000);
    const elected = eventsOf(sim, 'elected');
    expect(elected).toHaveLength(1);
    expect(elected[0].term).toBe(0);
    // The holder renews: one leader throughout, its token never moving.
    expect(sim.samples.filter((s) => s.atMs > 5_000).every((s) => s.leaderCount === 1)).toBe(true);
    expect(sim.summary().leaderTransitions).toBe(0);
  });

  it('waits for the lease it observed to run out, by its own clock, before taking over', () => {
    const sim = new Simulation(lab({ faults: [{ atMs: 20_000, do: 'kill', node: 'leader' }] }));
    sim.runUntil(60_000);
    const [first, second] = eventsOf(sim, 'elected');
    expect(second.term).toBe(1);
    // The challenger saw the record change for the last time just before 20 s (a renewal every
    // ~2 s), and may take over only LeaseDuration (15 s) after that: between 33 and 37 s,
    // plus one request's round trips.
    expect(second.atMs).toBeGreaterThan(20_000 + 15_000 - 2_500);
    expect(second.atMs).toBeLessThan(20_000 + 15_000 + 2 * 2.2 * 1000 + 500);
    expect(second.node).not.toBe(first.node);
    expect(sim.summary().leaderTransitions).toBe(1);
  });

  it('keeps leaderTransitions on renewal and adds one on a change of holder: the token of each leadership', () => {
    const t = runExperiment(
      lab({
        faults: [
          { atMs: 20_000, do: 'kill', node: 'leader' },
          { atMs: 45_000, do: 'kill', node: 'leader' },
        ],
        untilMs: 80_000,
      }),
    );
    expect(eventsOf(t, 'elected').map((e) => e.term)).toEqual([0, 1, 2]);
    for (const e of eventsOf(t, 'elected')) {
      const own = writesOf(t, e.node).filter((w) => w.atMs >= e.atMs);
      expect(own.length).toBeGreaterThan(0);
      expect(own.every((w) => w.token === e.term)).toBe(true);
    }
    expect(t.summary.leaderTransitions).toBe(2);
  });
});

describe('renew', () => {
  it('stops a holder cut off from the API server after one failed round: RetryPeriod + RenewDeadline after its last renewal', () => {
    const sim = new Simulation(lab());
    const holder = leaderAt(sim, 20_000);
    sim.apply({
      do: 'partition',
      groups: [
        [holder, 'storage'],
        ['api', 'm1', 'm2', 'm3', ...['n1', 'n2', 'n3'].filter((n) => n !== holder)],
      ],
    });
    sim.runUntil(40_000);
    const down = eventsOf(sim, 'steppedDown').filter((e) => e.node === holder);
    expect(down).toEqual([expect.objectContaining({ reason: 'renew deadline passed' })]);
    // Its last renewal succeeded within RetryPeriod (+ a round trip) before the cut; the next
    // round began RetryPeriod after it and failed RenewDeadline (10 s) later: at 10-12 s after the cut.
    expect(down[0].atMs - 20_000).toBeGreaterThan(10_000);
    expect(down[0].atMs - 20_000).toBeLessThanOrEqual(12_000 + 500);
  });

  it('survives a 12 s pause right after a renewal: the next round succeeds before any challenger may act', () => {
    // A pause longer than RenewDeadline (10 s) but shorter than LeaseDuration (15 s) costs nothing:
    // the deadline bounds a renew round, which begins RetryPeriod after the last success.
    const sim = new Simulation(lab());
    const holder = leaderAt(sim, 20_000);
    sim.apply({ do: 'pause', node: holder, forMs: 12_000 });
    sim.runUntil(60_000);
    expect(eventsOf(sim, 'elected')).toHaveLength(1);
    expect(eventsOf(sim, 'steppedDown')).toEqual([]);
    expect(eventsOf(sim, 'survived').map((e) => e.node)).toEqual([holder]);
  });

  it('loses to a challenger after a pause past LeaseDuration: its late writes carry the old token and are rejected', () => {
    const sim = new Simulation(lab());
    const holder = leaderAt(sim, 20_000);
    sim.apply({ do: 'pause', node: holder, forMs: 30_000 });
    sim.runUntil(60_000);
    const [, next] = eventsOf(sim, 'elected');
    expect(next.term).toBe(1);
    const late = writesOf(sim.trace(), holder).filter((w) => w.atMs >= 50_000);
    expect(late.length).toBeGreaterThan(0);
    expect(late.every((w) => w.token === 0 && w.result === 'rejected')).toBe(true);
    // client-go's renew loop keeps trying until RenewDeadline after resuming: a zombie for ~10 s.
    const down = eventsOf(sim, 'steppedDown').find((e) => e.node === holder)!;
    expect(down.atMs - 50_000).toBeGreaterThanOrEqual(9_000);
    expect(down.atMs - 50_000).toBeLessThanOrEqual(12_500);
  });
});

describe('clock rate, not skew', () => {
  it('lets a challenger whose clock runs twice as fast take over early from a paused holder: the token stops its writes', () => {
    const run = (rate: number) => {
      const sim = new Simulation(lab());
      const holder = leaderAt(sim, 20_000);
      const challenger = ['n1', 'n2', 'n3'].find((n) => n !== holder)!;
      sim.apply({ do: 'clockRate', node: challenger, rate });
      sim.apply({ do: 'pause', node: holder, forMs: 11_000 });
      sim.runUntil(60_000);
      return { sim, holder, challenger };
    };
    // At its clock's normal rate nobody may take over within an 11 s pause.
    expect(eventsOf(run(1).sim, 'elected')).toHaveLength(1);
    // At twice the rate, 15 s of its clock pass in 7.5 s: it takes the lease while the holder sleeps.
    const fast = run(2);
    const [, taken] = eventsOf(fast.sim, 'elected');
    expect(taken).toMatchObject({ node: fast.challenger, term: 1 });
    expect(taken.atMs).toBeLessThan(31_000);
    const stale = writesOf(fast.sim.trace(), fast.holder).filter((w) => w.atMs > taken.atMs);
    expect(stale.length).toBeGreaterThan(0);
    expect(stale.every((w) => w.result === 'rejected')).toBe(true);
    expect(fast.sim.summary().staleWritesAccepted).toBe(0);
  });
});

describe('the Lease object', () => {
  it('gives two challengers racing for an expired lease one winner and one conflict (compare-and-swap)', () => {
    const sim = new Simulation(lab({ nodes: 3 }));
    const holder = leaderAt(sim, 20_000);
    const [a, b] = ['n1', 'n2', 'n3'].filter((n) => n !== holder);
    sim.apply({ do: 'kill', node: holder });
    // Step to the moment both have seen the lease run out by their own clocks, before either has
    // tried again, and bring their next tries together.
    while (Math.max(nodeView(sim, a).deadlineAtMs, nodeView(sim, b).deadlineAtMs) > sim.nowMs) sim.step();
    expect(eventsOf(sim, 'elected').filter((e) => e.atMs >= 20_000)).toEqual([]);
    sim.apply({ do: 'campaign', node: a });
    sim.apply({ do: 'campaign', node: b });
    const replies = new Map<number, MessageView>();
    while (sim.nowMs < 45_000 && sim.step()) {
      for (const m of sim.snapshot().messages) if (m.type === 'leaseReply') replies.set(m.id, m);
    }
    const updates = [...replies.values()]
      .filter((m) => m.to === a || m.to === b)
      .map((m) => [m.to, m.status]);
    // Each got its Get answered (ok), then one Update committed and the other, based on the same
    // resourceVersion, was refused.
    expect(updates.filter(([, s]) => s === 'conflict')).toHaveLength(1);
    const elected = eventsOf(sim, 'elected').filter((e) => e.atMs >= 20_000);
    expect(elected).toHaveLength(1);
    expect(elected[0].term).toBe(1);
    expect(leaders(sim)).toHaveLength(1);
  });
});

describe('the store behind the API server', () => {
  it('stops every renewal when two of its three members are down, and lets a holder acquire again when one returns', () => {
    const sim = new Simulation(lab({ untilMs: 120_000 }));
    const holder = leaderAt(sim, 20_000);
    sim.apply({ do: 'kill', node: 'm1' });
    sim.runUntil(30_000);
    // One member down: a majority (2 of 3) still answers; nothing changes.
    expect(leaders(sim).map((l) => l.id)).toEqual([holder]);
    sim.apply({ do: 'kill', node: 'm2' });
    sim.runUntil(60_000);
    // No majority: the holder's round fails within RetryPeriod + RenewDeadline, and no one acquires.
    const down = eventsOf(sim, 'steppedDown').filter((e) => e.node === holder);
    expect(down).toEqual([expect.objectContaining({ reason: 'renew deadline passed' })]);
    expect(down[0].atMs - 30_000).toBeLessThanOrEqual(12_500);
    expect(leaders(sim)).toEqual([]);
    expect(eventsOf(sim, 'elected')).toHaveLength(1);
    sim.apply({ do: 'restart', node: 'm1' });
    sim.runUntil(120_000);
    expect(leaders(sim)).toHaveLength(1);
    expect(nodeView(sim, leaders(sim)[0].id).role).toBe('leader');
  });
});

describe('ReleaseOnCancel', () => {
  it('lets the next replica take over at once when the holder stops gracefully, instead of after LeaseDuration', () => {
    const takeover = (releaseOnCancel: boolean) => {
      const sim = new Simulation(lab({ lease: { releaseOnCancel } }));
      const holder = leaderAt(sim, 20_000);
      sim.apply({ do: 'stop', node: holder });
      sim.runUntil(60_000);
      const next = eventsOf(sim, 'elected').find((e) => e.atMs > 20_000)!;
      expect(eventsOf(sim, 'steppedDown').find((e) => e.node === holder)?.reason).toBe('stopped');
      expect(nodeView(sim, holder).alive).toBe(false);
      return next.atMs - 20_000;
    };
    expect(takeover(true)).toBeLessThan(2 * 2.2 * 1000 + 1_000);
    expect(takeover(false)).toBeGreaterThan(12_000);
  });
});

/** Step until the node's view says it saw the Lease (a reply reached it) after `afterMs`; returns when. */
function stepToObservation(sim: Simulation, node: string, afterMs: number, untilMs: number): number {
  while (sim.nowMs < untilMs && sim.step()) {
    const seen = nodeView(sim, node).lastRenewAtMs;
    if (seen > afterMs) return seen;
  }
  throw new Error(`${node} saw no Lease after ${afterMs} ms`);
}

describe('a holder that stopped leading comes back as a new process (kube-controller-manager exits on OnStoppedLeading)', () => {
  // The store loses its majority at 20 s: the holder's round fails and it stops leading; the store
  // is back at 40 s. The same replica's next process has a new identity, so the Lease, which
  // still names the old one, is another holder's to it: it waits LeaseDuration from its own first
  // look at the record, and taking it adds one to leaderTransitions, a new token.
  const outage = (nodes: number, killOthers: boolean) => {
    const sim = new Simulation(
      lab({
        nodes,
        untilMs: 90_000,
        faults: [
          { atMs: 20_000, do: 'kill', node: 'm1' },
          { atMs: 20_000, do: 'kill', node: 'm2' },
          { atMs: 40_000, do: 'restart', node: 'm1' },
        ],
      }),
    );
    const holder = leaderAt(sim, 15_000);
    if (killOthers) for (const id of ids(nodes)) if (id !== holder) sim.apply({ do: 'kill', node: id });
    return { sim, holder };
  };

  for (const [label, nodes, killOthers] of [
    ['one replica', 1, false],
    ['three replicas, the other two dead', 3, true],
  ] as const) {
    it(`${label}: leaderTransitions + 1, a higher token, after LeaseDuration from its first observation`, () => {
      const { sim, holder } = outage(nodes, killOthers);
      sim.runUntil(36_000);
      const down = eventsOf(sim, 'steppedDown').filter((e) => e.node === holder);
      expect(down).toEqual([expect.objectContaining({ reason: 'renew deadline passed', term: 0 })]);
      const firstLook = stepToObservation(sim, holder, down[0].atMs, 60_000);
      // The store answers again only once m1 is back.
      expect(firstLook).toBeGreaterThanOrEqual(40_000);
      sim.runUntil(90_000);
      const [first, again, ...rest] = eventsOf(sim, 'elected');
      expect(rest).toEqual([]);
      expect(first).toMatchObject({ node: holder, term: 0 });
      expect(again).toMatchObject({ node: holder, term: 1 });
      expect(again.atMs - firstLook).toBeGreaterThanOrEqual(15_000);
      expect(again.atMs - firstLook).toBeLessThan(15_000 + 2 * 2.2 * 2_000 + 500);
      // A change of holder, as client-go counts it; and every write of the second leadership
      // carries the new token, so storage tells the two leaderships apart.
      expect(sim.summary().leaderTransitions).toBe(1);
      const second = writesOf(sim.trace(), holder).filter((w) => w.atMs >= again.atMs);
      expect(second.length).toBeGreaterThan(0);
      expect(second.every((w) => w.token === 1 && w.result === 'accepted')).toBe(true);
    });
  }

  it('three replicas all alive: whoever leads next does so with leaderTransitions + 1, and not the old process', () => {
    const { sim, holder } = outage(3, false);
    sim.runUntil(90_000);
    const [, again] = eventsOf(sim, 'elected');
    expect(again.term).toBe(1);
    expect(again.atMs).toBeGreaterThanOrEqual(40_000);
    expect(eventsOf(sim, 'elected').filter((e) => e.atMs > 20_000 && e.term === 0)).toEqual([]);
    expect(sim.summary().staleWritesAccepted).toBe(0);
    expect(holder).toMatch(/^n[123]$/);
  });
});

describe('a renew try times out at RenewDeadline / 2, and the round tries again at once', () => {
  /** Run to a moment a renewal has just been answered; the holder and that moment. */
  const atRenewal = () => {
    const sim = new Simulation(lab({ untilMs: 60_000 }));
    const holder = leaderAt(sim, 20_000);
    const before = nodeView(sim, holder).lastRenewAtMs;
    stepToObservation(sim, holder, before, 30_000);
    return { sim, holder, renewedAtMs: sim.nowMs };
  };
  /**
   * Step to `untilMs`, restarting the API server at `restartAtMs`; the Lease requests the holder
   * sent from `fromMs` on, as [type, sentAtMs].
   */
  const requestsOf = (
    sim: Simulation,
    holder: string,
    fromMs: number,
    restartAtMs: number,
    untilMs: number,
  ) => {
    const seen = new Map<number, [string, number]>();
    let restarted = false;
    while (sim.nowMs < untilMs) {
      if (!restarted && sim.nextEventAtMs() >= restartAtMs) {
        sim.runUntil(restartAtMs);
        sim.apply({ do: 'restart', node: 'api' });
        restarted = true;
      }
      if (!sim.step()) break;
      for (const m of sim.snapshot().messages) {
        if (m.from === holder && m.to === 'api' && m.sentAtMs >= fromMs) seen.set(m.id, [m.type, m.sentAtMs]);
      }
    }
    return [...seen.values()];
  };

  it('survives a 4 s API server outage that starts right after a renewal', () => {
    const { sim, holder, renewedAtMs: r } = atRenewal();
    sim.apply({ do: 'kill', node: 'api' });
    const sent = requestsOf(sim, holder, r, r + 4_000, r + 8_000);
    // The next round starts RetryPeriod (2 s) later with the fast-path update, which is lost; it
    // times out at the round's start + RenewDeadline / 2 and the try falls back to a get at once,
    // which the API server (back since r + 4 s) answers.
    expect(sent.slice(0, 2)).toEqual([
      ['leaseUpdate', r + 2_000],
      ['leaseGet', r + 2_000 + 5_000],
    ]);
    sim.runUntil(60_000);
    expect(eventsOf(sim, 'steppedDown')).toEqual([]);
    expect(eventsOf(sim, 'elected')).toHaveLength(1);
    expect(leaders(sim).map((l) => l.id)).toEqual([holder]);
    expect(eventsOf(sim, 'survived').map((e) => e.node)).toEqual([holder]);
  });

  it('stops at the round start + RenewDeadline when the outage lasts RenewDeadline', () => {
    const { sim, holder, renewedAtMs: r } = atRenewal();
    sim.apply({ do: 'kill', node: 'api' });
    const sent = requestsOf(sim, holder, r, r + 10_000, r + 12_500);
    expect(sent.slice(0, 2)).toEqual([
      ['leaseUpdate', r + 2_000],
      ['leaseGet', r + 2_000 + 5_000],
    ]);
    const down = eventsOf(sim, 'steppedDown');
    expect(down).toEqual([
      expect.objectContaining({ node: holder, reason: 'renew deadline passed', atMs: r + 2_000 + 10_000 }),
    ]);
  });
});
