// @vitest-environment jsdom
// "Find a failure": the explorer's panel, with the explorer's real message host run in-process in
// place of the Web Worker jsdom cannot start (the same host worker.ts adapts). It finds and
// shrinks Bully's split brain and opens it as a run link, says how much it searched when it finds
// nothing in the safe default, stops when asked, and names a worker that fails.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createLabStore, type LabStore } from '../../src/store/labStore';
import { LabProvider } from '../../src/store/context';
import { ExplorePanel, type ExplorerWorker } from '../../src/app/explore/ExplorePanel';
import { createExplorerHost, type FromExplorer, type ToExplorer } from '../../src/explorer';
import { decodeRun } from '../../src/shared/share';

afterEach(cleanup);

/** The explorer's host behind a Worker's face, its slices and messages queued on timers. */
function inProcessWorker(): ExplorerWorker & { sent: ToExplorer[]; terminated: boolean } {
  const w = {
    sent: [] as ToExplorer[],
    terminated: false,
    onmessage: null as ((e: { data: FromExplorer }) => void) | null,
    onerror: null as ((e: { message?: string }) => void) | null,
    postMessage(m: ToExplorer) {
      w.sent.push(m);
      setTimeout(() => host.receive(structuredClone(m)), 0);
    },
    terminate() {
      w.terminated = true;
    },
  };
  const host = createExplorerHost({
    post: (m) =>
      setTimeout(() => {
        if (!w.terminated) act(() => w.onmessage?.({ data: structuredClone(m) }));
      }, 0),
    nowMs: () => performance.now(),
    later: (fn) => setTimeout(() => !w.terminated && fn(), 0),
    sliceMs: 10,
    progressEveryMs: 0,
  });
  return w;
}

function mount(store: LabStore, makeWorker: () => ExplorerWorker, navigate = vi.fn()) {
  render(
    <LabProvider store={store}>
      <ExplorePanel makeWorker={makeWorker} navigate={navigate} />
    </LabProvider>,
  );
  return navigate;
}

const LONG = { timeout: 30_000 };

describe('the Find a failure panel', () => {
  it("finds Bully's split brain, shrinks it, and opens it as a run link", async () => {
    const store = createLabStore({ experiment: { algorithm: 'bully' }, playing: false });
    const workers: ReturnType<typeof inProcessWorker>[] = [];
    const navigate = mount(store, () => {
      workers.push(inProcessWorker());
      return workers.at(-1)!;
    });
    expect(screen.getByTestId('explore-setup').textContent).toMatch(/Bully.*5 nodes.*Bully has no quorum/);
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    const bar = screen.getByRole('progressbar');
    expect(bar.getAttribute('aria-valuemin')).toBe('0');
    expect(bar.getAttribute('aria-valuemax')).toBe('5000');
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy();
    const start = workers[0].sent[0] as Extract<ToExplorer, { type: 'start' }>;
    expect(start.horizonMs).toBe(120_000);
    expect((start.setup as { algorithm: string }).algorithm).toBe('bully');

    const outcome = await screen.findByTestId('explore-outcome', {}, LONG);
    expect(outcome.dataset.outcome).toBe('found');
    expect(outcome.textContent).toContain('At most one leader per term');
    expect(screen.getByTestId('explore-caption').textContent).toMatch(
      /^Bully has no quorum: .* both win epoch/,
    );
    expect(outcome.textContent).toMatch(/removing any one of them makes the run pass/);
    expect(workers[0].terminated).toBe(true);

    const open = await within(outcome).findByRole('button', { name: 'Open this run' });
    await waitFor(() => expect(open).toHaveProperty('disabled', false));
    const link = (screen.getByTestId('explore-link') as HTMLInputElement).value;
    fireEvent.click(open);
    expect(navigate).toHaveBeenCalledWith(link);
    const run = decodeRun(new URL(link).searchParams.get('run')!);
    expect(run.ok).toBe(true);
    if (!run.ok) return;
    expect(run.run.experiment.algorithm).toBe('bully');
    expect(run.run.experiment.faults?.length).toBeGreaterThan(0);
    expect(run.run.commands).toEqual([]);
  }, 60_000);

  it('finds nothing with every defence on, and says how much it searched', async () => {
    const store = createLabStore({ experiment: {}, playing: false });
    mount(store, inProcessWorker);
    expect(screen.getByTestId('explore-setup').textContent).toMatch(/every safety switch on/);
    fireEvent.change(screen.getByLabelText('Budget'), { target: { value: '20' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    const outcome = await screen.findByTestId('explore-outcome', {}, LONG);
    expect(outcome.dataset.outcome).toBe('nothing');
    expect(outcome.textContent).toMatch(
      /^Nothing found in 20 schedules \(.* s, .* per second\): with every defence on, that is the expected answer\.$/,
    );
    await waitFor(() => expect(document.activeElement).toBe(outcome.parentElement));
  }, 60_000);

  it('explores the switches as they are now: fencing turned off during the run', async () => {
    const store = createLabStore({ experiment: {}, playing: false });
    store.getState().command({ do: 'safety', fencing: false });
    const w = inProcessWorker();
    mount(store, () => w);
    expect(screen.getByTestId('explore-setup').textContent).toMatch(/fencing off/);
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    const start = w.sent[0] as Extract<ToExplorer, { type: 'start' }>;
    expect((start.setup as { safety: { fencing: boolean } }).safety.fencing).toBe(false);
    expect((start.setup as { faults: unknown[] }).faults).toEqual([]);
    const outcome = await screen.findByTestId('explore-outcome', {}, LONG);
    expect(outcome.textContent).toContain('No stale write accepted');
  }, 60_000);

  it('stops when asked, and a budget in seconds is sent as wall time', async () => {
    const store = createLabStore({ experiment: {}, playing: false });
    const w = inProcessWorker();
    mount(store, () => w);
    fireEvent.change(screen.getByLabelText('Budget unit'), { target: { value: 'seconds' } });
    expect((screen.getByLabelText('Budget') as HTMLInputElement).value).toBe('30');
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    expect((w.sent[0] as Extract<ToExplorer, { type: 'start' }>).budget?.ms).toBe(30_000);
    await waitFor(() =>
      expect(screen.getByRole('progressbar').getAttribute('aria-valuetext')).toMatch(/per second/),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    expect(w.sent[1]).toEqual({ type: 'stop' });
    const outcome = await screen.findByTestId('explore-outcome', {}, LONG);
    expect(outcome.dataset.outcome).toBe('stopped');
    expect(outcome.textContent).toMatch(/^Stopped: nothing found in [\d,]+ schedules/);
  }, 60_000);

  it('says so when the worker cannot start or fails', async () => {
    const store = createLabStore({ experiment: {}, playing: false });
    mount(store, () => {
      throw new Error('Worker is not defined');
    });
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    expect(screen.getByRole('alert').textContent).toMatch(
      /could not start its worker \(Worker is not defined\)/,
    );
    cleanup();

    const w = inProcessWorker();
    w.postMessage = () => setTimeout(() => act(() => w.onerror?.({})), 0);
    mount(store, () => w);
    fireEvent.click(screen.getByRole('button', { name: 'Start' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/worker failed to load/);
    expect(screen.getByRole('button', { name: 'Start' })).toBeTruthy();
  });

  it('refuses a budget that is not a whole number', () => {
    const store = createLabStore({ experiment: {}, playing: false });
    const makeWorker = vi.fn(inProcessWorker);
    mount(store, makeWorker);
    fireEvent.change(screen.getByLabelText('Budget'), { target: { value: '' } });
    fireEvent.submit(screen.getByRole('button', { name: 'Start' }).closest('form')!);
    expect(screen.getByRole('alert').textContent).toMatch(/whole number of schedules/);
    expect(makeWorker).not.toHaveBeenCalled();
  });
});
