// The pure parts of `npm run fidelity`: the distribution of one side's trials, the comparison
// of the two sides (ratio, the 20% goal, the mechanism's verdict), its options, and the
// simulator's side (deterministic and matched to the real run's settings). No etcd here.
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_RUNS,
  DEFAULT_SEEDS,
  FAST_RUNS,
  parseFidelityArgs,
} from '../../../src/real/measurement/fidelityArgs';
import {
  compare,
  distribution,
  FAULT_IDS,
  FAULTS,
  formatComparison,
  markdownFault,
  outcomeCounts,
  type Trial,
} from '../../../src/real/measurement/fidelityReport';
import { longestGapMs, OUTCOME, SETUPS } from '../../../src/real/measurement/fidelitySetups';
import {
  etcdExperiment,
  raftExperiment,
  simTrial,
  simTrials,
} from '../../../src/real/measurement/fidelitySim';
import { parseExperiment } from '../../../src/engine';

const trials = (values: number[], outcome = 'x'): Trial[] => values.map((value) => ({ value, outcome }));

describe('distribution', () => {
  it('gives min, median, p90 (nearest rank) and max, in any input order', () => {
    expect(distribution([5, 1, 4, 2, 3])).toEqual({ n: 5, min: 1, median: 3, p90: 5, max: 5 });
    expect(distribution([10, 1, 9, 2, 8, 3, 7, 4, 6, 5])).toEqual({
      n: 10,
      min: 1,
      median: 5.5,
      p90: 9,
      max: 10,
    });
  });
  it('takes one value as every statistic, and none as no distribution', () => {
    expect(distribution([7])).toEqual({ n: 1, min: 7, median: 7, p90: 7, max: 7 });
    expect(distribution([])).toBeNull();
  });
  it('refuses a value that is not a finite number', () => {
    expect(() => distribution([1, Number.NaN])).toThrow(/finite/);
  });
});

describe('compare', () => {
  const goal = FAULTS['raft-kill'];
  it('gives the ratio of the medians, sim over real, and the 20% goal for a fault that has it', () => {
    const c = compare(goal, trials([1000, 1200, 1400]), trials([1300, 1440, 1500]));
    expect(c.ratio).toBeCloseTo(1.2);
    expect(c.withinGoal).toBe(true);
    expect(compare(goal, trials([1000]), trials([1201])).withinGoal).toBe(false);
    expect(compare(goal, trials([1000]), trials([799])).withinGoal).toBe(false);
  });
  it('has no goal verdict for a fault without one, and no ratio over a zero median', () => {
    const c = compare(FAULTS['heal-prevote-on'], trials([0, 0]), trials([0]));
    expect(c.ratio).toBeNull();
    expect(c.withinGoal).toBeNull();
  });
  it('agrees on the mechanism when the most common outcomes match, and shows the minority', () => {
    const real = [...trials([1, 2, 3, 4], 'kept'), ...trials([5], 'lost')];
    const c = compare(FAULTS['raft-kill-under-lease'], real, trials([1, 2], 'kept'));
    expect(c.mechanismAgrees).toBe(true);
    expect(formatComparison(c)).toContain('real: 4/5 kept; 1/5 lost');
    expect(
      compare(FAULTS['raft-kill-under-lease'], trials([1], 'lost'), trials([1], 'kept')).mechanismAgrees,
    ).toBe(false);
    expect(compare(FAULTS['raft-kill-under-lease'], [], trials([1], 'kept')).mechanismAgrees).toBe(false);
  });
  it('counts a side split evenly as agreeing with either outcome, and only with those', () => {
    const even = [...trials([1, 2, 3], 'kept'), ...trials([4, 5, 6], 'lost')];
    const mostlyLost = [...trials([1, 2, 3, 4], 'lost'), ...trials([5, 6], 'kept')];
    const fault = FAULTS['raft-kill-under-lease'];
    expect(compare(fault, mostlyLost, even).mechanismAgrees).toBe(true);
    expect(compare(fault, even, mostlyLost).mechanismAgrees).toBe(true);
    expect(compare(fault, mostlyLost, [...even, ...trials([7, 8, 9], 'other')]).mechanismAgrees).toBe(true);
    expect(compare(fault, mostlyLost, trials([1, 2, 3], 'other')).mechanismAgrees).toBe(false);
  });
  it('orders outcome counts by count, then by name', () => {
    const t = [...trials([1], 'b'), ...trials([1, 1], 'c'), ...trials([1], 'a')];
    expect(outcomeCounts(t)).toEqual([
      { outcome: 'c', count: 2 },
      { outcome: 'a', count: 1 },
      { outcome: 'b', count: 1 },
    ]);
  });
  it('prints a missed goal and a disagreement plainly, in text and in the docs table', () => {
    const c = compare(goal, trials([1000], 'a'), trials([2000], 'b'));
    expect(formatComparison(c)).toMatch(/within 20%: NO/);
    expect(formatComparison(c)).toMatch(/mechanism: DISAGREES/);
    const md = markdownFault(c);
    expect(md).toContain('| real | 1 | 1000 ms | 1000 ms | 1000 ms | 1000 ms | 1/1 a |');
    expect(md).toContain('| sim | 1 | 2000 ms | 2000 ms | 2000 ms | 2000 ms | 1/1 b |');
    expect(md).toContain('Median sim / real: 2.00, **not within 20%**. Mechanism: **disagrees**.');
  });
});

describe('parseFidelityArgs', () => {
  it('defaults to every fault, 10 real trials and 30 seeds; --fast takes 3 unless --runs says', () => {
    expect(parseFidelityArgs([])).toMatchObject({
      runs: DEFAULT_RUNS,
      seeds: DEFAULT_SEEDS,
      only: [...FAULT_IDS],
    });
    expect(parseFidelityArgs(['--fast'])).toMatchObject({ runs: FAST_RUNS });
    expect(parseFidelityArgs(['--runs', '5', '--fast'])).toMatchObject({ runs: 5 });
  });
  it('takes --only as a list, in the report order', () => {
    expect(parseFidelityArgs(['--only', 'pause-ttl5,raft-kill'])).toMatchObject({
      only: ['raft-kill', 'pause-ttl5'],
    });
  });
  it('names the bad flag', () => {
    expect(parseFidelityArgs(['--runs'])).toMatch(/^--runs: needs a value/);
    expect(parseFidelityArgs(['--runs', 'ten'])).toMatch(
      /^--runs: must be a whole number 1\.\.100, not "ten"/,
    );
    expect(parseFidelityArgs(['--runs', '0'])).toMatch(/^--runs:/);
    expect(parseFidelityArgs(['--seeds', '--fast'])).toMatch(/^--seeds: needs a value/);
    expect(parseFidelityArgs(['--only', 'kill'])).toMatch(/^--only: unknown fault "kill"/);
    expect(parseFidelityArgs(['--only'])).toMatch(/^--only: needs a fault/);
    expect(parseFidelityArgs(['--runz', '3'])).toBe('unknown option --runz');
    expect(parseFidelityArgs(['--json', '--markdown'])).toMatch(
      /^--markdown: --json and --markdown cannot be combined/,
    );
    expect(parseFidelityArgs(['--markdown'])).toMatchObject({ format: 'markdown' });
  });
});

describe('the simulator side', () => {
  it("builds valid experiments from every fault setup, with the real run's parameters", () => {
    for (const f of FAULT_IDS) {
      const s = SETUPS[f].settings;
      for (const e of [raftExperiment(s, 1, 60_000), etcdExperiment(s, 1, 60_000)]) {
        const parsed = parseExperiment(e);
        expect(parsed.ok, `${f}: ${JSON.stringify(parsed)}`).toBe(true);
      }
    }
    const s = SETUPS['pause-short'].settings;
    expect(raftExperiment(SETUPS['raft-kill-fast'].settings, 1, 1)).toMatchObject({
      nodes: 3,
      raft: { heartbeatMs: 20, electionTimeoutMs: 200 },
      safety: { preVote: true, checkQuorum: true },
    });
    expect(etcdExperiment(s, 1, 1)).toMatchObject({
      etcd: { ttlMs: 5000, renewDeadlineMs: 3000 },
      warmUpMs: s.warmUpMs,
    });
    expect(raftExperiment(SETUPS['heal-prevote-off'].settings, 1, 1).safety).toMatchObject({
      preVote: false,
    });
  });
  it('is deterministic, and predicts a raft failover within one to two election timeouts', () => {
    const a = simTrials('raft-kill-fast', 5);
    expect(simTrials('raft-kill-fast', 5)).toEqual(a);
    for (const t of a) {
      expect(t.outcome).toBe(OUTCOME.newRaftLeader);
      expect(t.value).toBeGreaterThanOrEqual(200 - 20);
      expect(t.value).toBeLessThan(2 * 200 + 50);
    }
  });
  it('predicts the stale write rejected after a pause past the TTL, and no term change on heal with pre-vote', () => {
    expect(simTrial('pause-ttl5', 1, 0, 1).outcome).toBe(OUTCOME.failoverRejected);
    expect(simTrial('heal-prevote-on', 1, 0, 1)).toEqual({ value: 0, outcome: OUTCOME.termsSame });
    expect(simTrial('heal-prevote-off', 1, 0, 1).outcome).toBe(OUTCOME.termsRose);
  });
});

describe('longestGapMs', () => {
  it('is the longest step between sorted times, 0 with fewer than two', () => {
    expect(longestGapMs([0, 1666, 4000, 5666])).toBe(2334);
    expect(longestGapMs([300, 100])).toBe(200);
    expect(longestGapMs([5])).toBe(0);
    // A session lost at 4,000: the gap runs to the loss; the next session's keep-alives do not count.
    expect(longestGapMs([0, 1000, 5000, 5100], 4000)).toBe(3000);
    expect(longestGapMs([0, 1000, 4000, 5100], 4000)).toBe(3000);
  });
});
