// Unavailable keys over the model's time, for one design, drawn up to the step on screen.
import { useEffect, useRef, type RefObject } from 'react';
import { scaleLinear } from '../../src/ui/linearScale';
import { unavailableAt, type Design, type LeaderlessRun } from '../../src/leaderless/model';

const TICK_STEPS_MS = [
  1000, 2000, 5000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000,
];
const W = 480;
const H = 100;
const PAD = { l: 44, r: 8, t: 8, b: 22 };

interface Props {
  run: LeaderlessRun;
  design: Design;
  nowMs: number;
}

export function UnavailableChart({ run, design, nowMs }: Props) {
  const x = scaleLinear([0, run.endMs], [PAD.l, W - PAD.r]);
  const y = scaleLinear([0, run.config.keys], [H - PAD.b, PAD.t]);
  // Piecewise constant, changing where an outage starts or ends; one at the moment shown is the next step's.
  const changes = run.outages.filter((o) => o.design === design).flatMap((o) => [o.startMs, o.endMs]);
  const edges = [...new Set([0, ...changes.filter((t) => t < nowMs)])].sort((a, b) => a - b);
  edges.push(nowMs);
  let d = `M${x(0)} ${y(0)}`;
  for (let i = 1; i < edges.length; i++) {
    d += ` H${x(edges[i])}`;
    if (i < edges.length - 1) d += ` V${y(unavailableAt(run, design, edges[i]))}`;
  }
  // At most about six ticks, at a round step, however long the window.
  const stepMs = TICK_STEPS_MS.find((s) => run.endMs / s <= 6) ?? TICK_STEPS_MS[TICK_STEPS_MS.length - 1];
  const ticks: number[] = [];
  for (let t = 0; t <= run.endMs; t += stepMs) ticks.push(t);
  const svg = useRef<SVGSVGElement>(null);
  useViewBoxUnit(svg);
  return (
    <svg
      ref={svg}
      className="ll-chart"
      viewBox={`0 0 ${W} ${H}`}
      role="img"
      aria-label={`unavailable keys over time, design ${design === 'leader' ? '(a)' : '(b)'}`}
    >
      <line className="ll-axis" x1={PAD.l} x2={W - PAD.r} y1={y(0)} y2={y(0)} />
      <line className="ll-grid" x1={PAD.l} x2={W - PAD.r} y1={y(run.config.keys)} y2={y(run.config.keys)} />
      {[0, run.config.keys].map((v) => (
        <text key={v} className="ll-tick" x={PAD.l - 4} y={y(v)} textAnchor="end" dominantBaseline="middle">
          {v}
        </text>
      ))}
      {ticks.map((t) => (
        <text key={t} className="ll-tick" x={x(t)} y={H - 6} textAnchor="middle">
          {stepMs >= 60_000 ? `${t / 60_000} min` : `${t / 1000} s`}
        </text>
      ))}
      <path className={`ll-line ll-${design}`} d={d} />
      <line className="ll-now" x1={x(nowMs)} x2={x(nowMs)} y1={PAD.t} y2={y(0)} />
    </svg>
  );
}

/** Scaled to its box: viewBox units per screen px go into `--ll-unit`, for present mode's tick size (CSS). */
function useViewBoxUnit(svg: RefObject<SVGSVGElement | null>): void {
  useEffect(() => {
    const el = svg.current;
    if (!el || typeof ResizeObserver !== 'function') return;
    const ro = new ResizeObserver(() => {
      const px = el.getBoundingClientRect().width;
      if (px > 0) el.style.setProperty('--ll-unit', (W / px).toFixed(3));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [svg]);
}
