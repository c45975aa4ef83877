// A hand-driven clock for the candidate's state machine. Timers belong to domains (one per
// candidate process, one for etcd); pausing a domain freezes its timers while time goes on,
// and on resume its overdue timers fire in the order they were due: what SIGSTOP and SIGCONT
// do to a real process's timers.
import type { Clock } from '../../../src/real/candidate/candidateCore';

interface Timer {
  id: number;
  atMs: number;
  domain: string;
  fn: () => void;
}

export class ManualClock {
  nowMs = 0;
  private timers: Timer[] = [];
  private nextId = 1;
  private readonly paused = new Set<string>();

  view(domain: string): Clock {
    return {
      now: () => this.nowMs,
      setTimeout: (fn, ms) => {
        const t = { id: this.nextId++, atMs: this.nowMs + Math.max(0, ms), domain, fn };
        this.timers.push(t);
        return t.id;
      },
      clearTimeout: (id) => {
        this.timers = this.timers.filter((t) => t.id !== id);
      },
    };
  }

  pause(domain: string): void {
    this.paused.add(domain);
  }

  resume(domain: string): void {
    this.paused.delete(domain);
  }

  /** Let promise callbacks (the fake gateway's answers) run. */
  private async settle(): Promise<void> {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  }

  /** Advance time by ms, firing every due timer of a running domain in due order. */
  async advance(ms: number): Promise<void> {
    const until = this.nowMs + ms;
    await this.settle();
    for (;;) {
      const due = this.timers
        .filter((t) => t.atMs <= until && !this.paused.has(t.domain))
        .sort((a, b) => a.atMs - b.atMs || a.id - b.id)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.nowMs = Math.max(this.nowMs, due.atMs);
      due.fn();
      await this.settle();
    }
    this.nowMs = until;
  }
}
