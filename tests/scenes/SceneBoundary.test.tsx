// @vitest-environment jsdom
// The scene error boundary: a scene that throws shows its error in place with a reset, and its
// neighbours keep running; resetting mounts the scene afresh. Checked with a stand-in scene and
// with the real lab, whose failover timeline is fed a snapshot it cannot draw.
import { useState } from 'react';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SceneBoundary } from '../../src/ui/SceneBoundary';
import { Lab } from '../../src/app/Lab';
import { createLabStore } from '../../src/store/labStore';

// React reports every error a boundary catches to the console; expected here, and checked.
let consoleError: ReturnType<typeof vi.spyOn>;
beforeEach(() => {
  consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  cleanup();
  consoleError.mockRestore();
});

let instances = 0;

/** Throws while `broken`; each mounted instance keeps the number it was born with. */
function StandIn({ label, broken }: { label: string; broken: boolean }) {
  const [instance] = useState(() => ++instances);
  if (broken) throw new Error(`${label} cannot draw a snapshot without nodes`);
  return (
    <p>
      {label} instance {instance}
    </p>
  );
}

function Page({ brokenA }: { brokenA: boolean }) {
  return (
    <>
      <section aria-label="A">
        <SceneBoundary name="stage A">
          <StandIn label="A" broken={brokenA} />
        </SceneBoundary>
      </section>
      <section aria-label="B">
        <SceneBoundary name="stage B">
          <StandIn label="B" broken={false} />
        </SceneBoundary>
      </section>
    </>
  );
}

describe('SceneBoundary', () => {
  it('shows the error beside a working neighbour, and a reset mounts the scene afresh', () => {
    instances = 0;
    const { rerender } = render(<Page brokenA={false} />);
    const a = screen.getByRole('region', { name: 'A' });
    const b = screen.getByRole('region', { name: 'B' });
    expect(a.textContent).toBe('A instance 1');
    expect(b.textContent).toBe('B instance 2');

    rerender(<Page brokenA={true} />);
    const alert = within(a).getByRole('alert');
    expect(alert.textContent).toContain('The stage A stopped working');
    expect(alert.textContent).toContain('A cannot draw a snapshot without nodes');
    // The neighbour is the same instance, untouched.
    expect(b.textContent).toBe('B instance 2');
    expect(consoleError).toHaveBeenCalled();

    // The cause is gone, but the message stays until the reader asks for the scene back.
    rerender(<Page brokenA={false} />);
    expect(within(a).getByRole('alert')).toBeTruthy();
    fireEvent.click(within(a).getByRole('button', { name: 'Reset this scene' }));
    expect(within(a).queryByRole('alert')).toBeNull();
    expect(a.textContent).toMatch(/^A instance [3-9]$/);
    expect(b.textContent).toBe('B instance 2');
  });

  it('a reset while the cause remains shows the error again rather than a blank scene', () => {
    render(
      <SceneBoundary name="stage">
        <StandIn label="A" broken={true} />
      </SceneBoundary>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Reset this scene' }));
    expect(screen.getByRole('alert').textContent).toContain('A cannot draw a snapshot without nodes');
  });

  it('in the lab, a scene that throws leaves the other scenes and the controls working', async () => {
    const store = createLabStore({ experiment: { seed: 3 }, playing: false });
    act(() => store.getState().advanceBy(8000));
    render(<Lab store={store} />);
    // Scenes load on first use; the failover timeline is on the first screen, beside the chart.
    await screen.findByTestId('node-n1', {}, { timeout: 15_000 });
    await screen.findByTestId('failover-timeline', {}, { timeout: 15_000 });
    expect(screen.queryAllByRole('alert')).toEqual([]);
    const good = store.getState().snapshot;

    // A snapshot the failover timeline cannot draw (its list of failovers is missing).
    act(() => store.setState({ snapshot: { ...good, failovers: null as never } }));
    const alerts = screen.getAllByRole('alert');
    expect(alerts).toHaveLength(1);
    expect(alerts[0].textContent).toContain('The failover timeline stopped working');

    // The rest of the page still runs: the stage shows the nodes, and the controls drive the lab.
    expect(screen.getByTestId('node-n1')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Step to the next event' }));
    expect(store.getState().snapshot.nowMs).toBeGreaterThan(8000);

    // Stepping published a whole snapshot again, so a reset brings the timeline back.
    fireEvent.click(screen.getByRole('button', { name: 'Reset this scene' }));
    expect(screen.queryAllByRole('alert')).toEqual([]);
    expect(screen.getByText(/No failover yet/)).toBeTruthy();
  });
});
