// A real run's recording opened from a trace file: the recorded events folded again by the same
// fold the live page used (LiveRecording, over src/real/fold.ts), so the stage, chain, chart,
// failover timeline and log show what the live page showed. A recording can be played, stepped,
// sped up and scrubbed anywhere within it; it takes no commands: nothing runs to apply a fault to.
import type { Sample, SimEvent, Snapshot, Trace } from '../engine';
import type { ApplyResult, BackendCapabilities, LabBackend, RecordedCommand } from './backend';
import type { RealRecord } from './liveRecordFile';
import { LiveRecording } from './liveRecording';

const RECORDING_CAN: BackendCapabilities = {
  seek: true,
  step: true,
  speed: true,
  replay: false,
  commands: [],
  switches: [],
};

export class RecordingBackend implements LabBackend {
  /** A real run's (recorded): the stage draws it as it drew the live run. */
  readonly kind = 'live';
  readonly can = RECORDING_CAN;
  readonly recording: LiveRecording;
  /** The end of the recording, in run ms. */
  readonly untilMs: number;

  /** Folds the whole recording once (a malformed one throws here, before any view reads it). */
  constructor(
    readonly record: RealRecord,
    atMs = record.untilMs,
  ) {
    this.recording = new LiveRecording(record.settings);
    for (const e of record.events) this.recording.receive(e);
    for (const k of record.keepAlives) this.recording.receiveKeepAlive(k);
    this.untilMs = Math.max(record.untilMs, this.recording.latestMs);
    this.recording.showAt(this.untilMs);
    this.seek(atMs);
  }

  get experiment() {
    return this.recording.experiment;
  }
  get nowMs(): number {
    return this.recording.nowMs;
  }
  get horizonMs(): number {
    return this.untilMs;
  }
  get commands(): readonly RecordedCommand[] {
    return this.recording.commands;
  }
  snapshot(): Snapshot {
    return this.recording.snapshot();
  }
  get events(): readonly SimEvent[] {
    return this.recording.events;
  }
  get eventsTotal(): number {
    return this.recording.eventsTotal;
  }
  eventsSince(from: number): SimEvent[] {
    return this.recording.eventsSince(from);
  }
  get samples(): readonly Sample[] {
    return this.recording.samples;
  }
  get samplesTotal(): number {
    return this.recording.samplesTotal;
  }
  samplesSince(from: number): Sample[] {
    return this.recording.samplesSince(from);
  }

  trace(): Trace {
    return this.recording.trace();
  }
  traceUntil(untilMs: number): Trace {
    return this.recording.traceUntil(Math.min(untilMs, this.untilMs));
  }
  /** The same recording, so that an export of it opens again the same way. */
  realRecord(): RealRecord {
    return this.record;
  }

  advanceTo(targetMs: number): void {
    this.recording.showAt(Math.min(targetMs, this.untilMs));
  }
  seek(targetMs: number): void {
    this.recording.showAt(Math.min(this.untilMs, Math.max(0, targetMs)));
  }
  stepToNextEvent(): void {
    const next = this.recording.nextEventAtMs();
    this.advanceTo(next < 0 ? this.untilMs : next);
  }
  apply(): ApplyResult {
    return { ok: false, error: 'a recording of a real run takes no commands: nothing runs to apply them to' };
  }
  dispose(): void {}
}
