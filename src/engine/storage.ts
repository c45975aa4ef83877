// The protected storage every algorithm shares: one register holding the highest token accepted.
// With fencing on it refuses a lower token with a retryable error naming the newer one.
import {
  MAX_RECENT_WRITES,
  emit,
  recordViolation,
  type Core,
  type Message,
  type Outputs,
  type WriteEvent,
} from './core';
import { admitWrite, writeFindings } from './invariants';
import { STORAGE, send } from './network';
import type { StorageWrite } from './types';

/** A privileged write to the storage: its term is the token it carries. */
export function sendWrite(
  c: Core,
  from: number,
  token: number,
  kind: StorageWrite['kind'],
  client?: number,
): void {
  const m = send(c, from, STORAGE, 'write', token, kind === 'client' ? c.rngClientNet : c.rngNet);
  m.token = token;
  m.kind = kind;
  m.client = client;
}

export function onStorageWrite(c: Core, out: Outputs, m: Message): void {
  const s = c.storage;
  const token = m.token as number;
  const before = s.maxTokenSeen;
  const fencing = c.safety.fencing;
  const accepted = admitWrite(s, fencing, token);
  if (!accepted) c.books.counters.fencingRejections++;
  const node = c.nodes[m.from].id;
  const found = writeFindings(
    node,
    token,
    accepted,
    fencing,
    before,
    s.maxTokenSeen,
    c.books.highestTokenIssued,
  );
  const stale = found !== null && found.some((f) => f.invariant === 'staleWriteAccepted');
  if (stale) c.books.counters.staleWritesAccepted++;
  // One object is both the trace's event and a recent-writes entry: one allocation per write, not two.
  const w: WriteEvent = {
    type: 'write',
    atMs: c.nowMs,
    node,
    token,
    result: accepted ? 'accepted' : 'rejected',
    maxTokenSeen: s.maxTokenSeen,
    stale,
    kind: m.kind ?? 'leader',
  };
  s.recent.push(w);
  if (s.recent.length > MAX_RECENT_WRITES) s.recent.shift();
  emit(c, out, w);
  if (found !== null) for (const f of found) recordViolation(c, out, f.invariant, f.detail);
  if (!accepted) {
    const rng = m.kind === 'client' ? c.rngClientNet : c.rngNet;
    const r = send(c, STORAGE, m.from, 'writeRejected', s.maxTokenSeen, rng);
    r.token = token;
    r.maxTokenSeen = s.maxTokenSeen;
  }
}
