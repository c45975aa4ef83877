// Every label the diagram writes and what it means: the view draws its words with these functions and its
// key lists the same entries, so the key explains every label (the spacetime spec checks each against it).
import type { AlgorithmWords } from '../../src/engine';
import type { Mark, Span } from './spacetimeModel';

/** A lane's state as its span label writes it: a letter or sign, then the epoch. */
export const LANE_STATES: Record<Span['state'], { short: string; meaning(w: AlgorithmWords): string }> = {
  leader: { short: 'L', meaning: (w) => w.leader },
  candidate: { short: 'C', meaning: () => 'candidate' },
  follower: { short: 'F', meaning: () => 'follower' },
  paused: { short: '‖', meaning: () => 'GC-paused' },
  dead: { short: '✕', meaning: () => 'dead' },
};

/** A span's label: its state's sign, then its epoch (a dead node's has none). */
export function spanLabel(s: Pick<Span, 'state' | 'term'>): { key: string; text: string } {
  const { short } = LANE_STATES[s.state];
  return { key: short, text: `${short}${s.term >= 0 && s.state !== 'dead' ? s.term : ''}` };
}

/** A mark's label: storage's verdict with its token, an election with its epoch, a fault's word. */
export function markLabel(m: Pick<Mark, 'kind' | 'text'>): { key: string; text: string } {
  if (m.kind === 'accepted') return { key: '✓', text: m.text.replace(/^accepted /, '✓ ') };
  if (m.kind === 'rejected') return { key: '✗', text: m.text.replace(/^rejected /, '✗ ') };
  return { key: m.kind, text: m.text };
}

/** The number written on a write's arrow. */
export const TOKEN_KEY = 'token';
/** The words on a partition's band. */
export const SPLIT_KEY = 'split';

/** A partition's words: its groups, or (one node cut off from the rest) that it is partitioned. */
export function partitionLabel(groups: readonly (readonly string[])[]): string {
  return groups.length > 1 ? `split ${groups.map((g) => g.join(',')).join(' | ')}` : 'partitioned';
}

export interface KeyEntry {
  key: string;
  /** What the diagram draws, as it draws it. */
  sample: string;
  meaning: string;
}

/** The diagram's key, in the algorithm's words. */
export function labelKey(w: AlgorithmWords): KeyEntry[] {
  const states = (Object.keys(LANE_STATES) as Span['state'][]).map((state) => ({
    key: LANE_STATES[state].short,
    sample: spanLabel({ state, term: state === 'dead' ? -1 : 2 }).text,
    meaning: `${LANE_STATES[state].meaning(w)}${state === 'dead' ? '' : `, ${w.epoch} 2`}`,
  }));
  const mark = (kind: Mark['kind'], text: string, meaning: string): KeyEntry => {
    const { key, text: sample } = markLabel({ kind, text });
    return { key, sample, meaning };
  };
  return [
    ...states,
    mark('elected', 'elected 2', `became ${w.leader} (${w.epoch} 2)`),
    mark('accepted', 'accepted 2', 'storage accepted a write with token 2'),
    mark('rejected', 'rejected 1 < 2', 'storage rejected a write with token 1: it has seen 2'),
    mark('fault', 'killed', 'a fault (✕ on the lane): killed, paused, isolated, restarted…'),
    { key: TOKEN_KEY, sample: '2', meaning: 'on an arrow: the fencing token the write carries' },
    {
      key: SPLIT_KEY,
      sample: partitionLabel([['n1', 'n2'], ['n3']]),
      meaning: `the network is cut into these groups (or "${partitionLabel([['n1']])}": one cut off)`,
    },
  ];
}

/** Lane names are drawn at least this large on screen, however far the diagram scales down. */
export const LANE_LABEL_PX = 12;
/** About how wide a character of a lane's name is, bold, in ems. */
const LANE_CHAR_EM = 0.62;
/** On-screen height of a row of lane names. */
const LANE_ROW_PX = 16;
/** On-screen room between the names' baseline and the plot (what is drawn just above it). */
const LANE_GAP_PX = 20;

export interface LaneLabel {
  id: string;
  /** What is written: the lane's name, or its id where the name would not fit. */
  text: string;
  /** The lane's full name (a shortened label says it in a tooltip). */
  full: string;
  /** How far above the plot its baseline is, on screen: the row next to the plot, or the one above. */
  abovePx: number;
}

/**
 * Lane names at `lanePx` a lane: one row if all fit, else two alternating rows (two lanes' room each), a
 * name that still does not fit written as its id ("api"). `topPx`: their room above the plot.
 */
export function laneLabels(
  lanes: readonly { id: string; label: string }[],
  lanePx: number,
): { labels: LaneLabel[]; rows: 1 | 2; topPx: number } {
  const fits = (text: string, room: number) => text.length * LANE_CHAR_EM * LANE_LABEL_PX <= room - 4;
  const rows = lanes.every((l) => fits(l.label, lanePx)) ? 1 : 2;
  const labels = lanes.map((l, i) => ({
    id: l.id,
    full: l.label,
    // The last lane has no lane beyond it to lend its name room: the diagram ends half a lane on.
    text: fits(l.label, i === lanes.length - 1 ? lanePx : rows * lanePx) ? l.label : l.id,
    abovePx: LANE_GAP_PX + (rows === 2 && i % 2 === 1 ? LANE_ROW_PX : 0),
  }));
  return { labels, rows, topPx: LANE_GAP_PX + rows * LANE_ROW_PX };
}
