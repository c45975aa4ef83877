// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { createLabStore } from '../../src/store/labStore';
import { LabProvider } from '../../src/store/context';
import { FailoverTimelineScene } from '../../scenes/FailoverTimelineScene/FailoverTimelineScene';
import { failoverBars } from '../../scenes/FailoverTimelineScene/failoverModel';

afterEach(cleanup);

describe('FailoverTimelineScene', () => {
  it('splits a measured failover into detection, election and warm-up', () => {
    const store = createLabStore({
      experiment: { algorithm: 'k8s-lease', seed: 1, nodes: 5 },
      playing: false,
    });
    store.getState().advanceBy(20_000);
    store.getState().command({ do: 'kill', node: 'leader' });
    store.getState().advanceBy(30_000);
    const f = store.getState().snapshot.failovers;
    expect(f).toHaveLength(1);
    render(
      <LabProvider store={store}>
        <FailoverTimelineScene />
      </LabProvider>,
    );
    const [bar] = failoverBars(f, store.getState().snapshot.nowMs, 'term');
    expect(bar.complete).toBe(true);
    // Detection waits out the 15 s lease less the time since the last heartbeat, plus jitter.
    expect(bar.phases[0].durationMs).toBeGreaterThan(10_000);
    expect(bar.phases[0].durationMs).toBeLessThan(18_000);
    expect(bar.phases[2].durationMs).toBe(2_000);
    expect(bar.longest).toBe('detection');
    const img = screen.getByRole('img');
    expect(img.getAttribute('aria-label')).toMatch(/detection \d+\.\d s, election \d+\.\d s, warm-up 2\.0 s/);
    expect(screen.getByText(/killed → /)).toBeTruthy();
  });

  it('says how to get a failover when there is none', () => {
    const store = createLabStore({ experiment: { seed: 1 }, playing: false });
    store.getState().advanceBy(5_000);
    render(
      <LabProvider store={store}>
        <FailoverTimelineScene />
      </LabProvider>,
    );
    expect(screen.getByText(/No failover yet/)).toBeTruthy();
  });
});

describe('a failover under way, as the dashboard pages it', () => {
  function at(command: 'kill' | 'pause', afterMs: number) {
    const store = createLabStore({
      experiment: { algorithm: 'k8s-lease', seed: 1, nodes: 3 },
      playing: false,
    });
    store.getState().advanceBy(9000);
    store
      .getState()
      .command(
        command === 'kill' ? { do: 'kill', node: 'leader' } : { do: 'pause', node: 'leader', forMs: 30_000 },
      );
    store.getState().advanceBy(afterMs);
    render(
      <LabProvider store={store}>
        <FailoverTimelineScene />
      </LabProvider>,
    );
    return screen.queryByTestId('failover-under-way')?.textContent ?? null;
  }

  it('a killed leader: no leader on either line', () => {
    expect(at('kill', 3000)).toMatch(
      /^A failover is under way: no leader now \(leader_count 0, believed and observed\)/,
    );
  });

  it('a paused leader: observed 0 pages, though it still believes it leads', () => {
    expect(at('pause', 3000)).toMatch(
      /^No leader answers now: the leader is paused .*observed leader_count 0, which pages/,
    );
  });

  it('nothing under way once the new holder answers its scrape, the zombie still frozen', () => {
    expect(at('pause', 20_000)).toBeNull();
  });
});

// Game day quorum-split-2-3's run: the leader cut off from the majority at 10 s goes on being
// counted until CheckQuorum steps it down at 15.5 s, and n4 is elected at 17.1 s. The chart's
// time without a leader is 1.7 s; detection and election, from the cut, are 7.1 s.
describe('a leader cut off from the majority, still counted', () => {
  it('says when a new leader came, not that the whole stretch had no leader', () => {
    const store = createLabStore({
      experiment: {
        algorithm: 'raft',
        seed: 1,
        nodes: 5,
        raft: { heartbeatMs: 1000, electionTimeoutMs: 5000 },
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
      },
      playing: false,
    });
    store.getState().advanceBy(25_000);
    const s = store.getState().snapshot;
    render(
      <LabProvider store={store}>
        <FailoverTimelineScene />
      </LabProvider>,
    );
    const chartMs = s.counters.msWithoutLeader;
    const [f] = s.failovers;
    expect(f.cause).toBe('partitioned');
    expect(f.electedAtMs - f.lostAtMs).toBeGreaterThan(chartMs + 3000);
    const sums = screen.getByTestId('failover-sums').textContent!;
    expect(sums).not.toMatch(/no leader/);
    expect(sums).toContain(`a new leader after ${((f.electedAtMs - f.lostAtMs) / 1000).toFixed(1)} s`);
    expect(sums).toContain(
      "leader_count still counted the cut-off leader, so the chart's time without a leader is shorter",
    );
  });
});
