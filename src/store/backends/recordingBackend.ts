// A real run's recording opened from a trace file: its events folded again by the live page's fold
// (LiveRecording, over src/real/fold.ts), so every view shows what the live page showed. It can be played,
// stepped, sped up and scrubbed anywhere within it; it takes no commands: nothing runs to fault.
import type { ApplyResult, BackendCapabilities, LabBackend } from '../backend';
import type { RealRecord } from './liveRecordFile';
import { LiveRecording } from './liveRecording';
import { RecordingView } from './recordingView';

const RECORDING_CAN: BackendCapabilities = {
  seek: true,
  step: true,
  speed: true,
  replay: false,
  commands: [],
  switches: [],
};

export class RecordingBackend extends RecordingView implements LabBackend {
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
    super();
    this.recording = new LiveRecording(record.settings);
    for (const e of record.events) this.recording.receive(e);
    for (const k of record.keepAlives) this.recording.receiveKeepAlive(k);
    this.untilMs = Math.max(record.untilMs, this.recording.latestMs);
    this.recording.showAt(this.untilMs);
    this.seek(atMs);
  }

  get horizonMs(): number {
    return this.untilMs;
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
  apply(): ApplyResult {
    return { ok: false, error: 'a recording of a real run takes no commands: nothing runs to apply them to' };
  }
  dispose(): void {}
}
