// One vanilla zustand store per mounted lab (never a module singleton), so several labs or embeds share a
// page. The backend lives beside it: the store holds the latest snapshot and UI state; actions drive it.
import { createStore, type StoreApi } from 'zustand/vanilla';
import {
  algorithmFor,
  algorithmLoaded,
  loadAlgorithm,
  parseExperiment,
  type AlgorithmKind,
  type Command,
  type Experiment,
  type ExperimentInput,
  type FieldError,
  type SimEvent,
  type Snapshot,
} from '../engine';
import type { BackendCapabilities, LabBackend, RecordedCommand } from './backend';
import { LabEngine } from './labEngine';
import { announceEvent, describeEvent } from './format';
import { PauseEnds, type PauseEnd } from './pauseEnds';
import { share } from './share';

export const MIN_SPEED = 0.1;
export const MAX_SPEED = 64;
export const MAX_LOG = 300;
/** Longest run the page simulates; every series and store below is bounded by it. */
export const MAX_RUN_MS = 4 * 3600_000;
/**
 * While playing, React gets a snapshot (and log) at most this often (per-frame motion reads `store.frame()`):
 * 60 renders a second cost more than a frame at 16x with many clients, and nobody reads faster counters.
 */
export const SNAPSHOT_EVERY_MS = 100;

export interface LogEntry {
  index: number;
  atMs: number;
  text: string;
  tone: 'info' | 'good' | 'warn' | 'bad';
}

export interface LabState {
  experiment: Experiment;
  /** What React renders: published on every action, and at most every SNAPSHOT_EVERY_MS while playing. */
  snapshot: Snapshot;
  horizonMs: number;
  playing: boolean;
  speed: number;
  selected: string | null;
  /** The node whose menu of actions is open on the stage (it is the selected one), if any. */
  menu: string | null;
  log: LogEntry[];
  /** Latest leader change, for the polite live region. */
  announcement: string;
  /** Last error from a command or setup, shown near the controls. */
  error: string | null;
  setupErrors: FieldError[];
  /** Bumps whenever the backend emitted events: charts redraw on it rather than every frame. */
  eventVersion: number;
  commandCount: number;
  /** What the run's backend can do: the controls show only these. */
  can: BackendCapabilities;
  backendKind: LabBackend['kind'];
  /** An algorithm chosen whose code is still on its way: the run changes to it once it has come. */
  loadingAlgorithm: AlgorithmKind | null;
}

export interface LabActions {
  play(): void;
  pause(): void;
  togglePlay(): void;
  setSpeed(speed: number): void;
  /**
   * Advance by wall-clock ms times the speed (the frame clock calls this). React sees the new snapshot if
   * `viewEveryMs` (SNAPSHOT_EVERY_MS unless the pacer asks for less) passed. Returns whether the DOM changes.
   */
  advanceWall(wallMs: number, viewEveryMs?: number): boolean;
  advanceBy(simMs: number): void;
  seek(ms: number): void;
  stepEvent(): void;
  command(cmd: Command): boolean;
  select(id: string | null): void;
  /** Select a node and open its menu of actions on the stage; null closes the menu (the node stays selected). */
  openMenu(id: string | null): void;
  reset(input?: ExperimentInput): boolean;
  clearError(): void;
}

export type FrameListener = (frame: Snapshot) => void;

export type LabStore = StoreApi<LabState & LabActions> & {
  /** Where the run comes from: what every view reads (replaced on reset, so never captured). */
  backend(): LabBackend;
  /** The latest snapshot, new every advance, for the per-frame layer; unchanged parts keep their identity. */
  frame(): Snapshot;
  /** Each frame without a store update (which runs every selector 60 times a second); returns unlisten. */
  onFrame(listener: FrameListener): () => void;
  /**
   * Run `work` in a later frame, one per frame, in order: for views whose DOM changes are costly (the chart,
   * the chain), so that no frame, nor jump, does two. With no frame clock (tests, headless): at once.
   */
  nextFrame(work: () => void): void;
  /** Run every piece of deferred work now: something reads the scenes (an export). */
  flushDeferred(): void;
  /** Whether a frame clock drives the lab (FrameClock says so), so that deferred work waits for a frame. */
  setClocked(clocked: boolean): void;
  /** Stop every advance where the limit says (guided mode's step conditions); null: advance freely. */
  setAdvanceLimit(limit: AdvanceLimit | null): void;
};

/**
 * Where an advance stops inside a frame: at 64x a frame can cover 6 s, so a step waiting for a campaign could
 * pass it and the election the next step awaits. Checked at each moment it names, like the headless runner.
 */
export interface AdvanceLimit {
  /** The next simulated moment worth checking after nowMs (above nowMs; the advance caps it). */
  nextCheckMs(nowMs: number): number;
  /** Whether the run must stop at the moment it has reached. */
  reached(run: LabBackend): boolean;
}

export interface LabOptions {
  experiment?: ExperimentInput;
  commands?: readonly RecordedCommand[];
  playing?: boolean;
  speed?: number;
  /** Makes the run's backend; the simulator unless said otherwise. */
  makeBackend?: (experiment: Experiment, commands: readonly RecordedCommand[]) => LabBackend;
}

function tone(ev: SimEvent): LogEntry['tone'] {
  if (ev.type === 'violation') return 'bad';
  if (ev.type === 'write') return ev.stale ? 'bad' : ev.result === 'rejected' ? 'warn' : 'info';
  if (ev.type === 'elected' || ev.type === 'ready') return 'good';
  if (ev.type === 'steppedDown' || ev.type === 'fault') return 'warn';
  return 'info';
}

/** Everything but the routine streams; client writes are counted elsewhere, so only a divergent one logs. */
function worthLogging(ev: SimEvent): boolean {
  if (ev.type === 'clientWrite') return ev.result === 'divergent';
  if (ev.type === 'write')
    return ev.result === 'rejected' || ev.stale || ev.kind === 'claim' || ev.kind === 'manual';
  return true;
}

export function clampSpeed(speed: number): number {
  if (!Number.isFinite(speed)) return 1;
  return Math.min(MAX_SPEED, Math.max(MIN_SPEED, speed));
}

export function createLabStore(options: LabOptions = {}): LabStore {
  const parsed = parseExperiment(options.experiment ?? {});
  const fallback = (parseExperiment({}) as { ok: true; experiment: Experiment }).experiment;
  let experiment = parsed.ok ? parsed.experiment : fallback;
  // A simulated run needs its algorithm's code, which the page loads before it starts the lab
  // (loadLinkScenario). Should that fetch have failed (offline), the lab opens Raft, and says so.
  let startError: string | null = null;
  if (!options.makeBackend && !algorithmLoaded(experiment.algorithm)) {
    startError = `the ${algorithmFor(experiment.algorithm).title} algorithm could not be loaded (offline?): opened Raft; reload to try again`;
    experiment = fallback;
  }
  const makeBackend = options.makeBackend ?? ((e, commands) => new LabEngine(e, commands));
  let backend = makeBackend(experiment, startError ? [] : (options.commands ?? []));
  let logCursor = 0;
  // A cut-off node asks for pre-votes for the same term every few seconds: one log line per node and term.
  let preVotesLogged = new Set<string>();
  // The log tells when a timed GC pause runs out, though the engine emits no event for it.
  const pauseEnds = new PauseEnds();
  const pauseEndEntry = (end: PauseEnd): LogEntry => ({ ...end, tone: 'info' });
  let frame = backend.snapshot();
  const frameListeners = new Set<FrameListener>();
  const deferred: (() => void)[] = [];
  let limit: AdvanceLimit | null = null;

  const store = createStore<LabState & LabActions>()((set, get) => {
    // The log and the live announcement React has not been shown yet: published with the next snapshot.
    let log: LogEntry[] = [];
    let announcement = '';
    let eventVersion = 0;
    let lastViewAtMs = -Infinity;
    // An action published (a jump, say) since the last frame, and the last frame waited for one.
    let acted = false;
    let waited = false;

    /**
     * Pull what the backend produced since the last publish: from the clock (`throttled`) at most every
     * SNAPSHOT_EVERY_MS, else at once, so an action shows its result. Returns whether React saw it.
     */
    const publish = (rebuildLog = false, throttled = false, viewEveryMs = SNAPSHOT_EVERY_MS): boolean => {
      acted = true;
      const total = backend.eventsTotal;
      if (rebuildLog || total < logCursor) {
        log = [];
        preVotesLogged = new Set();
        pauseEnds.reset();
        logCursor = Math.max(0, total - 5000);
        eventVersion++;
      }
      const add: LogEntry[] = [];
      if (total > logCursor) {
        const fresh = backend.eventsSince(logCursor);
        // The log speaks the run's algorithm (set before a reset publishes).
        const speech = algorithmFor(get().experiment.algorithm);
        const start = total - fresh.length;
        fresh.forEach((ev, i) => {
          for (const end of pauseEnds.due(ev.atMs)) add.push(pauseEndEntry(end));
          pauseEnds.see(ev, start + i);
          if (!worthLogging(ev)) return;
          if (ev.type === 'campaign' && ev.preVote) {
            const key = `${ev.node}:${ev.term}`;
            if (preVotesLogged.has(key)) return;
            if (preVotesLogged.size > 1000) preVotesLogged.clear();
            preVotesLogged.add(key);
          }
          add.push({ index: start + i, atMs: ev.atMs, text: describeEvent(ev, speech), tone: tone(ev) });
          announcement = announceEvent(ev, speech) ?? announcement;
        });
        logCursor = total;
        eventVersion++;
      }
      add.push(...pauseEnds.due(backend.nowMs).map(pauseEndEntry));
      if (add.length) log = [...log, ...add].slice(-MAX_LOG);
      frame = share(frame, backend.snapshot());
      const wallMs = performance.now();
      const viewed = !throttled || wallMs - lastViewAtMs >= viewEveryMs;
      if (viewed) {
        lastViewAtMs = wallMs;
        set({
          snapshot: frame,
          horizonMs: backend.horizonMs,
          log,
          announcement,
          eventVersion,
          commandCount: backend.commands.length,
        });
      }
      for (const listener of [...frameListeners]) listener(frame);
      return viewed;
    };

    const advance = (simMs: number, throttled: boolean, viewEveryMs?: number): boolean => {
      const target = Math.min(MAX_RUN_MS, backend.nowMs + Math.max(0, Math.round(simMs)));
      if (limit) {
        while (backend.nowMs < target) {
          const before = backend.nowMs;
          backend.advanceTo(Math.min(target, Math.max(before + 1, limit.nextCheckMs(before))));
          // Stopped short: show the moment at once (the limit's owner pauses on it).
          if (limit.reached(backend)) {
            throttled = false;
            break;
          }
          // A backend that cannot move on now (a real run waits for the wall clock).
          if (backend.nowMs <= before) break;
        }
      } else backend.advanceTo(target);
      if (target >= MAX_RUN_MS) {
        set({ playing: false });
        throttled = false;
      }
      return publish(false, throttled, viewEveryMs);
    };

    /** Resets asked for so far: a reset that waited for its algorithm's code applies only if last. */
    let resets = 0;
    return {
      experiment,
      snapshot: frame,
      horizonMs: 0,
      playing: options.playing ?? true,
      speed: clampSpeed(options.speed ?? 1),
      selected: null,
      menu: null,
      log: [],
      announcement: '',
      error: startError,
      setupErrors: parsed.ok ? [] : parsed.errors,
      eventVersion: 0,
      commandCount: backend.commands.length,
      can: backend.can,
      backendKind: backend.kind,
      loadingAlgorithm: null,

      play: () => set({ playing: true }),
      pause: () => {
        set({ playing: false });
        // Show the exact moment it stopped, not the last throttled snapshot.
        publish();
      },
      togglePlay: () => (get().playing ? get().pause() : get().play()),
      setSpeed: (speed) => set({ speed: clampSpeed(speed) }),
      advanceWall: (wallMs, viewEveryMs) => {
        const s = get();
        // Deferred work runs one piece per frame (paused too), oldest first, taken before this frame's
        // advance defers more: each costly view gets a frame of its own. The frame after an action (a jump)
        // lays out its changes and runs none, never two in a row, so a drag still moves the chart.
        const wait = acted && !waited && deferred.length > 0;
        waited = wait;
        const work = wait ? undefined : deferred.shift();
        const viewed = s.playing && wallMs > 0 && advance(wallMs * s.speed, true, viewEveryMs);
        acted = false;
        work?.();
        return viewed || work !== undefined;
      },
      advanceBy: (simMs) => void advance(simMs, false),
      seek: (ms) => {
        backend.seek(Math.min(MAX_RUN_MS, Math.max(0, ms)));
        // A jump, either way: the log shows what led up to the new moment.
        publish(true);
      },
      stepEvent: () => {
        set({ playing: false });
        backend.stepToNextEvent();
        publish();
      },
      command: (cmd) => {
        const r = backend.apply(cmd);
        set({ error: r.ok ? null : r.error });
        if (r.ok) publish();
        return r.ok;
      },
      select: (id) => set({ selected: id, menu: null }),
      openMenu: (id) => set(id === null ? { menu: null } : { selected: id, menu: id }),
      reset: (input) => {
        const r = parseExperiment(input ?? get().experiment);
        if (!r.ok) {
          set({ setupErrors: r.errors });
          return false;
        }
        // Another algorithm's code loads first (a chunk of its own); the run changes once it has,
        // unless another reset came meanwhile: the last choice wins, not the slowest to load.
        const mine = ++resets;
        if (!algorithmLoaded(r.experiment.algorithm)) {
          const title = algorithmFor(r.experiment.algorithm).title;
          set({ loadingAlgorithm: r.experiment.algorithm ?? null });
          loadAlgorithm(r.experiment.algorithm).then(
            () => mine === resets && get().reset(r.experiment),
            () =>
              mine === resets &&
              set({
                loadingAlgorithm: null,
                error: `the ${title} algorithm could not be loaded (offline?): the run is unchanged`,
              }),
          );
          return true;
        }
        backend.dispose();
        backend = makeBackend(r.experiment, []);
        // The log starts again with the new run (publish(true) rebuilds it).
        announcement = '';
        set({
          experiment: r.experiment,
          setupErrors: [],
          error: null,
          selected: null,
          menu: null,
          can: backend.can,
          backendKind: backend.kind,
          loadingAlgorithm: null,
        });
        publish(true);
        return true;
      },
      clearError: () => set({ error: null }),
    };
  });
  let clocked = false;
  const flushDeferred = () => {
    while (deferred.length) deferred.shift()?.();
  };
  // Object.assign's result type is checked against LabStore: a method left out fails to compile.
  return Object.assign(store, {
    backend: () => backend,
    frame: () => frame,
    nextFrame: (work: () => void) => {
      if (clocked) deferred.push(work);
      else work();
    },
    flushDeferred,
    setClocked: (on: boolean) => {
      clocked = on;
      if (!on) flushDeferred();
    },
    onFrame: (listener: FrameListener) => {
      frameListeners.add(listener);
      return () => frameListeners.delete(listener);
    },
    setAdvanceLimit: (l: AdvanceLimit | null) => void (limit = l),
  });
}
