// The engine logs a GC pause at its start (a fault event), not when a timed one runs out; the log tells both,
// so the end is found from the pause's event and the node's events since (a kill or resume ends it).
import type { SimEvent } from '../engine';
import { formatSeconds } from './format';

export interface PauseEnd {
  /** Place in the event stream: just after the pause's own event, so it sorts and keys uniquely. */
  index: number;
  atMs: number;
  text: string;
}

export class PauseEnds {
  private pending = new Map<string, { atMs: number; forMs: number; index: number }>();

  reset(): void {
    this.pending.clear();
  }

  /** Take account of an event, seen in stream order at `index`. */
  see(ev: SimEvent, index: number): void {
    if (ev.type !== 'fault' || ev.skipped || !ev.target) return;
    const f = ev.fault;
    if (f.do === 'pause' && f.forMs !== undefined)
      this.pending.set(ev.target, { atMs: ev.atMs + f.forMs, forMs: f.forMs, index });
    else if (f.do === 'kill' || f.do === 'resume') this.pending.delete(ev.target);
  }

  /** The pauses that ran out at or before `atMs`, earliest first (each once). */
  due(atMs: number): PauseEnd[] {
    const out: PauseEnd[] = [];
    for (const [node, p] of this.pending) {
      if (p.atMs > atMs) continue;
      this.pending.delete(node);
      out.push({
        index: p.index + 0.5,
        atMs: p.atMs,
        text: `${node}'s ${formatSeconds(p.forMs)} GC pause ended: it runs again`,
      });
    }
    return out.sort((a, b) => a.atMs - b.atMs);
  }
}
