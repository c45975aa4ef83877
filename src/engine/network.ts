// The network: who can reach whom under the current partition, and sending. Endpoints are the nodes
// (0, 1, ...) and the services (storage -1, then -2, -3, ...). A service in no group of a partition
// is reachable from all of them, except an isolated endpoint's: isolating a node cuts it off from its
// API server or store too. Storage stays reachable unless grouped: a zombie's writes must reach it.
import { nextInt, type RngState } from './rng';
import { K, schedule, type Core, type Message } from './core';

export const STORAGE = -1;

/** Every field, in one order, whatever the type: hot paths then see one object shape and stay fast. */
function blankMessage(): Message {
  return {
    id: 0,
    type: 'write',
    from: 0,
    to: 0,
    term: 0,
    sentAtMs: 0,
    deliverAtMs: 0,
    granted: undefined,
    token: undefined,
    round: undefined,
    kind: undefined,
    client: undefined,
    maxTokenSeen: undefined,
    status: undefined,
    body: undefined,
    droppedAtMs: undefined,
    doneAtMs: undefined,
  };
}

/**
 * Delivered messages kept nowhere, for send to fill in again (after queue entries, a run's most
 * frequent allocation). Shared by every simulation: a message joins only once it was handled.
 */
const spareMessages: Message[] = [];
const MAX_SPARE_MESSAGES = 4096;

export function recycleMessage(m: Message): void {
  if (spareMessages.length >= MAX_SPARE_MESSAGES) return;
  m.granted = undefined;
  m.token = undefined;
  m.round = undefined;
  m.kind = undefined;
  m.client = undefined;
  m.maxTokenSeen = undefined;
  m.status = undefined;
  m.body = undefined;
  m.droppedAtMs = undefined;
  m.doneAtMs = undefined;
  spareMessages.push(m);
}

function groupOf(c: Core, endpoint: number, g: number[]): number {
  return endpoint >= 0 ? g[endpoint] : c.services[-endpoint - 1].group;
}

export function canReach(c: Core, a: number, b: number): boolean {
  const g = c.groupOf;
  if (g === null) return true;
  const ga = groupOf(c, a, g);
  const gb = groupOf(c, b, g);
  if (ga === -1) return gb === -1 || a === STORAGE || !c.isolatedGroups.includes(gb);
  if (gb === -1) return b === STORAGE || !c.isolatedGroups.includes(ga);
  return ga === gb;
}

/** Send a message after the network's delay; the caller fills in its type's fields (it arrives later). */
export function send(
  c: Core,
  from: number,
  to: number,
  type: Message['type'],
  term: number,
  rng: RngState = c.rngNet,
): Message {
  const delay = nextInt(rng, c.e.network.delayMsMin, c.e.network.delayMsMax);
  const m = spareMessages.pop() ?? blankMessage();
  m.id = ++c.msgSeq;
  m.type = type;
  m.from = from;
  m.to = to;
  m.term = term;
  m.sentAtMs = c.nowMs;
  m.deliverAtMs = c.nowMs + delay;
  c.sent.set(type, (c.sent.get(type) ?? 0) + 1);
  schedule(c, m.deliverAtMs, K.deliver, to, 0, m);
  return m;
}

/**
 * A client's write to node `to`, queued as an event (the client in `gen`), not a Message: clients send
 * thousands a simulated second, none drawn. It still takes a message id, so drawn messages keep
 * theirs, and its delays come from a stream of its own, so adding clients leaves the nodes' alone.
 */
export function sendClientWrite(c: Core, to: number, client: number): void {
  const delay = nextInt(c.rngClientNet, c.e.network.delayMsMin, c.e.network.delayMsMax);
  ++c.msgSeq;
  schedule(c, c.nowMs + delay, K.clientWrite, to, client);
}

/** Group the endpoints (unnamed nodes form one more; unnamed services reach all); `isolated`: cut off. */
export function setGroups(
  c: Core,
  groups: string[][],
  idxOf: (id: string) => number,
  isolated: string[] = [],
): void {
  const nodeGroup = c.nodes.map(() => groups.length);
  for (const s of c.services) s.group = -1;
  groups.forEach((g, gi) =>
    g.forEach((id) => {
      const i = idxOf(id);
      if (i < 0) c.services[-i - 1].group = gi;
      else if (i < c.nodes.length) nodeGroup[i] = gi;
    }),
  );
  c.groupOf = nodeGroup;
  c.isolatedGroups = groups.flatMap((g, gi) => (g.length === 1 && isolated.includes(g[0]) ? [gi] : []));
  const rest = c.nodes.filter((n) => nodeGroup[n.idx] === groups.length).map((n) => n.id);
  c.partition = rest.length ? [...groups.map((g) => [...g]), rest] : groups.map((g) => [...g]);
}

export function heal(c: Core): void {
  c.groupOf = null;
  c.isolatedGroups = [];
  for (const s of c.services) s.group = -1;
  c.partition = null;
}
