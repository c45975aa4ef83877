// The lab's timeline: one Simulation plus the commands a person issued and engine checkpoints.
// Seeking back restores the nearest checkpoint and replays the recorded commands at their
// times, so any moment is reproducible from (experiment, commands). Acting after seeking back
// forks: the commands and checkpoints after that moment are dropped.
import { Simulation, parseCommand, type Checkpoint, type Command, type Experiment } from '../engine';

export interface RecordedCommand {
  atMs: number;
  command: Command;
}

export const CHECKPOINT_EVERY_MS = 10_000;
export const MAX_CHECKPOINTS = 400;
export const MAX_COMMANDS = 2_000;

export class LabEngine {
  readonly experiment: Experiment;
  sim: Simulation;
  commands: RecordedCommand[] = [];
  /** The furthest moment simulated on the current branch. */
  horizonMs = 0;
  private checkpoints: { atMs: number; cp: Checkpoint }[] = [];
  private nextCommand = 0;

  constructor(experiment: Experiment, commands: RecordedCommand[] = []) {
    this.experiment = experiment;
    this.sim = new Simulation(experiment);
    this.commands = commands.slice(0, MAX_COMMANDS).sort((a, b) => a.atMs - b.atMs);
    this.checkpoints.push({ atMs: 0, cp: this.sim.checkpoint() });
  }

  get nowMs(): number {
    return this.sim.nowMs;
  }

  /** Advance to targetMs, applying recorded commands on the way and taking checkpoints. */
  advanceTo(targetMs: number): void {
    const sim = this.sim;
    while (sim.nowMs < targetMs) {
      const cmd = this.commands[this.nextCommand];
      const nextCp = this.checkpoints[this.checkpoints.length - 1].atMs + CHECKPOINT_EVERY_MS;
      let stop = targetMs;
      if (cmd && cmd.atMs < stop) stop = cmd.atMs;
      if (nextCp < stop) stop = nextCp;
      sim.runUntil(stop);
      // A checkpoint holds the state after the events of its moment and before its commands.
      if (sim.nowMs >= nextCp) this.addCheckpoint();
      this.applyDueCommands();
    }
    this.applyDueCommands();
    if (sim.nowMs > this.horizonMs) this.horizonMs = sim.nowMs;
  }

  private applyDueCommands(): void {
    while (this.commands[this.nextCommand] && this.commands[this.nextCommand].atMs <= this.sim.nowMs) {
      this.sim.apply(this.commands[this.nextCommand].command);
      this.nextCommand++;
    }
  }

  private addCheckpoint(): void {
    this.checkpoints.push({ atMs: this.sim.nowMs, cp: this.sim.checkpoint() });
    if (this.checkpoints.length > MAX_CHECKPOINTS) {
      // Thin out: keep the first and every other one after it, so the bound holds for any run length.
      this.checkpoints = this.checkpoints.filter((_, i) => i === 0 || i % 2 === 0);
    }
  }

  /** Jump to any moment: back through a checkpoint and replay, or forward by running. */
  seek(targetMs: number): void {
    const t = Math.max(0, Math.round(targetMs));
    if (t < this.sim.nowMs) {
      let best = this.checkpoints[0];
      for (const c of this.checkpoints) if (c.atMs <= t && c.atMs >= best.atMs) best = c;
      this.sim.restore(best.cp);
      const i = this.commands.findIndex((c) => c.atMs >= best.atMs);
      this.nextCommand = i < 0 ? this.commands.length : i;
    }
    this.advanceTo(t);
  }

  /** Apply a command now; if we are behind the horizon, this forks a new future. */
  apply(command: Command): { ok: true } | { ok: false; error: string } {
    const parsed = parseCommand(command);
    if (!parsed.ok) return { ok: false, error: parsed.errors.map((e) => `${e.field}: ${e.message}`).join('; ') };
    const now = this.sim.nowMs;
    if (now < this.horizonMs || this.nextCommand < this.commands.length) {
      this.commands = this.commands.slice(0, this.nextCommand);
      // A checkpoint at this very moment was taken before this command, so it stays valid.
      this.checkpoints = this.checkpoints.filter((c) => c.atMs <= now);
      this.horizonMs = now;
    }
    if (this.commands.length >= MAX_COMMANDS) return { ok: false, error: `at most ${MAX_COMMANDS} commands per run` };
    this.commands.push({ atMs: now, command: parsed.command });
    this.nextCommand = this.commands.length;
    this.sim.apply(parsed.command);
    return { ok: true };
  }

  /** Run to the next moment something is scheduled (a step through the run). */
  stepToNextEvent(): void {
    const next = this.sim.nextEventAtMs();
    const cmd = this.commands[this.nextCommand];
    let t = next < 0 ? this.sim.nowMs + 1 : next;
    if (cmd && cmd.atMs < t) t = cmd.atMs;
    this.advanceTo(Math.max(t, this.sim.nowMs + 1));
  }

  get checkpointCount(): number {
    return this.checkpoints.length;
  }
}
