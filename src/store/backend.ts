// Where a lab's run comes from: the simulator (labEngine.ts) or a real cluster's event stream. Scenes, guided
// mode and export see only this interface, never the Simulation class, so a run from any source shows alike.
import type { Command, Experiment, MessageLog, Sample, SimEvent, Snapshot, Trace } from '../engine';
import type { RealRecord } from './backends/liveRecordFile';
import { EXPLORER_FAULT_KINDS } from '../explorer/schedule';

export interface RecordedCommand {
  atMs: number;
  command: Command;
}

/** What a view may read of a run. */
export interface RunView {
  readonly experiment: Experiment;
  /** The moment shown, in run milliseconds. */
  readonly nowMs: number;
  /** The furthest moment reached on the current branch of the run. */
  readonly horizonMs: number;
  /** The commands a person issued, with the moment of each. */
  readonly commands: readonly RecordedCommand[];
  snapshot(): Snapshot;
  /** The retained events (bounded: the oldest go first) and how many were ever emitted. */
  readonly events: readonly SimEvent[];
  readonly eventsTotal: number;
  /** Events with absolute index >= from (as many as are still retained). */
  eventsSince(from: number): SimEvent[];
  readonly samples: readonly Sample[];
  readonly samplesTotal: number;
  /** Delivered and dropped messages, bounded (the space-time diagram's arrows); absent: none recorded. */
  readonly messageLog?: MessageLog;
  trace(): Trace;
  /** The trace to untilMs, alike for every caller: replayed by the simulator; a recording's as held. */
  traceUntil(untilMs: number): Trace;
  /** A real run's recording: a trace file carries it to reopen as such (liveRecordFile.ts); a sim: none. */
  realRecord?(): RealRecord;
}

/** What a backend can do; the controls hide what it cannot. */
export interface BackendCapabilities {
  /** Jump anywhere along the timeline (a recording: only back, within what it holds). */
  seek: boolean;
  step: boolean;
  /** Run faster or slower than real time. */
  speed: boolean;
  /** Replay the same run from its experiment and commands. */
  replay: boolean;
  commands: readonly Command['do'][];
  /** The safety switches it can flip now; absent: every switch the run's algorithm has. */
  switches?: readonly (keyof Experiment['safety'])[];
}

/** What a run's source gives as it is: the simulation, or a real run's recording. */
type RunSource = Pick<
  RunView,
  'nowMs' | 'snapshot' | 'events' | 'eventsTotal' | 'eventsSince' | 'samples' | 'samplesTotal'
> & { trace(): Trace };

/** The part of a RunView a backend reads straight from its source. */
export abstract class SourceView {
  protected abstract readonly source: RunSource;

  get nowMs(): number {
    return this.source.nowMs;
  }
  snapshot(): Snapshot {
    return this.source.snapshot();
  }
  get events(): readonly SimEvent[] {
    return this.source.events;
  }
  get eventsTotal(): number {
    return this.source.eventsTotal;
  }
  eventsSince(from: number): SimEvent[] {
    return this.source.eventsSince(from);
  }
  get samples(): readonly Sample[] {
    return this.source.samples;
  }
  get samplesTotal(): number {
    return this.source.samplesTotal;
  }
  trace(): Trace {
    return this.source.trace();
  }
}

export type ApplyResult = { ok: true } | { ok: false; error: string };

export interface LabBackend extends RunView {
  readonly kind: 'sim' | 'live';
  readonly can: BackendCapabilities;
  /** Move the run forward to targetMs (simulate, or fold in what has arrived). */
  advanceTo(targetMs: number): void;
  /** Apply a command now; behind the horizon, this forks a new future (the simulator). */
  apply(command: Command): ApplyResult;
  /** Show any moment the backend can reach. */
  seek(targetMs: number): void;
  /** Run to the next moment something is scheduled. */
  stepToNextEvent(): void;
  /** Release what the backend holds (connections, workers). */
  dispose(): void;
}

/** What a person can do to a simulated run: the explorer's faults but a graceful stop, and these two. */
export const ALL_COMMANDS: readonly Command['do'][] = [
  ...EXPLORER_FAULT_KINDS.filter((k) => k !== 'stop'),
  'write',
  'safety',
];
