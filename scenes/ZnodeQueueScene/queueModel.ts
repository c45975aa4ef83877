// The znode queue's rows, pure: each entry's session time left, who watches whom, who is notified now.
import type { MessageView, NodeView, QueueEntryView, QueueView } from '../../src/engine';

/** The message types that carry a watch notification (ZooKeeper's, etcd's). */
const WATCH_MESSAGES: ReadonlySet<string> = new Set(['zkWatch', 'watchEvent']);

/** A queue entry as a row: its znode or key (not its expiry: the time left is `sessionLeftMs`). */
export interface QueueRow extends Omit<QueueEntryView, 'expiresAtMs'> {
  leads: boolean;
  /** The owner is dead or paused: its entry stays until its session expires. */
  ownerDown: 'dead' | 'paused' | null;
  /** Time left before the service expires the session, in ms (0 once due); -1 if unknown. */
  sessionLeftMs: number;
  /** The row this one's owner watches, or -1. */
  watchesRow: number;
  /** A watch notification is on its way to this row's owner. */
  notified: boolean;
}

export interface QueueArrow {
  from: number;
  to: number;
}

export interface QueueModel {
  rows: QueueRow[];
  arrows: QueueArrow[];
  /** Nodes alive with no entry in the queue (connecting, or starting over after expiry). */
  outside: string[];
  notifiedNow: number;
}

export function queueModel(
  queue: QueueView,
  nodes: readonly NodeView[],
  messages: readonly MessageView[],
  nowMs: number,
): QueueModel {
  const inFlight = new Set(
    messages
      .filter((m) => WATCH_MESSAGES.has(m.type) && m.droppedAtMs === undefined && m.deliverAtMs > nowMs)
      .map((m) => m.to),
  );
  const node = new Map(nodes.map((n) => [n.id, n]));
  const rowOf = new Map(queue.entries.map((e, i) => [e.owner, i]));
  const rows: QueueRow[] = queue.entries.map(({ expiresAtMs, ...entry }, i) => {
    const n = node.get(entry.owner);
    return {
      ...entry,
      leads: i === 0,
      ownerDown: !n ? null : !n.alive ? 'dead' : n.paused ? 'paused' : null,
      sessionLeftMs: expiresAtMs < 0 ? -1 : Math.max(0, expiresAtMs - nowMs),
      watchesRow: -1,
      notified: inFlight.has(entry.owner),
    };
  });
  const arrows: QueueArrow[] = [];
  queue.entries.forEach((e, to) => {
    for (const w of e.watchers) {
      const from = rowOf.get(w);
      if (from === undefined) continue;
      rows[from].watchesRow = to;
      arrows.push({ from, to });
    }
  });
  arrows.sort((a, b) => a.from - b.from);
  const outside = nodes.filter((n) => n.alive && !n.witness && !rowOf.has(n.id)).map((n) => n.id);
  return { rows, arrows, outside, notifiedNow: inFlight.size };
}
