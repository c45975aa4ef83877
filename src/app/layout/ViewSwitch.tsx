// A phone's bar picking its one view, kept at the top with a mini leader_count chart (both lines, and an
// alarm when observed would page), so the chart's story is always in view. Wider screens show all views.
import { useRef } from 'react';
import type { Sample } from '../../engine';
import { useLabStore, useLabUpdate } from '../../store/context';
import { setAttr, setText } from '../../ui/domWrites';
import { useWide } from './useWide';
import { arrowKeys } from './MoreTabs';

export type PrimaryView = 'stage' | 'chain' | 'chart';

const VIEWS: { id: PrimaryView; label: string; scene: string }[] = [
  { id: 'stage', label: 'Stage', scene: 'cluster' },
  { id: 'chain', label: 'Chain', scene: 'chain' },
  { id: 'chart', label: 'Chart', scene: 'metric-line' },
];

/** The mini chart's window and size: the last minute, in a 96 x 24 box. */
const WINDOW_MS = 60_000;
const W = 96;
const H = 24;
const REDRAW_EVERY_MS = 250;

type Field = 'leaderCountObserved' | 'leaderCount';

/** A step line of one leader_count over the window: 0, 1, 2 or more on three levels, 1 in the middle. */
function miniPath(samples: readonly Sample[], field: Field, nowMs: number): string {
  const from = nowMs - WINDOW_MS;
  const x = (t: number) => ((t - from) / WINDOW_MS) * W;
  const y = (c: number) => H - 2 - (Math.min(c, 2) / 2) * (H - 4);
  let d = '';
  let last: number | null = null;
  for (const sample of samples) {
    const v = sample[field];
    if (sample.atMs < from) {
      last = v;
      continue;
    }
    if (sample.atMs > nowMs) break;
    if (last === null) d += `M${x(sample.atMs).toFixed(1)} ${y(v)}`;
    else if (v !== last) d += `${d ? '' : `M0 ${y(last)}`}H${x(sample.atMs).toFixed(1)}V${y(v)}`;
    else if (d === '') d += `M0 ${y(last)}`;
    last = v;
  }
  if (last !== null) d += `${d ? '' : `M0 ${y(last)}`}H${W}`;
  return d;
}

function MiniLeaderCount() {
  const store = useLabStore();
  const observedPath = useRef<SVGPathElement>(null);
  const believedPath = useRef<SVGPathElement>(null);
  const observedValue = useRef<HTMLElement>(null);
  const believedValue = useRef<HTMLElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const drawnAt = useRef(-Infinity);
  useLabUpdate((s) => {
    const observed = s.snapshot.leaderCountObserved;
    if (observedValue.current) setText(observedValue.current, String(observed));
    if (believedValue.current) setText(believedValue.current, String(s.snapshot.leaderCount));
    // The alarm follows the observed count, as the chart's bands do, but not at start-up (no outage).
    const alarm = s.snapshot.startedAtMs >= 0 && observed !== 1;
    if (box.current) setAttr(box.current, 'data-alarm', alarm ? 'yes' : 'no');
    const wall = performance.now();
    if (wall - drawnAt.current < REDRAW_EVERY_MS || !observedPath.current || !believedPath.current) return;
    drawnAt.current = wall;
    const samples = store.backend().samples;
    const now = s.snapshot.nowMs;
    setAttr(observedPath.current, 'd', miniPath(samples, 'leaderCountObserved', now));
    setAttr(believedPath.current, 'd', miniPath(samples, 'leaderCount', now));
  });
  return (
    <div className="mini-leader-count" data-testid="mini-leader-count" ref={box}>
      <span className="mono">leader_count</span>
      <span>
        observed <strong ref={observedValue}>1</strong>
      </span>
      <span>
        believed <strong ref={believedValue}>1</strong>
      </span>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width={W}
        height={H}
        preserveAspectRatio="none"
        aria-hidden="true"
        focusable="false"
      >
        <line className="mini-healthy" x1={0} x2={W} y1={H / 2} y2={H / 2} />
        <path ref={observedPath} className="mini-line" />
        <path ref={believedPath} className="mini-line mini-line-believed" />
      </svg>
    </div>
  );
}

export function ViewSwitch({ view, onView }: { view: PrimaryView; onView(v: PrimaryView): void }) {
  const wide = useWide();
  if (wide) return null;
  const onKeyDown = arrowKeys(VIEWS, view, (next) => {
    onView(next.id);
    document.getElementById(`view-tab-${next.id}`)?.focus();
  });
  return (
    <div className="view-switch">
      <div role="tablist" aria-label="Views" className="view-tabs" onKeyDown={onKeyDown}>
        {VIEWS.map((v) => (
          <button
            key={v.id}
            id={`view-tab-${v.id}`}
            type="button"
            role="tab"
            className="btn"
            aria-selected={view === v.id}
            aria-controls={`view-${v.scene}`}
            tabIndex={view === v.id ? 0 : -1}
            onClick={() => onView(v.id)}
          >
            {v.label}
          </button>
        ))}
      </div>
      <MiniLeaderCount />
    </div>
  );
}
