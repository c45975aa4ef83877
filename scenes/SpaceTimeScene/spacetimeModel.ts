// The space-time (Lamport) diagram as plain data: lanes, message arrows, roles, epochs, pauses, deaths,
// partitions, storage's verdicts. Pure, of a window (never the whole run): a test draws it from a fixed run.
import {
  MESSAGE_FAMILIES,
  type MessageKindInfo,
  type MessageRecord,
  type MessageType,
  type MessageView,
  type NodeView,
  type Role,
  type SimEvent,
  type Snapshot,
} from '../../src/engine';

export type Family = MessageKindInfo['family'];

/** The families in the order the filter and the key list them. */
export const FAMILIES: readonly Family[] = MESSAGE_FAMILIES;

/** Storage's own traffic, under every algorithm. */
const STORAGE_KINDS: readonly MessageKindInfo[] = [
  { type: 'write', label: 'write (token)', family: 'write', election: false },
  { type: 'writeRejected', label: 'write rejected', family: 'reject', election: false },
];

export function kindTable(algorithmKinds: readonly MessageKindInfo[]): Map<MessageType, MessageKindInfo> {
  return new Map([...algorithmKinds, ...STORAGE_KINDS].map((k) => [k.type, k]));
}

export interface Lane {
  id: string;
  label: string;
  kind: 'node' | 'storage' | 'service';
}

/** A message drawn as itself: its record (doneAtMs: for one still in flight, when it is due). */
export interface Arrow extends Omit<MessageRecord, 'status'> {
  family: Family;
  label: string;
  inFlight: boolean;
}

/** Messages of one routine kind between two lanes, too dense to draw apart: drawn as one band. */
export interface Band {
  key: string;
  family: Family;
  label: string;
  from: string;
  to: string;
  firstSentAtMs: number;
  lastSentAtMs: number;
  firstDoneAtMs: number;
  lastDoneAtMs: number;
  count: number;
  /** How many of them are still on their way. */
  inFlight: number;
  dropped: boolean;
}

export interface Span {
  lane: string;
  startMs: number;
  endMs: number;
  state: 'follower' | 'candidate' | 'leader' | 'dead' | 'paused';
  /** The epoch the node held (-1 when not known). */
  term: number;
}

export interface Mark {
  key: string;
  lane: string;
  atMs: number;
  kind: 'fault' | 'accepted' | 'rejected' | 'elected';
  text: string;
  /** Whether the view writes the text beside it (a run of accepted writes names its token once). */
  labelled: boolean;
}

export interface PartitionSpan {
  startMs: number;
  endMs: number;
  groups: string[][];
}

export interface SpacetimeInput {
  nowMs: number;
  windowMs: number;
  nodes: readonly NodeView[];
  services: Snapshot['services'];
  partition: Snapshot['partition'];
  /** Messages delivered or dropped within the window. */
  records: readonly MessageRecord[];
  /** The snapshot's messages: those in flight are drawn up to now. */
  inFlight: readonly MessageView[];
  /** Events within the window, oldest first. */
  events: readonly SimEvent[];
  /** The cut just before the window (earlier events): its groups, null if whole; absent if those are gone. */
  partitionBefore?: string[][] | null;
  kinds: ReadonlyMap<MessageType, MessageKindInfo>;
  /** Pixels per simulated millisecond along the time axis: decides what would overlap. */
  pxPerMs: number;
  hiddenFamilies?: ReadonlySet<Family>;
  hiddenLanes?: ReadonlySet<string>;
}

export interface Spacetime {
  fromMs: number;
  toMs: number;
  nowMs: number;
  lanes: Lane[];
  arrows: Arrow[];
  bands: Band[];
  spans: Span[];
  marks: Mark[];
  partitions: PartitionSpan[];
}

/** Closer than this in time, two routine messages' lines run side by side and a pointer can't pick one. */
export const OVERLAP_PX = 10;
/** A band breaks where its messages pause for longer than this many pixels. */
const BAND_GAP_PX = 14;
const MIN_BAND = 3;

export function windowOf(nowMs: number, windowMs: number): { fromMs: number; toMs: number } {
  const toMs = Math.max(nowMs, windowMs);
  return { fromMs: toMs - windowMs, toMs };
}

export function buildSpacetime(input: SpacetimeInput): Spacetime {
  const { nowMs, kinds, pxPerMs } = input;
  const { fromMs, toMs } = windowOf(nowMs, input.windowMs);
  const hiddenF = input.hiddenFamilies ?? new Set<Family>();
  const hiddenL = input.hiddenLanes ?? new Set<string>();
  const lanes: Lane[] = [
    ...input.nodes.map((n) => ({ id: n.id, label: n.witness ? 'witness' : n.id, kind: 'node' as const })),
    { id: 'storage', label: 'storage', kind: 'storage' as const },
    ...input.services.map((s) => ({ id: s.id, label: s.label, kind: 'service' as const })),
  ].filter((l) => !hiddenL.has(l.id));
  const shown = new Set(lanes.map((l) => l.id));

  type Msg = MessageRecord | MessageView;
  const doneOf = (m: Msg) => ('doneAtMs' in m ? m.doneAtMs : m.deliverAtMs);
  const droppedOf = (m: Msg) => ('dropped' in m ? m.dropped : m.droppedAtMs !== undefined);
  const toArrow = (m: Msg, family: Family, inFlight: boolean): Arrow => {
    const a: Arrow = {
      id: m.id,
      type: m.type,
      family,
      label: kinds.get(m.type)?.label ?? m.type,
      from: m.from,
      to: m.to,
      term: m.term,
      sentAtMs: m.sentAtMs,
      doneAtMs: doneOf(m),
      dropped: droppedOf(m),
      inFlight,
    };
    if (m.token !== undefined) a.token = m.token;
    if (m.granted !== undefined) a.granted = m.granted;
    if ('kind' in m && m.kind !== undefined) a.kind = m.kind;
    return a;
  };

  // Routine traffic (heartbeats, answers, leaders' and clients' writes) is grouped by sender, receiver,
  // kind and fate, no arrow each (a busy minute is tens of thousands): closer than OVERLAP_PX, bands.
  const arrows: Arrow[] = [];
  const groups = new Map<string, Map<string, Map<string, { family: Family; list: Msg[] }>>>();
  // A write in flight does not say its kind: it joins its sender's routine stream, if any, else stands alone.
  const writesInFlight: MessageView[] = [];
  const take = (m: Msg, inFlight: boolean) => {
    const family: Family = kinds.get(m.type)?.family ?? 'announce';
    if (hiddenF.has(family) || !shown.has(m.from) || !shown.has(m.to)) return;
    if (m.type === 'write' && !('doneAtMs' in m)) {
      writesInFlight.push(m);
      return;
    }
    const isRoutine =
      family === 'heartbeat' ||
      family === 'ack' ||
      (m.type === 'write' && 'kind' in m && (m.kind === 'leader' || m.kind === 'client'));
    if (!isRoutine) {
      arrows.push(toArrow(m, family, inFlight));
      return;
    }
    let byTo = groups.get(m.from);
    if (!byTo) groups.set(m.from, (byTo = new Map()));
    let byType = byTo.get(m.to);
    if (!byType) byTo.set(m.to, (byType = new Map()));
    const key = droppedOf(m) ? `${m.type} lost` : m.type;
    let g = byType.get(key);
    if (!g) byType.set(key, (g = { family, list: [] }));
    g.list.push(m);
  };
  for (const r of input.records) if (r.doneAtMs >= fromMs && r.doneAtMs <= nowMs) take(r, false);
  const inFlightIds = new Set<number>();
  for (const m of input.inFlight) {
    // Lost ones are in the log already; what is left is still on its way.
    if (m.droppedAtMs !== undefined || m.sentAtMs > nowMs) continue;
    inFlightIds.add(m.id);
    take(m, true);
  }
  for (const m of writesInFlight) {
    const g = groups.get(m.from)?.get(m.to)?.get('write');
    if (g) g.list.push(m);
    else arrows.push(toArrow(m, 'write', true));
  }

  const bands: Band[] = [];
  const overlapMs = OVERLAP_PX / pxPerMs;
  const gapMs = BAND_GAP_PX / pxPerMs;
  for (const byTo of groups.values())
    for (const byType of byTo.values())
      for (const [key, g] of byType) {
        const list = g.list;
        // The log is in completion order: neighbours there are neighbours on the diagram.
        let dense = false;
        for (let i = 1; i < list.length && !dense; i++)
          dense = doneOf(list[i]) - doneOf(list[i - 1]) < overlapMs;
        if (!dense) {
          for (const m of list) arrows.push(toArrow(m, g.family, inFlightIds.has(m.id)));
          continue;
        }
        let band: Band | null = null;
        let first = 0;
        // A band of one or two is no band: those few are drawn as themselves.
        const settle = (end: number) => {
          if (band && band.count < MIN_BAND) {
            bands.pop();
            for (let i = first; i < end; i++)
              arrows.push(toArrow(list[i], g.family, inFlightIds.has(list[i].id)));
          }
        };
        for (let i = 0; i < list.length; i++) {
          const m = list[i];
          const done = doneOf(m);
          if (band && done - band.lastDoneAtMs <= gapMs) {
            band.firstSentAtMs = Math.min(band.firstSentAtMs, m.sentAtMs);
            band.lastSentAtMs = Math.max(band.lastSentAtMs, m.sentAtMs);
            band.lastDoneAtMs = Math.max(band.lastDoneAtMs, done);
            band.count++;
            if (inFlightIds.has(m.id)) band.inFlight++;
            continue;
          }
          settle(i);
          first = i;
          band = {
            // The first band is cut by the window's start as it scrolls: a fixed key keeps its element.
            key: `${m.from}>${m.to}>${key}@${first === 0 ? 'start' : m.sentAtMs}`,
            family: g.family,
            label: kinds.get(m.type)?.label ?? m.type,
            from: m.from,
            to: m.to,
            firstSentAtMs: m.sentAtMs,
            lastSentAtMs: m.sentAtMs,
            firstDoneAtMs: done,
            lastDoneAtMs: done,
            count: 1,
            inFlight: inFlightIds.has(m.id) ? 1 : 0,
            dropped: droppedOf(m),
          };
          bands.push(band);
        }
        settle(list.length);
      }
  arrows.sort((a, b) => a.sentAtMs - b.sentAtMs || a.id - b.id);

  const { spans, marks } = laneHistory(input, fromMs, shown, overlapMs);
  return {
    fromMs,
    toMs,
    nowMs,
    lanes,
    arrows,
    bands,
    spans,
    marks,
    partitions: partitionSpans(input, fromMs),
  };
}

interface LaneState {
  role: Role;
  term: number;
  alive: boolean;
  paused: boolean;
}

const stateOf = (s: LaneState): Span['state'] => (!s.alive ? 'dead' : s.paused ? 'paused' : s.role);

type Change = [before: Partial<LaneState>, after: Partial<LaneState>];

/** What the faults that change a node's state make of it: what it was just before, and just after. */
const FAULT_CHANGE: Partial<Record<string, Change>> = {
  kill: [{ alive: true }, { alive: false, role: 'follower' }],
  stop: [{ alive: true }, { alive: false, role: 'follower' }],
  restart: [{ alive: false }, { alive: true, paused: false, role: 'follower' }],
  pause: [{ paused: false }, { paused: true }],
  resume: [{ paused: true }, { paused: false }],
};

/** The events that change a node's role: its role just before, and just after. */
const ROLE_CHANGE = {
  campaign: ['follower', 'candidate'],
  elected: ['candidate', 'leader'],
  steppedDown: ['leader', 'follower'],
} as const;

const isRoleChange = (ev: SimEvent): ev is Extract<SimEvent, { type: keyof typeof ROLE_CHANGE }> =>
  ev.type in ROLE_CHANGE;

/** How `ev` changes its node's state: what it was just before (walking back), and just after. */
function changeOf(ev: SimEvent): Change | undefined {
  if (isRoleChange(ev)) {
    const [before, after] = ROLE_CHANGE[ev.type];
    // Before a campaign (not a pre-vote's) the node held an earlier epoch, which one unknown.
    const termBefore = ev.type === 'campaign' && !ev.preVote ? -1 : ev.term;
    return [
      { role: before, term: termBefore },
      { role: after, term: ev.term },
    ];
  }
  if (ev.type === 'resumed') return FAULT_CHANGE.resume;
  return ev.type === 'fault' ? FAULT_CHANGE[ev.fault.do] : undefined;
}

function laneOf(ev: SimEvent): string | null {
  if (isRoleChange(ev) || ev.type === 'resumed') return ev.node;
  if (ev.type === 'write') return 'storage';
  return ev.type === 'fault' && !ev.skipped ? (ev.target ?? null) : null;
}

const FAULT_TEXT: Partial<Record<string, string>> = {
  kill: 'killed',
  stop: 'stopped',
  restart: 'restarted',
  pause: 'paused',
  resume: 'resumed',
  isolate: 'isolated',
  clockRate: 'clock rate',
  campaign: 'campaign',
  write: 'manual write',
};

/**
 * Each lane's states over the window (walked back from the snapshot, then forward through the events) and
 * its marks: faults, elections, storage's verdicts (overlapping accepted writes left to the write bands).
 */
function laneHistory(
  input: SpacetimeInput,
  fromMs: number,
  shown: ReadonlySet<string>,
  overlapMs: number,
): { spans: Span[]; marks: Mark[] } {
  const { events, nowMs } = input;
  const spans: Span[] = [];
  const marks: Mark[] = [];
  const states = new Map<string, LaneState>();
  for (const n of input.nodes)
    states.set(n.id, { role: n.role, term: n.term, alive: n.alive, paused: n.paused });
  for (const s of input.services)
    states.set(s.id, { role: 'follower', term: -1, alive: s.alive, paused: false });
  for (let i = events.length - 1; i >= 0; i--) {
    const lane = laneOf(events[i]);
    const s = lane ? states.get(lane) : undefined;
    if (lane && s) states.set(lane, { ...s, ...changeOf(events[i])?.[0] });
  }
  const since = new Map<string, number>([...states.keys()].map((id) => [id, fromMs]));
  const close = (lane: string, atMs: number, s: LaneState) => {
    const start = since.get(lane) as number;
    if (atMs > start && shown.has(lane))
      spans.push({ lane, startMs: start, endMs: atMs, state: stateOf(s), term: s.term });
    since.set(lane, atMs);
  };
  // Keys from what a mark is and when, not its place in the list, so its element lasts while in view.
  const keysSeen = new Map<string, number>();
  const markKey = (what: string, atMs: number): string => {
    const k = `${what}@${atMs}`;
    const n = keysSeen.get(k) ?? 0;
    keysSeen.set(k, n + 1);
    return n ? `${k}#${n}` : k;
  };
  const mark = (key: string, lane: string, ev: SimEvent, kind: Mark['kind'], text: string, labelled = true) =>
    marks.push({ key: markKey(key, ev.atMs), lane, atMs: ev.atMs, kind, text, labelled });
  let lastBucket = -1;
  let lastToken = -1;
  events.forEach((ev) => {
    const lane = laneOf(ev);
    if (!lane || !shown.has(lane)) return;
    if (ev.type === 'write') {
      if (ev.result === 'rejected') {
        mark(`w${ev.token}`, lane, ev, 'rejected', `rejected ${ev.token} < ${ev.maxTokenSeen}`);
        return;
      }
      // Routine writes that would overlap are left to their arrows' band; a claim, a manual write,
      // a stale write and the first write of each token are always marked, and named.
      const routineWrite = ev.kind === 'leader' || ev.kind === 'client';
      const named = ev.token !== lastToken || ev.stale || !routineWrite;
      lastToken = ev.token;
      // One unnamed mark per overlapMs, on a grid fixed in time, so marks stay put as the window scrolls.
      const bucket = Math.floor(ev.atMs / overlapMs);
      if (named || bucket !== lastBucket) {
        lastBucket = bucket;
        mark(
          `w${ev.token}`,
          lane,
          ev,
          'accepted',
          `accepted ${ev.token}${ev.stale ? ' (stale)' : ''}`,
          named,
        );
      }
      return;
    }
    const s = states.get(lane);
    if (!s) return;
    const next = { ...s, ...changeOf(ev)?.[1] };
    if (stateOf(next) !== stateOf(s) || next.term !== s.term) {
      close(lane, ev.atMs, s);
      states.set(lane, next);
    }
    if (ev.type === 'fault') mark(`f${lane}`, lane, ev, 'fault', FAULT_TEXT[ev.fault.do] ?? ev.fault.do);
    else if (ev.type === 'elected') mark(`e${lane}`, lane, ev, 'elected', `elected ${ev.term}`);
  });
  for (const [lane, s] of states) close(lane, Math.max(nowMs, fromMs), s);
  return { spans, marks };
}

/** A partition, isolation or heal that took place. */
export function isCut(ev: SimEvent): ev is Extract<SimEvent, { type: 'fault' }> {
  return ev.type === 'fault' && !ev.skipped && ['partition', 'heal', 'isolate'].includes(ev.fault.do);
}

/** How a partition, isolation or heal left the network: its groups, or null (whole). */
export function groupsAfterCut(ev: Extract<SimEvent, { type: 'fault' }>): string[][] | null {
  if (ev.fault.do === 'heal') return null;
  if (ev.fault.do === 'partition') return ev.fault.groups.map((g) => [...g]);
  return [[ev.target ?? '?'], ['others']];
}

/** The window's partitions: walked back from the snapshot's, then forward through the events. */
function partitionSpans(input: SpacetimeInput, fromMs: number): PartitionSpan[] {
  const cuts = input.events.filter(isCut);
  // Before the window's first cut the network was as earlier events left it; when they are gone, as the
  // first cut found it (cut, if it heals; groups unknown), or as it is now if the window has no cut.
  let current: string[][] | null =
    input.partitionBefore !== undefined
      ? input.partitionBefore
      : cuts.length === 0
        ? input.partition
        : cuts[0].fault.do === 'heal'
          ? (input.partition ?? [['?']])
          : null;
  let since = fromMs;
  const spans: PartitionSpan[] = [];
  for (const ev of cuts) {
    if (current && ev.atMs > since) spans.push({ startMs: since, endMs: ev.atMs, groups: current });
    current = groupsAfterCut(ev);
    since = ev.atMs;
  }
  if (current && input.nowMs > since) spans.push({ startMs: since, endMs: input.nowMs, groups: current });
  return spans;
}
