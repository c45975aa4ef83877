// The stage's key (dot colours, storage's verdicts, the number under a node's id): under a lone stage, over
// it on a phone, in the side column (KeyPanel) on a laptop's first screen (under: overlaps at 1280 x 800).
import type { ElectionAlgorithm } from '../../src/engine';
import { DOT_KINDS, type DotKind } from './shapes';
import { epochShort } from './words';

export interface LegendEntry {
  kind: DotKind;
  text: string;
}

/** What the storage's own traffic and a lost message look like, under every algorithm. */
const FIXED: Partial<Record<DotKind, string>> = {
  write: 'write (token)',
  reject: 'write rejected',
  dropped: 'lost',
};

/** The legend's entries, in the order dots are drawn: the algorithm's families, then the storage's. */
export function legendEntries(alg: Pick<ElectionAlgorithm, 'messages'>): LegendEntry[] {
  return DOT_KINDS.flatMap((kind) => {
    const labels = alg.messages.filter((m) => m.family === kind).map((m) => m.label);
    const text = labels.length ? [...new Set(labels)].join(' / ') : FIXED[kind];
    return text ? [{ kind, text }] : [];
  });
}

export function StageLegend({ alg }: { alg: Pick<ElectionAlgorithm, 'messages' | 'words'> }) {
  const short = epochShort(alg.words);
  return (
    <ul className="stage-legend plain-list" aria-label="Key to the stage" data-testid="stage-legend">
      {legendEntries(alg).map((e) => (
        <li key={e.kind} data-family={e.kind}>
          <span className={`legend-dot legend-${e.kind} msg-${e.kind}`} aria-hidden="true" />
          {e.text}
        </li>
      ))}
      <li className="legend-epoch">
        <span className="mono">{short}2</span> = {alg.words.epoch} 2
      </li>
    </ul>
  );
}
