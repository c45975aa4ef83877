// The Ring algorithm (Chang and Roberts 1979, with the skip-the-dead-successor rule): ELECTION
// goes round collecting ids, the highest is announced COORDINATOR round the ring; a dead successor
// is skipped after an acknowledgement timeout; a node that dies holding the message stalls the
// election until the starter's round times out.
import { describe, expect, it } from 'vitest';
import { runExperiment, Simulation, type ExperimentInput, type MessageView } from '../../../src/engine';
import { eventsOf } from './harness';

function messagesBetween(sim: Simulation, fromMs: number, untilMs: number): MessageView[] {
  sim.runUntil(fromMs);
  const seen = new Map<number, MessageView>();
  const collect = () => {
    for (const m of sim.snapshot().messages) if (!seen.has(m.id)) seen.set(m.id, m);
  };
  collect();
  while (sim.nextEventAtMs() >= 0 && sim.nextEventAtMs() <= untilMs) {
    sim.step();
    collect();
  }
  return [...seen.values()].filter((m) => m.sentAtMs >= fromMs).sort((a, b) => a.id - b.id);
}

const hops = (ms: MessageView[], type: string) =>
  ms.filter((m) => m.type === type).map((m) => `${m.from}>${m.to}`);

const quiet = (nodes: number, faults: ExperimentInput['faults']): ExperimentInput => ({
  algorithm: 'ring',
  seed: 3,
  nodes,
  ring: { timeoutMs: 600_000 },
  faults,
  untilMs: 30_000,
});

describe('Ring: one election round the ring', () => {
  it('collects ids round the ring, skips the dead coordinator, and announces the highest live id', () => {
    const sim = new Simulation(
      quiet(5, [
        { atMs: 5_000, do: 'kill', node: 'n5' },
        { atMs: 6_000, do: 'campaign', node: 'n1' },
      ]),
    );
    const ms = messagesBetween(sim, 6_000, 12_000);
    // n4 hands the message to n5, gets no acknowledgement, and passes it to n1 instead.
    expect(hops(ms, 'ringElection')).toEqual(['n1>n2', 'n2>n3', 'n3>n4', 'n4>n5', 'n4>n1']);
    expect(ms.find((m) => m.type === 'ringElection' && m.to === 'n1')).toBeDefined();
    // Back at n1 (on the list), the highest id collected, n4, is announced round the ring.
    expect(hops(ms, 'ringCoordinator')).toEqual(['n1>n2', 'n2>n3', 'n3>n4', 'n4>n5', 'n4>n1']);
    // Every hop that reached a live node was acknowledged.
    expect(hops(ms, 'ringAck').length).toBe(8);
    const elected = eventsOf(sim, 'elected').filter((e) => e.atMs >= 6_000);
    expect(elected.map((e) => [e.node, e.term])).toEqual([['n4', 2]]);
  });

  it('sends a number of messages linear in the ring size (two rounds, each hop acknowledged)', () => {
    for (const n of [3, 5, 7, 9]) {
      const sim = new Simulation(
        quiet(n, [
          { atMs: 5_000, do: 'kill', node: `n${n}` },
          { atMs: 6_000, do: 'campaign', node: 'n1' },
        ]),
      );
      const ms = messagesBetween(sim, 6_000, 20_000);
      // Each round: n - 1 live hops, one hop to the dead node; acknowledgements for the live ones.
      const perRound = n + (n - 1);
      const election = ms.filter((m) => m.type !== 'alive' && m.type !== 'write').length;
      expect(election, `n = ${n}`).toBe(2 * perRound);
    }
  });
});

describe('Ring: failures during the election', () => {
  it('stalls when the node holding the ELECTION message dies, until the round times out', () => {
    const base: ExperimentInput = {
      algorithm: 'ring',
      seed: 1,
      nodes: 5,
      network: { delayMsMin: 60, delayMsMax: 180 },
      faults: [{ atMs: 10_000, do: 'kill', node: 'n5' }],
      untilMs: 30_000,
    };
    const clean = runExperiment(base);
    const lost = runExperiment({
      ...base,
      faults: [...base.faults!, { atMs: 14_500, do: 'kill', node: 'n2' }],
    });
    const electedAt = (t: typeof clean) => eventsOf(t, 'elected').filter((e) => e.atMs > 10_000)[0];
    expect(electedAt(clean)).toMatchObject({ node: 'n4', term: 2 });
    expect(electedAt(lost)).toMatchObject({ node: 'n4', term: 2 });
    // Nothing happens from n2's death until the starter's 6 s round runs out.
    const quietFrom = 14_500;
    const restart = eventsOf(lost, 'campaign').find((e) => e.atMs > quietFrom);
    expect(restart).toBeDefined();
    expect(restart!.atMs).toBeGreaterThanOrEqual(19_000);
    const stall = electedAt(lost).atMs - electedAt(clean).atMs;
    expect(stall).toBeGreaterThan(5_000);
    expect(stall).toBeLessThan(8_000);
  });

  it('elects on both sides of a partition: no quorum', () => {
    const t = runExperiment({
      algorithm: 'ring',
      seed: 1,
      nodes: 5,
      network: { delayMsMin: 60, delayMsMax: 180 },
      faults: [
        {
          atMs: 10_000,
          do: 'partition',
          groups: [
            ['n1', 'n2'],
            ['n3', 'n4', 'n5'],
          ],
        },
      ],
      untilMs: 40_000,
    });
    expect(t.samples[t.samples.length - 1].leaderCount).toBe(2);
    expect(t.summary.violations.every((v) => v.allowedBy === 'algorithm')).toBe(true);
    expect(t.summary.violations.map((v) => v.invariant)).toContain('oneLeaderPerTerm');
  });
});
