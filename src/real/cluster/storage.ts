// The fenced storage the leaders write to. It accepts a write iff fencing is off or its token is at least the
// highest seen, and reports each write in the engine's write-event shape, with the engine's own invariant
// checks (a stale write is one accepted though a newer leadership was issued: fencing off).
import { admitWrite, writeFindings } from '../../engine/invariants';
import type { ViolationEvent, WriteEvent } from '../model/events';

export interface WriteRequest {
  node: string;
  token: number;
  /** When the writer checked its leadership (ms since the run started); kept for the record. */
  checkedAtMs: number;
}

export class FencedStorage {
  fencing = true;
  maxTokenSeen = 0;
  accepted = 0;
  rejected = 0;

  /** highestTokenIssued: the newest leadership's token, from the run's elected events. */
  constructor(private readonly highestTokenIssued: () => number) {}

  write(w: WriteRequest, atMs: number): { event: WriteEvent; violations: ViolationEvent[] } {
    const before = this.maxTokenSeen;
    const accepted = admitWrite(this, this.fencing, w.token);
    const found = writeFindings(
      w.node,
      w.token,
      accepted,
      this.fencing,
      before,
      this.maxTokenSeen,
      this.highestTokenIssued(),
    );
    const event: WriteEvent = {
      atMs,
      type: 'write',
      node: w.node,
      token: w.token,
      result: accepted ? 'accepted' : 'rejected',
      maxTokenSeen: this.maxTokenSeen,
      stale: (found ?? []).some((f) => f.invariant === 'staleWriteAccepted'),
      kind: 'leader',
    };
    const violations = (found ?? []).map((f): ViolationEvent => ({ atMs, type: 'violation', ...f }));
    return { event, violations };
  }
}

/** A write request from JSON, or the reason it is not one. */
export function parseWriteRequest(x: unknown): WriteRequest | string {
  if (typeof x !== 'object' || x === null) return 'body must be a JSON object';
  const w = x as Record<string, unknown>;
  if (typeof w.node !== 'string' || !/^n[1-9]$/.test(w.node)) return 'node must be n1..n9';
  if (!Number.isSafeInteger(w.token) || (w.token as number) < 0) return 'token must be a whole number';
  if (typeof w.checkedAtMs !== 'number' || !Number.isFinite(w.checkedAtMs))
    return 'checkedAtMs must be a number';
  return { node: w.node, token: w.token as number, checkedAtMs: w.checkedAtMs };
}
