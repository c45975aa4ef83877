// @vitest-environment jsdom
// The simulator's keyboard on a real run: the fault keys send the real run's commands to its
// bridge (kill, pause, split, heal, fencing), what a real cluster cannot do (stepping) is neither
// handled nor listed in the help, and the simulator still offers every key.
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { offeredShortcuts, SHORTCUTS } from '../../../src/app/present/shortcuts';
import { capabilities } from '../../../src/real/model/capabilities';
import type { RealEvent } from '../../../src/real/model/events';
import { DEFAULT_SETTINGS, TIMINGS, type RunSettings } from '../../../src/real/model/settings';
import { createLabStore } from '../../../src/store/labStore';
import { Keys, press } from './keysHarness';
import { LiveBackend, type BridgeCapabilities } from '../../../src/store/backends/liveBackend';

afterEach(cleanup);

const SETTINGS: RunSettings = { ...DEFAULT_SETTINGS, ...TIMINGS.fast, ttlMs: 2000, warmUpMs: 500 };
const START = 1_800_000_000_000;
const LINK = { url: 'http://127.0.0.1:40123', token: 'abcdefghijklmnopqrstuvwxyz012345' };

class QuietEventSource {
  readonly CLOSED = 2;
  readyState = 1;
  onopen: (() => void) | null = null;
  onmessage: (() => void) | null = null;
  onerror: (() => void) | null = null;
  addEventListener(): void {}
  close(): void {}
}

const proc = (atMs: number, node: string, part: 'candidate' | 'member'): RealEvent => ({
  atMs,
  type: 'process',
  node,
  part,
  state: 'started',
});

/** A real run 3 s in, n1 leading (token 5), every command sent to its bridge recorded. */
function liveRun(leading = true) {
  const sent: { url: string; auth: string; body: unknown }[] = [];
  const fetchFn = (async (url: string, init: RequestInit) => {
    sent.push({
      url,
      auth: (init.headers as Record<string, string>).authorization,
      body: JSON.parse(init.body as string),
    });
    return { ok: true, json: async () => ({ ok: true }) };
  }) as unknown as typeof fetch;
  const live = new LiveBackend(LINK, capabilities(SETTINGS) as BridgeCapabilities, START, {
    now: () => START + 3000,
    fetch: fetchFn,
    EventSource: QuietEventSource as unknown as typeof EventSource,
  });
  for (const n of ['n1', 'n2', 'n3']) {
    live.recording.receive(proc(0, n, 'member'));
    live.recording.receive(proc(400, n, 'candidate'));
  }
  if (leading) {
    live.recording.receive({
      atMs: 900,
      type: 'campaign',
      node: 'n1',
      term: 5,
      preVote: false,
      transfer: false,
    });
    live.recording.receive({ atMs: 900, type: 'elected', node: 'n1', term: 5, votes: [] });
  }
  const store = createLabStore({ experiment: live.experiment, makeBackend: () => live, playing: false });
  store.getState().seek(3000);
  return { store, sent };
}

describe("the simulator's keys on a real run", () => {
  it("send the run's commands to its bridge: K kills the leader, P pauses it, S splits, F flips fencing", async () => {
    const { store, sent } = liveRun();
    render(<Keys store={store} />);
    expect(press('k')).toBe(true);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      url: `${LINK.url}/command`,
      auth: `Bearer ${LINK.token}`,
      body: { do: 'kill', node: 'leader', part: 'candidate' },
    });
    press('p');
    press('s');
    press('f');
    await waitFor(() => expect(sent).toHaveLength(4));
    expect(sent.slice(1).map((s) => s.body)).toEqual([
      { do: 'pause', node: 'leader', part: 'candidate', forMs: 30000 },
      { do: 'partition', groups: [expect.any(Array), expect.any(Array)] },
      { do: 'safety', fencing: false },
    ]);
    expect((sent[2].body as { groups: string[][] }).groups.flat().sort()).toEqual(['n1', 'n2', 'n3']);
  });

  it('say why they did nothing, as in the simulator: no leader to kill, no partition to heal', () => {
    const { store, sent } = liveRun(false);
    render(<Keys store={store} />);
    press('k');
    expect(screen.getByRole('alert').textContent).toMatch(/There is no leader to kill right now/);
    press('h');
    expect(screen.getByRole('alert').textContent).toMatch(/no partition to heal/);
    expect(sent).toEqual([]);
  });

  it('leave what a real cluster cannot do alone: no step, and the help does not list it', () => {
    const { store, sent } = liveRun();
    render(<Keys store={store} />);
    const before = store.getState().snapshot.nowMs;
    expect(press('ArrowRight')).toBe(false);
    expect(press('PageDown')).toBe(false);
    expect(store.getState().snapshot.nowMs).toBe(before);
    expect(sent).toEqual([]);
    const help = screen.getByTestId('help-overlay').textContent ?? '';
    for (const label of [
      'Kill the leader',
      'GC-pause the leader',
      'Split the network',
      'Heal',
      'Toggle fencing',
    ])
      expect(help).toContain(label);
    expect(help).toContain('Play / pause');
    // Scrubbing back within the recording is what a real run can do with time.
    expect(help).toContain('back 5 s');
    expect(help).not.toContain('next event');
  });

  it('are all offered by the simulator, as before', () => {
    const store = createLabStore({ playing: false });
    expect(offeredShortcuts(store.getState().can, false)).toEqual(SHORTCUTS);
    render(<Keys store={store} />);
    const help = screen.getByTestId('help-overlay').textContent ?? '';
    for (const s of SHORTCUTS) expect(help).toContain(s.label);
  });
});
