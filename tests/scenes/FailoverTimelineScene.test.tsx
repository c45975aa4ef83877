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
    const store = createLabStore({ experiment: { seed: 1, nodes: 5 }, playing: false });
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
    const [bar] = failoverBars(f, store.getState().snapshot.nowMs);
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
