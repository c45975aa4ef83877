// The event queue: a binary min-heap by (atMs, seq). seq is a global counter, so events due at the
// same millisecond run in scheduling order: ties never depend on the heap's shape, runs replay.

export interface QueuedEvent {
  atMs: number;
  seq: number;
  kind: number;
  node: number;
  gen: number;
  msg: unknown;
}

export function heapPush(heap: QueuedEvent[], ev: QueuedEvent): void {
  heap.push(ev);
  let i = heap.length - 1;
  while (i > 0) {
    const p = (i - 1) >> 1;
    const parent = heap[p];
    if (parent.atMs < ev.atMs || (parent.atMs === ev.atMs && parent.seq < ev.seq)) break;
    heap[i] = parent;
    i = p;
  }
  heap[i] = ev;
}

export function heapPop(heap: QueuedEvent[]): QueuedEvent | undefined {
  const n = heap.length;
  if (n === 0) return undefined;
  const top = heap[0];
  const last = heap.pop() as QueuedEvent;
  if (n === 1) return top;
  const size = n - 1;
  let i = 0;
  for (;;) {
    const l = 2 * i + 1;
    if (l >= size) break;
    const r = l + 1;
    let c = l;
    if (r < size) {
      const a = heap[l];
      const b = heap[r];
      if (b.atMs < a.atMs || (b.atMs === a.atMs && b.seq < a.seq)) c = r;
    }
    const child = heap[c];
    if (last.atMs < child.atMs || (last.atMs === child.atMs && last.seq < child.seq)) break;
    heap[i] = child;
    i = c;
  }
  heap[i] = last;
  return top;
}
