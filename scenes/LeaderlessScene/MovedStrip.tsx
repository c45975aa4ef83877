// Keys that changed owner when a worker died, in ring order: a few arcs on the ring, everywhere by hash % N.
import type { LeaderlessRun, Moved } from '../../src/leaderless/model';
import { pct } from './captions';

const W = 600;
const H = 14;

function Strip({ ranges, keys, label }: { ranges: [number, number][]; keys: number; label: string }) {
  return (
    <svg
      className="ll-strip"
      viewBox={`0 0 ${W} ${H}`}
      preserveAspectRatio="none"
      role="img"
      aria-label={label}
    >
      <rect className="ll-strip-bg" x={0} y={0} width={W} height={H} />
      <path
        className="ll-strip-moved"
        d={ranges.map(([a, b]) => `M${(a * W) / keys} 0H${(b * W) / keys}V${H}H${(a * W) / keys}z`).join('')}
      />
    </svg>
  );
}

export function MovedStrips({ run, moved }: { run: LeaderlessRun; moved: Moved }) {
  const keys = run.config.keys;
  const ring = `consistent-hash ring: ${moved.ring} keys moved (${pct(moved.ring, keys)})`;
  const modN = `hash % N: ${moved.modN} keys moved (${pct(moved.modN, keys)})`;
  return (
    <figure className="ll-moved" data-testid="ll-moved">
      <figcaption>
        Keys that change owner when {moved.worker} dies, all {keys} in hash order (marked: moved)
      </figcaption>
      <p className="ll-strip-label">{ring}</p>
      <Strip ranges={moved.ringRanges} keys={keys} label={ring} />
      <p className="ll-strip-label">{modN}</p>
      <Strip ranges={moved.modNRanges} keys={keys} label={modN} />
    </figure>
  );
}
