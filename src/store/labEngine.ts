// The simulator as the lab's run backend: one Simulation plus the commands a person issued and engine
// checkpoints. Seeking back restores the nearest checkpoint and replays the commands, so any moment is
// reproducible from (experiment, commands). Acting after seeking back forks: what came after goes.
import {
  Simulation,
  commandProblems,
  formatErrors,
  parseCommand,
  type Checkpoint,
  type Command,
  type Experiment,
  type MessageLog,
  type Trace,
} from '../engine';
import {
  ALL_COMMANDS,
  SourceView,
  type ApplyResult,
  type BackendCapabilities,
  type LabBackend,
  type RecordedCommand,
} from './backend';

export type { RecordedCommand } from './backend';

type Outputs = ReturnType<Simulation['outputs']>;

const SIM_CAN: BackendCapabilities = {
  seek: true,
  step: true,
  speed: true,
  replay: true,
  commands: ALL_COMMANDS,
};

// Every 5 s of simulated time: a seek replays at most that much, and checkpoints cost memory.
export const CHECKPOINT_EVERY_MS = 5_000;
export const MAX_CHECKPOINTS = 400;
export const MAX_COMMANDS = 2_000;

export class LabEngine extends SourceView implements LabBackend {
  readonly kind = 'sim';
  readonly can = SIM_CAN;
  readonly experiment: Experiment;
  /** The simulation itself: for tests and benchmarks; views read the LabBackend interface. */
  readonly sim: Simulation;
  commands: RecordedCommand[] = [];
  /** The furthest moment simulated on the current branch. */
  horizonMs = 0;
  private checkpoints: { atMs: number; cp: Checkpoint }[] = [];
  private nextCommand = 0;
  /**
   * This branch's events and samples up to recordAtMs, kept when seeking back so that a jump forward can
   * restore a checkpoint, not re-simulate. Only the lists: the events are the simulation's own.
   */
  private record: Outputs | null = null;
  private recordAtMs = -1;

  constructor(experiment: Experiment, commands: readonly RecordedCommand[] = []) {
    super();
    this.experiment = experiment;
    this.sim = new Simulation(experiment);
    this.commands = commands.slice(0, MAX_COMMANDS).sort((a, b) => a.atMs - b.atMs);
    this.checkpoints.push({ atMs: 0, cp: this.sim.checkpoint() });
  }

  protected get source() {
    return this.sim;
  }

  /**
   * The message log the space-time diagram draws, kept only once read (a fifth of the engine's cost): the
   * first read simulates the run so far again, once (checkpoints lack it): tens of ms for ten minutes.
   */
  get messageLog(): MessageLog {
    if (!this.sim.logMessages) this.startMessageLog();
    return this.sim.messageLog;
  }

  private startMessageLog(): void {
    this.sim.logMessages = true;
    const now = this.sim.nowMs;
    this.checkpoints = this.checkpoints.slice(0, 1);
    this.record = null;
    this.recordAtMs = -1;
    if (now === 0) return;
    this.restore(this.checkpoints[0]);
    this.advanceTo(now);
  }

  /** The whole run to untilMs, replayed headless from the experiment and the recorded commands. */
  traceUntil(untilMs: number): Trace {
    const replay = new LabEngine(this.experiment, this.commands);
    replay.advanceTo(untilMs);
    return replay.trace();
  }

  dispose(): void {}

  /** Advance to targetMs, applying recorded commands on the way and taking checkpoints. */
  advanceTo(targetMs: number): void {
    const sim = this.sim;
    while (sim.nowMs < targetMs) {
      const cmd = this.commands[this.nextCommand];
      const nextCp = this.checkpoints[this.checkpoints.length - 1].atMs + CHECKPOINT_EVERY_MS;
      sim.runUntil(Math.min(targetMs, cmd ? cmd.atMs : Infinity, nextCp));
      // A checkpoint holds the state after the events of its moment and before its commands.
      if (sim.nowMs >= nextCp) this.addCheckpoint();
      this.applyDueCommands();
    }
    this.applyDueCommands();
    if (sim.nowMs > this.horizonMs) this.horizonMs = sim.nowMs;
  }

  private applyDueCommands(): void {
    while (this.commands[this.nextCommand] && this.commands[this.nextCommand].atMs <= this.sim.nowMs)
      this.sim.apply(this.commands[this.nextCommand++].command);
  }

  private addCheckpoint(): void {
    this.checkpoints.push({ atMs: this.sim.nowMs, cp: this.sim.checkpoint() });
    if (this.checkpoints.length > MAX_CHECKPOINTS) {
      // Thin out: keep the first and every other one after it, so the bound holds for any run length.
      this.checkpoints = this.checkpoints.filter((_, i) => i === 0 || i % 2 === 0);
    }
  }

  /**
   * Jump anywhere: restore the nearest earlier checkpoint, then replay commands. Back always restores;
   * forward too if a checkpoint lies before the target: restoring costs far less than simulating (busy
   * minutes take hundreds of ms). Events and samples before it come from the last step back's record.
   */
  seek(targetMs: number): void {
    const t = Math.max(0, Math.round(targetMs));
    const now = this.sim.nowMs;
    let best = this.checkpoints[0];
    for (const c of this.checkpoints) if (c.atMs <= t && c.atMs >= best.atMs) best = c;
    if (t < now) {
      this.keepRecord();
      this.restore(best);
    } else if (best.atMs > now && this.record && best.atMs <= this.recordAtMs) {
      this.restore(best, this.record);
    }
    this.advanceTo(t);
  }

  private restore(best: { atMs: number; cp: Checkpoint }, later?: Outputs): void {
    this.sim.restore(best.cp, later);
    const i = this.commands.findIndex((c) => c.atMs >= best.atMs);
    this.nextCommand = i < 0 ? this.commands.length : i;
  }

  /** Before stepping back from the furthest point reached since the last record, record it. */
  private keepRecord(): void {
    if (this.sim.nowMs <= this.recordAtMs) return;
    this.record = this.sim.outputs();
    this.recordAtMs = this.sim.nowMs;
  }

  /** Apply a command now; if we are behind the horizon, this forks a new future. */
  apply(command: Command): ApplyResult {
    const parsed = parseCommand(command);
    if (!parsed.ok) return { ok: false, error: formatErrors(parsed.errors) };
    const problems = commandProblems(this.experiment, parsed.command);
    if (problems.length) return { ok: false, error: formatErrors(problems) };
    const now = this.sim.nowMs;
    if (now < this.horizonMs || this.nextCommand < this.commands.length) {
      this.commands = this.commands.slice(0, this.nextCommand);
      // A checkpoint at this very moment was taken before this command, so it stays valid.
      this.checkpoints = this.checkpoints.filter((c) => c.atMs <= now);
      this.horizonMs = now;
      // The recorded future belonged to the branch this command just left.
      this.record = null;
      this.recordAtMs = -1;
    }
    if (this.commands.length >= MAX_COMMANDS)
      return { ok: false, error: `at most ${MAX_COMMANDS} commands per run` };
    this.commands.push({ atMs: now, command: parsed.command });
    this.nextCommand = this.commands.length;
    this.sim.apply(parsed.command);
    return { ok: true };
  }

  /** Run to the next moment something is scheduled (a step through the run). */
  stepToNextEvent(): void {
    const next = this.sim.nextEventAtMs();
    const cmd = this.commands[this.nextCommand];
    const t = Math.min(next < 0 ? this.sim.nowMs + 1 : next, cmd ? cmd.atMs : Infinity);
    this.advanceTo(Math.max(t, this.sim.nowMs + 1));
  }

  get checkpointCount(): number {
    return this.checkpoints.length;
  }
}
