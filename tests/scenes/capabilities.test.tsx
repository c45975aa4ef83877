// @vitest-environment jsdom
// Controls show only what the run's backend can do: a backend that cannot seek, step or change
// speed, and accepts only some commands, gets no timeline, no Step, no speed, and only the
// fault buttons it accepts (a real cluster's backend will be such a one).
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { Lab } from '../../src/app/Lab';
import type { BackendCapabilities, LabBackend } from '../../src/store/backend';
import { LabEngine } from '../../src/store/labEngine';
import { createLabStore } from '../../src/store/labStore';

afterEach(cleanup);

const LIMITED: BackendCapabilities = {
  seek: false,
  step: false,
  speed: false,
  replay: false,
  commands: ['kill', 'restart'],
};

/** The simulator, reporting fewer capabilities: what a live cluster's backend might offer. */
function limited(engine: LabEngine): LabBackend {
  return new Proxy(engine, {
    get(target, prop) {
      if (prop === 'can') return LIMITED;
      if (prop === 'kind') return 'live';
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  }) as unknown as LabBackend;
}

describe('controls follow the backend', () => {
  it('the simulator offers every control', async () => {
    const store = createLabStore({ experiment: { seed: 1 }, playing: false });
    act(() => store.getState().advanceBy(8000));
    render(<Lab store={store} />);
    await screen.findByTestId('node-n1', {}, { timeout: 15_000 });
    expect(store.getState().backendKind).toBe('sim');
    expect(screen.getByRole('slider', { name: 'Timeline' })).toBeTruthy();
    expect(screen.getByRole('slider', { name: 'Speed' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Step to the next event' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Split/ })).toBeTruthy();
    expect(screen.getByRole('switch', { name: /^Fencing/ })).toBeTruthy();
  });

  it('a backend that cannot seek, step, change speed or partition shows none of those', async () => {
    const store = createLabStore({
      experiment: { seed: 1 },
      playing: false,
      makeBackend: (e, c) => limited(new LabEngine(e, c)),
    });
    act(() => store.getState().advanceBy(8000));
    render(<Lab store={store} />);
    await screen.findByTestId('node-n1', {}, { timeout: 15_000 });
    expect(store.getState().backendKind).toBe('live');
    expect(screen.queryByRole('slider', { name: 'Timeline' })).toBeNull();
    expect(screen.queryByRole('slider', { name: 'Speed' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Step to the next event' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Split/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Heal the network' })).toBeNull();
    expect(screen.queryByRole('switch', { name: /^Fencing/ })).toBeNull();
    // The commands it accepts are there: select the leader, and Kill is offered, Pause is not.
    const leader = store.getState().snapshot.nodes.find((n) => n.role === 'leader')!.id;
    fireEvent.click(screen.getByRole('button', { name: `Select ${leader}` }));
    expect(screen.getByRole('button', { name: `Kill ${leader}` })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Pause / })).toBeNull();
    expect(screen.queryByRole('button', { name: `Isolate ${leader}` })).toBeNull();
    // Setup, sharing and the failure explorer replay or remake the run: a simulator's only.
    expect(screen.queryByRole('tab', { name: 'Setup' })).toBeNull();
    expect(screen.queryByRole('tab', { name: 'Explore' })).toBeNull();
    expect(screen.getByRole('tab', { name: 'Export' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /share/i })).toBeNull();
  });

  it('a backend that can flip only some safety switches shows only those', async () => {
    const can: BackendCapabilities = { ...LIMITED, commands: ['safety'], switches: ['fencing'] };
    const store = createLabStore({
      experiment: { seed: 1 },
      playing: false,
      makeBackend: (e, c) =>
        new Proxy(new LabEngine(e, c), {
          get: (target, prop) => {
            if (prop === 'can') return can;
            const v = Reflect.get(target, prop, target) as unknown;
            return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
          },
        }) as unknown as LabBackend,
    });
    render(<Lab store={store} />);
    await screen.findByTestId('node-n1', {}, { timeout: 15_000 });
    expect(screen.getByRole('switch', { name: /^Fencing/ })).toBeTruthy();
    expect(screen.queryByRole('switch', { name: /^Quorum/ })).toBeNull();
    expect(screen.queryByRole('switch', { name: /^Pre-vote/ })).toBeNull();
  });
});
