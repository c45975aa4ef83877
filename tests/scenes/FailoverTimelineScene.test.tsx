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
