// The real run's events in the engine's shapes: for each event type the engine has, an event a
// real part emits (the candidate's state machine, the storage) has exactly the engine's fields.
// Also the trace's experiment: the engine's own parser accepts it.
import { describe, expect, it } from 'vitest';
import { parseExperiment, runExperiment, type SimEvent } from '../../../src/engine';
import { Candidate } from '../../../src/real/candidate/candidateCore';
import type { CandidateOutput, RealEvent } from '../../../src/real/model/events';
import { FencedStorage } from '../../../src/real/cluster/storage';
import { DEFAULT_SETTINGS, TIMINGS } from '../../../src/real/model/settings';
import { faultOf, replayedFault } from '../../../src/real/model/fold';
import { twinExperiment } from '../../../src/real/model/twin';
import { FakeEtcd } from './fakeGateway';
import { ManualClock } from './manualClock';

function keysByType(events: { type: string }[]): Map<string, string[]> {
  const m = new Map<string, string[]>();
  for (const e of events) if (!m.has(e.type)) m.set(e.type, Object.keys(e).sort());
  return m;
}

async function realEvents(): Promise<RealEvent[]> {
  const clock = new ManualClock();
  const etcd = new FakeEtcd(clock);
  const storage = new FencedStorage(() => 99);
  storage.fencing = false;
  const out: RealEvent[] = [];
  const candidate = new Candidate(
    {
      node: 'n1',
      prefix: 'p',
      ttlMs: 2000,
      renewDeadlineMs: null,
      warmUpMs: 100,
      writeEveryMs: 100,
      retryMs: 50,
    },
    {
      gateway: etcd.gateway('n1', 500),
      storage: {
        write: async (w) => {
          const r = storage.write(w, clock.nowMs);
          out.push(r.event, ...r.violations);
          return { result: r.event.result, maxTokenSeen: r.event.maxTokenSeen };
        },
      },
      emit: (e: CandidateOutput) => {
        if (e.type !== 'keepAlive') out.push(e);
      },
      clock: clock.view('n1'),
    },
  );
  candidate.start();
  await clock.advance(500);
  await candidate.resign();
  return out;
}

describe('real events in the engine shapes', () => {
  it('have the fields of the engine events of the same type', async () => {
    const sim = runExperiment({
      seed: 4,
      nodes: 3,
      untilMs: 60_000,
      safety: { fencing: false },
      faults: [{ atMs: 20_000, do: 'pause', node: 'leader', forMs: 25_000 }],
    });
    const engine = keysByType(sim.events as SimEvent[]);
    const real = keysByType(await realEvents());
    const shared = ['campaign', 'elected', 'ready', 'steppedDown', 'write', 'violation'];
    for (const type of shared) {
      expect(real.get(type), type).toBeDefined();
      expect(engine.get(type), type).toBeDefined();
      expect(real.get(type), type).toEqual(engine.get(type));
    }
  });

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
