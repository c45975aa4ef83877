// @vitest-environment jsdom
// The leaderless comparison rendered over a real lab store: it steps to its summary with the
// model's numbers, uses the default window until the run has a finished failover, then that one.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createLabStore } from '../../src/store/labStore';
import { LabProvider } from '../../src/store/context';
import { LeaderlessScene } from '../../scenes/LeaderlessScene/LeaderlessScene';
import { DEFAULT_CONFIG, runLeaderless } from '../../src/leaderless/model';

afterEach(cleanup);

function mount() {
  const store = createLabStore({
    experiment: { algorithm: 'k8s-lease', seed: 1, nodes: 3, network: { delayMsMin: 60, delayMsMax: 180 } },
    playing: false,
  });
  const view = render(
    <LabProvider store={store}>
      <LeaderlessScene />
    </LabProvider>,
  );
  return { store, view };
}

const next = () => fireEvent.click(screen.getByTestId('ll-next'));

describe('LeaderlessScene', () => {
  it('steps through the two deaths to the summary, with the default window before any failover', () => {
    const { view } = mount();
    const run = runLeaderless();
    expect(screen.getByTestId('ll-window').textContent).toContain(
      "from the default (the Raft failover measured by the game day “Don't have a leader: partition the work”)",
    );
    expect(screen.getByTestId('ll-step').textContent).toBe('Part 1 of 4');
    expect(screen.getByTestId('ll-next').textContent).toBe('Next: Kill worker w5 ▶');
    expect(screen.getByTestId('ll-keysec-leader').textContent).toBe('0.0');
    expect(screen.queryByTestId('ll-moved')).toBeNull();
    next();
    expect(screen.getByTestId('ll-caption').textContent).toContain('On the ring 199 keys move (19.9%');
    // Both designs lose w5's keys for the detection time: the same key-seconds so far.
    expect(screen.getByTestId('ll-keysec-leader').textContent).toBe('1253.9');
    expect(screen.getByTestId('ll-keysec-ring').textContent).toBe('1253.9');
    expect(view.container.querySelectorAll('.ll-dead')).toHaveLength(2);
    const strips = [...view.container.querySelectorAll('.ll-strip')].map((e) => e.getAttribute('aria-label'));
    expect(strips).toEqual([
      'consistent-hash ring: 199 keys moved (19.9%)',
      'hash % N: 819 keys moved (81.9%)',
    ]);
    next();
    expect(screen.getByTestId('ll-worst-leader').textContent).toBe('1000');
    expect(screen.getByTestId('ll-worst-ring').textContent).toBe('275');
    expect(screen.getByTestId('ll-moved').textContent).toContain('when w4 dies');
    expect(screen.queryByTestId('ll-summary')).toBeNull();
    next();
    expect(screen.getByTestId('ll-sum-leader').textContent).toBe(
      (run.unavailableKeyMs.leader / 1000).toFixed(1),
    );
    expect(screen.getByTestId('ll-sum-ring').textContent).toBe((run.unavailableKeyMs.ring / 1000).toFixed(1));
    expect(screen.getByTestId('ll-moved-1').textContent).toBe('ring 275 (27.5%) · hash % N 779 (77.9%)');
    expect(screen.getByTestId('ll-next').hasAttribute('disabled')).toBe(true);
    const ticks = [...view.container.querySelectorAll('.ll-chart')[0].querySelectorAll('.ll-tick')].map(
      (t) => t.textContent,
    );
    expect(ticks).toEqual(['0', '1000', '0 s', '5 s', '10 s', '15 s', '20 s', '25 s']);
    fireEvent.click(screen.getByRole('button', { name: /Start over/ }));
    expect(screen.getByTestId('ll-step').textContent).toBe('Part 1 of 4');
  });

  it("takes the run's own failover as design (a)'s window once one is finished", () => {
    const { store } = mount();
    act(() => store.getState().advanceBy(10_000));
    act(() => store.getState().command({ do: 'kill', node: 'leader' }));
    act(() => store.getState().advanceBy(30_000));
    const [f] = store.getState().snapshot.failovers;
    expect(f.readyAtMs).toBeGreaterThan(0);
    const window = screen.getByTestId('ll-window').textContent ?? '';
    expect(window).toContain(`this run's failover (Kubernetes Lease, ${f.from} lost at 10.0 s)`);
    expect(window).toContain(`${((f.readyAtMs - f.lostAtMs) / 1000).toFixed(1)} s from the leader's death`);
    const run = runLeaderless({
      ...DEFAULT_CONFIG,
      window: { detectMs: f.detectedAtMs - f.lostAtMs, totalMs: f.readyAtMs - f.lostAtMs, source: '' },
    });
    next();
    next();
    next();
    expect(screen.getByTestId('ll-sum-leader').textContent).toBe(
      (run.unavailableKeyMs.leader / 1000).toFixed(1),
    );
  });
});
