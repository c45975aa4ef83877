// Kubernetes' leader election as client-go runs it (tools/leaderelection/leaderelection.go), with
// the Lease in an API server backed by a 3-member store. Each test is one of client-go's rules:
// acquire every RetryPeriod x [1, 2.2); a renew round RetryPeriod after the last success, bounded
// by RenewDeadline; a challenger waiting LeaseDuration from its own observedTime; leaderTransitions
// moving only when the holder changes; compare-and-swap giving two racers one winner; the store's
// majority; ReleaseOnCancel.
import { describe, expect, it } from 'vitest';
import { runExperiment, Simulation, type ExperimentInput, type MessageView } from '../../../src/engine';
import { eventsOf, leaders, nodeView } from './harness';

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
