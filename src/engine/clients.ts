// The clients resolve the leader like DNS (one record naming the latest leader, cached per client)
// and send each write to the node they cached; a non-leader rejects it with a redirect hint. A
// client retries at each tick until a leader serves it (the lesson's "retry with backoff ... and
// tolerate the window", without the backoff), so writes caught in a failover carry its length.
import { emit, type Core, type NodeState, type Outputs } from './core';
import { noteClientWrite } from './ledger';
import type { SimEvent } from './types';
import { sendClientWrite } from './network';
import { mayAct } from './leadership';
import { sendWrite } from './storage';

export function onClientTick(c: Core, client: number): number {
  if (c.clientLeader[client] < 0 || c.clientCacheUntil[client] <= c.nowMs) {
    c.clientLeader[client] = c.dnsLeader;
    c.clientCacheUntil[client] = c.nowMs + c.e.workload.clientLeaderCacheMs;
  }
  const to = c.clientLeader[client];
  // A write waits from its first try, whether or not the client knows whom to send it to.
  if (c.clientWaitingSinceMs[client] < 0) c.clientWaitingSinceMs[client] = c.nowMs;
  if (to >= 0) sendClientWrite(c, to, client);
  return c.nowMs + c.e.workload.clientWriteEveryMs;
}

/** A client's write reaches node n; whether n accepted it. */
export function onClientWrite(c: Core, out: Outputs, n: NodeState, client: number): boolean {
  let result: ClientWrite['result'] = c.safety.followersReject ? 'redirected' : 'divergent';
  // A leader past the point where it may act refuses (Redis's min-replicas-to-write: NOREPLICAS).
  if (n.role === 'leader') result = n.ready && mayAct(c, n) ? 'accepted' : 'unavailable';
  if (result === 'accepted') sendWrite(c, n.idx, n.term, 'client', client);
  // Reject, not route: an explicit error with a redirect hint, so the client re-resolves.
  if (result === 'redirected') c.clientLeader[client] = -1;
  answer(c, out, { atMs: c.nowMs, type: 'clientWrite', client, to: n.id, result });
  return result === 'accepted';
}

export function onClientWriteToDeadNode(c: Core, out: Outputs, n: NodeState, client: number): void {
  c.clientLeader[client] = -1;
  answer(c, out, { atMs: c.nowMs, type: 'clientWrite', client, to: n.id, result: 'unavailable' });
}

type ClientWrite = Extract<SimEvent, { type: 'clientWrite' }>;

/** The client hears its answer: a served write ends its wait (a second try of one served does not count). */
function answer(c: Core, out: Outputs, ev: ClientWrite): void {
  const since = c.clientWaitingSinceMs[ev.client];
  // A follower that accepts (no "reject, not route") answers success too: the client cannot tell.
  if ((ev.result === 'accepted' || ev.result === 'divergent') && since >= 0) {
    ev.waitedMs = c.nowMs - since;
    c.clientWaitingSinceMs[ev.client] = -1;
  }
  noteClientWrite(c.books, c.nowMs, ev.result, ev.waitedMs);
  emit(c, out, ev);
}
