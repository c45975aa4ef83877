// What a real run's backend reads from its recording, the same whether the run is live (the
// bridge streams it) or was opened from a trace file: the experiment, the moment shown, its
// snapshot, events, samples and trace, all from the LiveRecording that folds the run's events.
// A subclass says how far the run goes (horizonMs) and how time moves.
import type { Sample, SimEvent, Snapshot, Trace } from '../../engine';
import type { RecordedCommand } from '../backend';
import type { LiveRecording } from './liveRecording';

export abstract class RecordingView {
  abstract readonly recording: LiveRecording;
  /** How far the run can be shown, in run ms. */
  abstract get horizonMs(): number;

  get experiment() {
    return this.recording.experiment;
  }
  get nowMs(): number {
    return this.recording.nowMs;
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
  /** What was recorded up to untilMs (a recording cannot give more than it holds). */
  traceUntil(untilMs: number): Trace {
    return this.recording.traceUntil(Math.min(untilMs, this.horizonMs));
  }
}
