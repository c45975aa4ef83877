// The TTL ring: time since the leader's last renewal against its renew deadline and the lease. Written
// straight to the SVG and text each snapshot (useLabUpdate), so the chain re-renders only when words change.
import { type ReactNode, useRef } from 'react';
import { useLabUpdate } from '../../src/store/context';
import { setAttr, setText } from '../../src/ui/domWrites';
import { pickLeader } from './chainModel';
import { leaseDial } from './leaseDial';

const R = 30;
const C = 40;
/** The ring's circles: the track, the late stretch and the arc, all on one circle of 100 units. */
const ring = { cx: C, cy: C, r: R, pathLength: 100 };
/** The arcs start at twelve o'clock. */
const TURN = `rotate(-90 ${C} ${C})`;

/** An SVG point on the ring at a share of a full turn, clockwise from twelve o'clock. */
function pointAt(fraction: number, radius: number): [number, number] {
  const a = fraction * 2 * Math.PI - Math.PI / 2;
  return [C + radius * Math.cos(a), C + radius * Math.sin(a)];
}

/** `why`: what explains the deadline; in the compact strip it sits beside the ring, where there is room. */
export function LeaseRing({ why }: { why?: ReactNode }) {
  const svg = useRef<SVGSVGElement>(null);
  const arc = useRef<SVGCircleElement>(null);
  const late = useRef<SVGCircleElement>(null);
  const tick = useRef<SVGLineElement>(null);
  const centre = useRef<SVGTextElement>(null);
  const lead = useRef<HTMLSpanElement>(null);
  const caption = useRef<HTMLSpanElement>(null);
  const last = useRef({ state: '', deadline: -1 });

  // Per snapshot, not frame: any DOM change costs a layout, paint and commit, so they keep to snapshots.
  useLabUpdate((s) => {
    const snap = s.snapshot;
    if (!s.experiment.lease) return;
    const dial = leaseDial(snap, pickLeader(snap), s.experiment.lease);
    const prev = last.current;
    if (arc.current) setAttr(arc.current, 'stroke-dasharray', `${(dial.fraction * 100).toFixed(2)} 100`);
    if (dial.state !== prev.state) svg.current?.setAttribute('data-state', dial.state);
    if (dial.deadlineFraction !== prev.deadline) {
      const d = dial.deadlineFraction * 100;
      late.current?.setAttribute('stroke-dasharray', `${(100 - d).toFixed(2)} 100`);
      late.current?.setAttribute('stroke-dashoffset', `${(-d).toFixed(2)}`);
      const [x1, y1] = pointAt(dial.deadlineFraction, R - 7);
      const [x2, y2] = pointAt(dial.deadlineFraction, R + 7);
      for (const [k, v] of Object.entries({ x1, y1, x2, y2 })) tick.current?.setAttribute(k, v.toFixed(2));
    }
    if (centre.current) setText(centre.current, dial.short);
    if (lead.current) setText(lead.current, dial.lead);
    if (caption.current) setText(caption.current, dial.text.slice(dial.lead.length));
    last.current = { state: dial.state, deadline: dial.deadlineFraction };
  });

  return (
    <div className="chain-lease">
      <span className="chain-ring-box">
        <svg
          ref={svg}
          className="chain-ring"
          viewBox="0 0 80 80"
          width="80"
          height="80"
          aria-hidden="true"
          focusable="false"
        >
          <circle className="chain-ring-track" {...ring} />
          <circle ref={late} className="chain-ring-late" {...ring} transform={TURN} />
          <circle ref={arc} className="chain-ring-arc" {...ring} transform={TURN} strokeDasharray="0 100" />
          <line ref={tick} className="chain-ring-tick" />
          <text ref={centre} className="chain-ring-text" x={C} y={C + 5} textAnchor="middle" />
        </svg>
      </span>
      <p className="chain-lease-caption" data-testid="lease-caption">
        <span className="chain-lease-words">
          <span ref={lead} className="chain-lease-lead" />
          <span ref={caption} />
        </span>
      </p>
      {why}
    </div>
  );
}
