// The diagram's messages from the engine's log, in the diagram's chunk (the engine loaded first has only the
// log); records kept per run by log index, as it reads the same minute ten times a second while scrolling.
import type { LoggedMessage, MessageLog, MessageRecord, MessageType, Snapshot } from '../../src/engine';
import type { RunView } from '../../src/store/backend';
import { bisector } from 'd3';

interface Made {
  generation: number;
  base: number;
  records: MessageRecord[];
}

const made = new WeakMap<RunView, Made>();

/** The first index of a log in completion order whose message completed at or after atMs. */
const bisect = bisector((m: LoggedMessage) => m.doneAtMs as number).left;

/** Endpoint numbers to names: nodes 0, 1... by the snapshot's nodes; storage -1; services -2, -3... */
function namesOf(snap: Pick<Snapshot, 'nodes' | 'services'>): (endpoint: number) => string {
  const nodes = snap.nodes.map((n) => n.id);
  const services = snap.services.map((s) => s.id);
  return (e) => (e >= 0 ? nodes[e] : e === -1 ? 'storage' : services[-e - 2]);
}

function recordsOf(
  log: MessageLog,
  first: number,
  end: number,
  name: (e: number) => string,
): MessageRecord[] {
  const from = Math.max(first, log.base);
  const to = Math.min(end, log.base + log.list.length);
  const records: MessageRecord[] = new Array(Math.max(0, to - from));
  for (let i = from; i < to; i++) {
    const m = log.list[i - log.base];
    // One shape for every record (absent fields undefined) keeps the loops on the engine's fast path.
    records[i - from] = {
      id: m.id,
      type: m.type as MessageType,
      from: name(m.from),
      to: name(m.to),
      term: m.term,
      sentAtMs: m.sentAtMs,
      doneAtMs: m.doneAtMs as number,
      dropped: m.droppedAtMs !== undefined,
      granted: m.granted,
      token: m.token,
      status: m.status,
      kind: m.kind,
    };
  }
  return records;
}

/** Messages delivered or dropped in [fromMs, toMs], oldest first (null: none recorded). `snap` names ends. */
export function messagesBetween(
  run: RunView,
  snap: Pick<Snapshot, 'nodes' | 'services'>,
  fromMs: number,
  toMs: number,
): MessageRecord[] | null {
  const log = run.messageLog;
  if (!log) return null;
  const first = log.base + bisect(log.list, fromMs);
  const end = log.base + bisect(log.list, toMs + 1);
  const name = namesOf(snap);
  let m = made.get(run);
  const madeEnd = m ? m.base + m.records.length : 0;
  if (!m || m.generation !== log.generation || first < m.base || first > madeEnd) {
    m = { generation: log.generation, base: first, records: recordsOf(log, first, end, name) };
    made.set(run, m);
    return m.records.slice();
  }
  if (end > madeEnd) for (const r of recordsOf(log, madeEnd, end, name)) m.records.push(r);
  // Keep only from the window's start on: what is kept is bounded by the window it serves.
  if (first - m.base > m.records.length / 2) {
    m.records = m.records.slice(first - m.base);
    m.base = first;
  }
  return m.records.slice(first - m.base, end - m.base);
}

/** When the retained log begins: before it, there are no messages to draw. */
export function messageLogFromMs(log: MessageLog): number {
  return log.base === 0 || log.list.length === 0 ? 0 : (log.list[0].doneAtMs as number);
}
