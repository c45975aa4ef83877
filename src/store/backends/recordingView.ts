// What a real run's backend reads from its recording, live (the bridge streams it) or opened from a trace
// file: the experiment, the moment shown, its snapshot, events, samples and trace, all from the LiveRecording
// folding the run's events. A subclass says how far the run goes (horizonMs) and how time moves (advanceTo).
import type { Trace } from '../../engine';
import { SourceView, type RecordedCommand } from '../backend';
import type { LiveRecording } from './liveRecording';

export abstract class RecordingView extends SourceView {
  abstract readonly recording: LiveRecording;
  /** How far the run can be shown, in run ms. */
  abstract get horizonMs(): number;
  abstract advanceTo(targetMs: number): void;

  protected get source() {
    return this.recording;
  }
  get experiment() {
    return this.recording.experiment;
  }
  get commands(): readonly RecordedCommand[] {
    return this.recording.commands;
  }
  /** What was recorded up to untilMs (a recording cannot give more than it holds). */
  traceUntil(untilMs: number): Trace {
    return this.recording.traceUntil(Math.min(untilMs, this.horizonMs));
  }
  /** To the next recorded event (only as far as the run has come). */
  stepToNextEvent(): void {
    const next = this.recording.nextEventAtMs();
    this.advanceTo(next < 0 ? this.horizonMs : next);
  }
}
