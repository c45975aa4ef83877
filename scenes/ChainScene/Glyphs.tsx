// Shapes beside words, so no role or result is told by colour alone; aria-hidden, as the text says it too.
import type { ReactNode } from 'react';

function Glyph({ size = 18, children }: { size?: number; children: ReactNode }) {
  return (
    <svg width={size} height={size} viewBox="0 0 20 20" aria-hidden focusable={false} className="chain-glyph">
      {children}
    </svg>
  );
}

/** A stroke drawn over a filled shape, in the colour of what the glyph sits on. */
function Mark({ d, width = 2.2 }: { d: string; width?: number }) {
  return (
    <path d={d} fill="none" stroke="var(--chain-on-glyph, #fff)" strokeWidth={width} strokeLinecap="round" />
  );
}

const TICK = 'M5.5 10.5l3 3 6-7';
const OUTLINE = { fill: 'none', stroke: 'currentColor', strokeWidth: 2 };

/** Committed: a circle with a tick. */
export function CommitGlyph() {
  return (
    <Glyph>
      <circle cx="10" cy="10" r="8.5" {...OUTLINE} />
      <path d={TICK} fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    </Glyph>
  );
}

function Filled({ shape, mark }: { shape: string; mark: string }) {
  return (
    <Glyph>
      <path d={shape} fill="currentColor" />
      <Mark d={mark} />
    </Glyph>
  );
}

/** Rejected: a stop octagon with a cross. */
export const RejectGlyph = () => (
  <Filled shape="M6.5 1.5h7l5 5v7l-5 5h-7l-5-5v-7z" mark="M7 7l6 6M13 7l-6 6" />
);

/** Stale write accepted: a warning triangle. */
export const StaleGlyph = () => <Filled shape="M10 1.5l9 16.5H1z" mark="M10 7v5.5M10 15v.5" />;

/** The leader: a star. */
export function LeaderGlyph() {
  return (
    <Glyph size={14}>
      <path d="M10 1l2.6 6 6.4.5-4.9 4.2 1.5 6.3L10 14.6 4.4 18l1.5-6.3L1 7.5 7.4 7z" fill="currentColor" />
    </Glyph>
  );
}

/** A vote: a ticked square when given, an empty dashed square when not. */
export function VoteGlyph({ voted }: { voted: boolean }) {
  return (
    <Glyph size={14}>
      {voted ? (
        <>
          <rect x="1.5" y="1.5" width="17" height="17" rx="3" fill="currentColor" />
          <Mark d={TICK} width={2.4} />
        </>
      ) : (
        <rect x="2" y="2" width="16" height="16" rx="3" {...OUTLINE} strokeDasharray="3 2.5" />
      )}
    </Glyph>
  );
}

/** The step marker: a numbered circle, or a diamond for the decision, as in the flowchart. */
export function StepBadge({ n, decision = false }: { n: number; decision?: boolean }) {
  const frame = { fill: 'var(--chain-badge-bg)', stroke: 'currentColor', strokeWidth: 1.5 };
  return (
    <svg width={28} height={28} viewBox="0 0 28 28" aria-hidden focusable={false} className="chain-badge">
      {decision ? (
        <path d="M14 1.5L26.5 14 14 26.5 1.5 14z" {...frame} />
      ) : (
        <circle cx="14" cy="14" r="12.5" {...frame} />
      )}
      <text x="14" y="18.5" textAnchor="middle" fontSize="13" fontWeight="700" fill="currentColor">
        {n}
      </text>
    </svg>
  );
}
