// A real run as a backend: the bridge of `npm run lab:real` streams its events, the recording folds them into
// the simulator's snapshot, events and samples, and commands go back with the run's token. Time runs at wall
// speed: the moment shown follows the run's clock, never ahead; scrubbing goes back within the recording, and
// playing from there catches up at wall speed. No clock rates, stepping, seeking past now or replay.
import type { KeepAliveReport, RealEvent } from '../../real/model/events';
import type { RunSettings } from '../../real/model/settings';
import { toRealCommand, VERBS } from '../../real/model/commands';
import type { ApplyResult, BackendCapabilities, LabBackend } from '../backend';
import { LiveRecording } from './liveRecording';
import { RecordingView } from './recordingView';
import { realRecordOf, type RealRecord } from './liveRecordFile';
import type { RealLink } from './liveParams';

/** A seek this close to the run's now (a timeline dragged to its end) follows the run again. */
const FOLLOW_WITHIN_MS = 1000;

export type LiveStatus = 'connecting' | 'live' | 'reconnecting' | 'ended';

/** What the bridge answered to GET /capabilities (the fields the page reads). */
export interface BridgeCapabilities {
  backend: 'real';
  commands: string[];
  settings: RunSettings;
  notForReal: Record<string, string>;
}

export interface LiveOptions {
  /** The wall clock, in epoch ms. */
  now?: () => number;
  EventSource?: typeof EventSource;
  fetch?: typeof fetch;
}

export class LiveBackend extends RecordingView implements LabBackend {
  readonly kind = 'live';
  readonly can: BackendCapabilities;
  readonly recording: LiveRecording;
  status: LiveStatus = 'connecting';
  /** Showing the run's now, as opposed to a moment scrubbed back to. */
  private following = true;
  private stream: EventSource | null = null;
  private readonly listeners = new Set<() => void>();
  private readonly problems = new Set<(message: string) => void>();

  constructor(
    readonly link: RealLink,
    readonly capabilities: BridgeCapabilities,
    /** The run's start on the wall clock: the run's times are ms since it. */
    readonly runStartEpochMs: number,
    private readonly opts: LiveOptions = {},
  ) {
    super();
    this.recording = new LiveRecording(capabilities.settings);
    this.can = {
      seek: true,
      step: false,
      speed: false,
      replay: false,
      commands: VERBS.filter((c) => capabilities.commands.includes(c)),
      // Fencing is the storage's check; the others are etcd's own or its start-up flags.
      switches: ['fencing'],
    };
  }

  /** The run's clock now: how far the recording can be shown. */
  liveNowMs(): number {
    return Math.max(0, (this.opts.now ?? Date.now)() - this.runStartEpochMs);
  }

  /** Open the event stream; it reconnects by itself, from the last event it had. */
  connect(): void {
    if (this.stream) return;
    const url = `${this.link.url}/events?token=${encodeURIComponent(this.link.token)}`;
    const source = new (this.opts.EventSource ?? EventSource)(url);
    this.stream = source;
    source.onopen = () => this.setStatus('live');
    source.onmessage = (m: MessageEvent<string>) => this.recording.receive(JSON.parse(m.data) as RealEvent);
    source.addEventListener('keepAlive', (m) =>
      this.recording.receiveKeepAlive(JSON.parse((m as MessageEvent<string>).data) as KeepAliveReport),
    );
    source.onerror = () => {
      // A closed stream that does not come back is a run that ended (Ctrl-C in its terminal).
      this.setStatus(source.readyState === source.CLOSED ? 'ended' : 'reconnecting');
    };
  }

  private setStatus(s: LiveStatus): void {
    if (this.status === s) return;
    this.status = s;
    for (const fn of this.listeners) fn();
  }

  onStatus(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** A command the bridge refused or could not be sent: shown where the page shows errors. */
  onProblem(fn: (message: string) => void): () => void {
    this.problems.add(fn);
    return () => this.problems.delete(fn);
  }

  get horizonMs(): number {
    return Math.max(this.recording.nowMs, this.liveNowMs());
  }
  /** The recording as a trace file carries it, to be opened again as the recording it is. */
  realRecord(): RealRecord {
    return realRecordOf(this.recording, this.capabilities.settings, this.runStartEpochMs, this.horizonMs);
  }

  /** Follow the run at its now (a late page shows the present), or at wall speed from a scrubbed moment. */
  advanceTo(targetMs: number): void {
    const live = this.liveNowMs();
    this.recording.showAt(this.following ? live : Math.min(targetMs, live));
    if (this.recording.nowMs >= live) this.following = true;
  }

  /** Back within the recording, or forward up to the run's now (which follows it again); never past it. */
  seek(targetMs: number): void {
    const live = this.liveNowMs();
    this.following = targetMs >= live - FOLLOW_WITHIN_MS;
    this.recording.showAt(this.following ? live : Math.max(targetMs, this.recording.earliestMs));
  }

  /** Send a command to the real run, now; its result arrives as a fault event, a refusal via onProblem. */
  apply(cmd: Parameters<LabBackend['apply']>[0]): ApplyResult {
    const real = toRealCommand(cmd);
    if (!real.ok) return { ok: false, error: real.error };
    if (this.status === 'ended') return { ok: false, error: 'the real run has ended' };
    this.following = true;
    this.advanceTo(this.liveNowMs());
    void this.send(real.command);
    return { ok: true };
  }

  private async send(command: unknown): Promise<void> {
    try {
      const res = await (this.opts.fetch ?? fetch)(`${this.link.url}/command`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.link.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(command),
      });
      if (res.ok) return;
      const body = (await res.json().catch(() => ({}))) as { error?: string; message?: string };
      this.problem(`the real run refused the command: ${body.error ?? res.status}: ${body.message ?? ''}`);
    } catch (err) {
      this.problem(`the real run could not be reached: ${(err as Error).message}`);
    }
  }

  private problem(message: string): void {
    for (const fn of this.problems) fn(message);
  }

  dispose(): void {
    this.stream?.close();
    this.stream = null;
    this.listeners.clear();
    this.problems.clear();
  }
}
