// The Bully algorithm (Garcia-Molina 1982), checked against the textbook's own walk-through and
// its known properties: the highest reachable id wins, a returning higher node takes over, the
// message count grows with the square of the cluster, and with no quorum a partition elects twice.
import { describe, expect, it } from 'vitest';
import { runExperiment, Simulation, type ExperimentInput, type MessageView } from '../../../src/engine';
import { eventsOf, leaders } from './harness';

/** Every message sent while the simulation steps from `fromMs` to `untilMs`, in send order. */
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

const pairs = (ms: MessageView[], type: string) =>
  ms
    .filter((m) => m.type === type)
    .map((m) => `${m.from}>${m.to}`)
    .sort();

/** A quiet cluster: watches so long that only the node a test makes campaign starts an election. */
const quiet = (nodes: number, faults: ExperimentInput['faults'] = []): ExperimentInput => ({
  algorithm: 'bully',
  seed: 3,
  nodes,
  bully: { timeoutMs: 600_000, heartbeatMs: 1_000, answerTimeoutMs: 500 },
  faults,
  untilMs: 20_000,
});

describe('Bully: the textbook walk-through', () => {
  // Tanenbaum and van Steen's figure: eight processes, the coordinator (the highest) has crashed,
  // and process 4 (here n5) notices. It sends ELECTION to 5, 6 and 7 (n6, n7, n8); 5 and 6
  // answer OK and hold elections of their own; 6 answers 5; nobody answers 6 (n7), which
  // announces itself COORDINATOR to everyone.
  it('runs the figure message for message', () => {
    const sim = new Simulation(
      quiet(8, [
        { atMs: 5_000, do: 'kill', node: 'n8' },
        { atMs: 6_000, do: 'campaign', node: 'n5' },
      ]),
    );
    expect(leaders(sim).length).toBe(0);
    const ms = messagesBetween(sim, 6_000, 8_000);
    expect(pairs(ms, 'election')).toEqual(['n5>n6', 'n5>n7', 'n5>n8', 'n6>n7', 'n6>n8', 'n7>n8'].sort());
    expect(pairs(ms, 'ok')).toEqual(['n6>n5', 'n7>n5', 'n7>n6'].sort());
    expect(pairs(ms, 'coordinator')).toEqual(
      ['n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n8'].map((t) => `n7>${t}`).sort(),
    );
    const elected = eventsOf(sim, 'elected').filter((e) => e.atMs >= 6_000);
    expect(elected.map((e) => [e.node, e.term])).toEqual([['n7', 2]]);
  });

  it('sends O(n^2) messages when the lowest node is the one that notices', () => {
    // n1 notices; every node i sends ELECTION to every higher one (n-1 + n-2 + ... + 1), each
    // live receiver answers OK, and the winner announces itself to the n-2 others and the dead one.
    for (const n of [3, 5, 7, 9]) {
      const sim = new Simulation(
        quiet(n, [
          { atMs: 5_000, do: 'kill', node: `n${n}` },
          { atMs: 6_000, do: 'campaign', node: 'n1' },
        ]),
      );
      const ms = messagesBetween(sim, 6_000, 9_000);
      const elections = ((n - 1) * n) / 2;
      expect(pairs(ms, 'election').length, `n = ${n}`).toBe(elections);
      expect(pairs(ms, 'ok').length, `n = ${n}`).toBe(elections - (n - 1));
      expect(pairs(ms, 'coordinator').length, `n = ${n}`).toBe(n - 1);
    }
  });
});

describe('Bully: who wins', () => {
  it('elects the highest id at boot, and the next highest when it dies', () => {
    const t = runExperiment({
      algorithm: 'bully',
      nodes: 5,
      faults: [{ atMs: 10_000, do: 'kill', node: 'leader' }],
      untilMs: 30_000,
    });
    expect(eventsOf(t, 'elected').map((e) => [e.node, e.term])).toEqual([
      ['n5', 1],
      ['n4', 2],
    ]);
    // Detection takes the watch timeout (4 s by default), the election an answer timeout.
    const f = t.summary.failovers[0];
    expect(f).toMatchObject({ from: 'n5', cause: 'killed', node: 'n4', term: 2 });
    expect(f.detectedAtMs - f.lostAtMs).toBeGreaterThanOrEqual(3_000);
    expect(f.detectedAtMs - f.lostAtMs).toBeLessThanOrEqual(4_000);
    expect(f.electedAtMs - f.detectedAtMs).toBeLessThanOrEqual(600);
    expect(t.summary.violations).toEqual([]);
  });

  it('lets a higher node that comes back take over at once, with the only epoch it knows of plus one', () => {
    const t = runExperiment({
      algorithm: 'bully',
      nodes: 5,
      faults: [
        { atMs: 10_000, do: 'kill', node: 'n5' },
        { atMs: 20_000, do: 'restart', node: 'n5' },
      ],
      untilMs: 30_000,
    });
    // n5 comes back knowing epoch 1, hears no answer from a higher id and announces epoch 2: the
    // epoch n4 already holds. Until n4 hears it and gives way, two coordinators share a token.
    expect(eventsOf(t, 'elected').map((e) => [e.node, e.term])).toEqual([
      ['n5', 1],
      ['n4', 2],
      ['n5', 2],
    ]);
    const down = eventsOf(t, 'steppedDown').filter((e) => e.node === 'n4');
    expect(down).toEqual([expect.objectContaining({ reason: 'deposed by a higher node', term: 2 })]);
    expect(down[0].atMs).toBeGreaterThanOrEqual(20_000);
    expect(down[0].atMs).toBeLessThan(20_200);
    expect(t.summary.violations).toEqual([
      expect.objectContaining({ invariant: 'oneLeaderPerTerm', allowedBy: 'algorithm', atMs: 20_000 }),
    ]);
  });
});

describe('Bully: no quorum', () => {
  const split: ExperimentInput = {
    algorithm: 'bully',
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
  };

  it('elects on both sides of a 2|3 split, and storage accepts both sides\u2019 writes with the same token', () => {
    const t = runExperiment(split);
    expect(t.summary.maxLeaderCount).toBe(2);
    expect(t.samples[t.samples.length - 1].leaderCount).toBe(2);
    const elected = eventsOf(t, 'elected').map((e) => [e.node, e.term]);
    expect(elected).toContainEqual(['n2', 2]);
    expect(elected).toContainEqual(['n5', 2]);
    // The violation is the algorithm's by design, not a bug.
    expect(t.summary.violations).toEqual([
      expect.objectContaining({
        invariant: 'oneLeaderPerTerm',
        allowedBy: 'algorithm',
        detail: 'n5 and n2 both won epoch 2',
      }),
    ]);
    // With fencing on, both sides write with token 2, and 2 >= 2 every time.
    const late = eventsOf(t, 'write').filter((w) => w.atMs > 20_000);
    expect(new Set(late.map((w) => w.node))).toEqual(new Set(['n2', 'n5']));
    expect(late.every((w) => w.token === 2 && w.result === 'accepted')).toBe(true);
    expect(t.experiment.safety.fencing).toBe(true);
  });

  it('is the missing quorum: the same split under Raft elects on the majority side only', () => {
    const { algorithm: _bully, ...raft } = split;
    const t = runExperiment(raft);
    expect(t.summary.maxLeaderCount).toBe(1);
    expect(t.summary.violations).toEqual([]);
  });
});
