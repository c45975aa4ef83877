// A real run's commands as the engine's faults: the twin's experiment, which the engine's own
// parser accepts (the events' shapes are checked against a real etcd in tests/real/candidate.test.ts).
import { describe, expect, it } from 'vitest';
import { parseExperiment } from '../../../src/engine';
import { DEFAULT_SETTINGS, TIMINGS } from '../../../src/real/model/settings';
import { faultOf, replayedFault } from '../../../src/real/model/fold';
import { twinExperiment } from '../../../src/real/model/twin';

describe('real commands as engine faults', () => {
  it("map to an experiment the engine's parser accepts, with each command on the node or service it hit", () => {
    const faults = [
      faultOf({ atMs: 1000, do: 'kill', node: 'leader' }, 'n2'),
      faultOf({ atMs: 2000, do: 'kill', node: 'n1', part: 'member' }, 'n1'),
      faultOf({ atMs: 3000, do: 'pause', node: 'leader', forMs: 4000 }, 'n3'),
      faultOf({ atMs: 4000, do: 'isolate', node: 'n1', part: 'candidate' }, 'n1'),
      faultOf({ atMs: 4500, do: 'isolate', node: 'n2', part: 'host' }, 'n2'),
      faultOf({ atMs: 5000, do: 'heal' }, undefined),
    ];
    // A member's part is the twin's etcd member; a candidate's, or a whole host's, its node.
    expect(faults).toEqual([
      { atMs: 1000, do: 'kill', node: 'n2' },
      { atMs: 2000, do: 'kill', node: 'm1' },
      { atMs: 3000, do: 'pause', node: 'n3', forMs: 4000 },
      { atMs: 4000, do: 'isolate', node: 'n1' },
      { atMs: 4500, do: 'isolate', node: 'm2' },
      { atMs: 5000, do: 'heal' },
    ]);
    // A command that did nothing is not replayed.
    expect(
      replayedFault({ fault: { atMs: 1, do: 'kill', node: 'leader' }, target: undefined, skipped: true }),
    ).toBe(null);
    for (const s of [
      DEFAULT_SETTINGS,
      { ...DEFAULT_SETTINGS, ...TIMINGS.fast, ttlMs: 2000, renewDeadlineMs: 1500 },
    ]) {
      const e = twinExperiment(s, { faults, untilMs: 12_345 });
      expect(parseExperiment(e).ok).toBe(true);
      // The twin runs what the real candidates run: etcd's election recipe, with the run's session.
      expect(e.algorithm).toBe('etcd-election');
      expect(e.etcd).toEqual({ ttlMs: s.ttlMs, renewDeadlineMs: s.renewDeadlineMs ?? 0 });
      expect(e.untilMs).toBe(12_345);
      expect(e.faults).toHaveLength(6);
    }
  });
});
