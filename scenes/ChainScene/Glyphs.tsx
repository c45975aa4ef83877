// Small shapes that carry meaning next to words, so no role or result is told by colour alone.
// All are decorative for assistive technology: the adjacent text says the same thing.
const box = { width: 18, height: 18, viewBox: '0 0 20 20', 'aria-hidden': true, focusable: false } as const;

/** Committed: a circle with a tick. */
export function CommitGlyph() {
  return (
    <svg {...box} className="chain-glyph">
      <circle cx="10" cy="10" r="8.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M5.5 10.5l3 3 6-7" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" />
    </svg>
  );
}

/** Rejected: a stop octagon with a cross. */
export function RejectGlyph() {
  return (
    <svg {...box} className="chain-glyph">
      <path d="M6.5 1.5h7l5 5v7l-5 5h-7l-5-5v-7z" fill="currentColor" />
      <path
        d="M7 7l6 6M13 7l-6 6"
        stroke="var(--chain-on-glyph, #fff)"
        strokeWidth="2.2"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** Stale write accepted: a warning triangle. */
export function StaleGlyph() {
  return (
    <svg {...box} className="chain-glyph">
      <path d="M10 1.5l9 16.5H1z" fill="currentColor" />
      <path
        d="M10 7v5.5M10 15v.5"
        stroke="var(--chain-on-glyph, #fff)"
        strokeWidth="2.2"
        strokeLinecap="round"
      />
    </svg>
  );
}

/** The leader: a star. */
export function LeaderGlyph() {
  return (
    <svg {...box} width={14} height={14} className="chain-glyph">
      <path d="M10 1l2.6 6 6.4.5-4.9 4.2 1.5 6.3L10 14.6 4.4 18l1.5-6.3L1 7.5 7.4 7z" fill="currentColor" />
    </svg>
  );
}

/** A vote: a ticked square when given, an empty dashed square when not. */
export function VoteGlyph({ voted }: { voted: boolean }) {
  return voted ? (
    <svg {...box} width={14} height={14} className="chain-glyph">
      <rect x="1.5" y="1.5" width="17" height="17" rx="3" fill="currentColor" />
      <path
        d="M5.5 10.5l3 3 6-7"
        fill="none"
        stroke="var(--chain-on-glyph, #fff)"
        strokeWidth="2.4"
        strokeLinecap="round"
      />
    </svg>
  ) : (
    <svg {...box} width={14} height={14} className="chain-glyph">
      <rect
        x="2"
        y="2"
        width="16"
        height="16"
        rx="3"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeDasharray="3 2.5"
      />
    </svg>
  );
}

/** The step marker: a numbered circle, or a diamond for the decision, as in the flowchart. */
export function StepBadge({ n, decision = false }: { n: number; decision?: boolean }) {
  return (
    <svg
      width={28}
      height={28}
      viewBox="0 0 28 28"
      aria-hidden="true"
      focusable="false"
      className="chain-badge"
    >
      {decision ? (
        <path
          d="M14 1.5L26.5 14 14 26.5 1.5 14z"
          fill="var(--chain-badge-bg)"
          stroke="currentColor"
          strokeWidth="1.5"
        />
      ) : (
        <circle
          cx="14"
          cy="14"
          r="12.5"
          fill="var(--chain-badge-bg)"
          stroke="currentColor"
          strokeWidth="1.5"
        />
      )}
      <text x="14" y="18.5" textAnchor="middle" fontSize="13" fontWeight="700" fill="currentColor">
        {n}
      </text>
    </svg>
  );
}
