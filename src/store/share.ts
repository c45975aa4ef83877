// Structural sharing between successive snapshots: unchanged parts keep their identity. The engine builds
// every snapshot afresh, so otherwise every part (switches, violations, failovers...) is new every frame, and
// every component selecting one re-renders 60 times a second (a controlled <input> rewrites attributes too).

type Plain = Record<string, unknown>;

const isPlain = (v: unknown): v is Plain =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** `next`, its deep-equal parts swapped for prev's (`prev` if all equal); fresh plain data, it is mutated. */
export function share<T>(prev: T, next: T): T {
  if (Object.is(prev, next)) return prev;
  if (Array.isArray(prev) && Array.isArray(next)) {
    let same = prev.length === next.length;
    for (let i = 0; i < next.length; i++) {
      const v = i < prev.length ? share(prev[i], next[i]) : next[i];
      if (v !== prev[i]) same = false;
      next[i] = v;
    }
    return same ? prev : next;
  }
  if (isPlain(prev) && isPlain(next)) {
    let same = true;
    let keys = 0;
    for (const key in next) {
      keys++;
      if (!(key in prev)) {
        same = false;
        continue;
      }
      const v = share(prev[key], next[key]);
      if (v !== prev[key]) same = false;
      (next as Plain)[key] = v;
    }
    if (same) for (const _ in prev) keys--;
    return same && keys === 0 ? prev : next;
  }
  return next;
}
