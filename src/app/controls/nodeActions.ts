// What can be done to a node, as one list: the node panel's buttons are drawn from it, and any
// other place that offers a node's actions reads the same list. Each action names what it does to
// which node, and a pause names how long it is against what the algorithm's others wait out
// before replacing a silent leader ("shorter than the Lease (15 s)"), from the algorithm's own
// description (pauseLengths): never a lease an algorithm does not have.
import { formatSpan, pageOf, type Command, type Experiment, type Snapshot } from '../../engine';

type NodeView = Snapshot['nodes'][number];

export interface NodeAction {
  /** Stable across runs: "kill", "pause-short", ... */
  id: 'kill' | 'restart' | 'pause-short' | 'pause-long' | 'resume' | 'isolate' | 'campaign';
  /** The button's words: "Kill", "Pause 5 s". */
  label: string;
  /** Its accessible name: "Kill n1", "Pause n1 for 5 s, shorter than the Lease (15 s)". */
  name: string;
  command: Command;
  disabled: boolean;
  danger: boolean;
  /** Which row of buttons it belongs to: its life, its pauses, its place in the cluster. */
  row: 'life' | 'network';
}

/** A span of a pause button: whole seconds from 3 s up, tenths below (a third of a 1 s timeout is 0.3 s). */
function pauseSpanMs(ms: number): number {
  return ms >= 3000 ? Math.round(ms / 1000) * 1000 : Math.max(100, Math.round(ms / 100) * 100);
}

/** The pause lengths the page offers, measured against what the others wait out (expiry). */
export interface PauseLengths {
  /** A third of the shortest wait: a leader paused this long is not replaced (the card's renew-at-a-third rule). */
  shortMs: number;
  /** Twice the longest wait: a leader paused this long is replaced, and wakes a zombie. */
  longMs: number;
  /** What they are measured against, by its own name: "the Lease (15 s)", "the election timeout (5-10 s)". */
  against: string;
}

/** The node panel's pause lengths under the experiment's algorithm (its description's expiry). */
export function pauseLengths(e: Experiment): PauseLengths {
  const x = pageOf(e).expiry(e);
  const span =
    x.maxMs === x.ms ? formatSpan(x.ms) : `${formatSpan(x.ms).replace(/ s$/, '')}-${formatSpan(x.maxMs)}`;
  return {
    shortMs: pauseSpanMs(x.ms / 3),
    longMs: pauseSpanMs(2 * x.maxMs),
    against: `the ${x.name} (${span})`,
  };
}

/** How a pause compares with what the others wait out, in a pause button's words. */
export function pauseWords(e: Experiment): { short: string; long: string; shortMs: number; longMs: number } {
  const p = pauseLengths(e);
  return {
    shortMs: p.shortMs,
    longMs: p.longMs,
    short: `shorter than ${p.against}`,
    long: `longer than ${p.against}`,
  };
}

/** The node's actions the run accepts now, in the order the panel shows them. */
export function nodeActions(node: NodeView, e: Experiment, commands: readonly Command['do'][]): NodeAction[] {
  const can = (c: Command['do']) => commands.includes(c);
  const id = node.id;
  const out: NodeAction[] = [];
  const add = (a: Omit<NodeAction, 'disabled' | 'danger'> & Partial<NodeAction>) =>
    out.push({ disabled: false, danger: false, ...a });
  if (node.alive && can('kill'))
    add({
      id: 'kill',
      label: 'Kill',
      name: `Kill ${id}`,
      command: { do: 'kill', node: id },
      row: 'life',
      danger: true,
    });
  if (!node.alive && can('restart'))
    add({
      id: 'restart',
      label: 'Restart',
      name: `Restart ${id}`,
      command: { do: 'restart', node: id },
      row: 'life',
    });
  if (node.paused && can('resume'))
    add({
      id: 'resume',
      label: 'Resume',
      name: `Resume ${id}`,
      command: { do: 'resume', node: id },
      row: 'life',
    });
  if (!node.paused && can('pause')) {
    const w = pauseWords(e);
    for (const [key, ms, words] of [
      ['pause-short', w.shortMs, w.short],
      ['pause-long', w.longMs, w.long],
    ] as const)
      add({
        id: key,
        label: `Pause ${formatSpan(ms)}`,
        name: `Pause ${id} for ${formatSpan(ms)}, ${words}`,
        command: { do: 'pause', node: id, forMs: ms },
        row: 'life',
        disabled: !node.alive,
      });
  }
  if (can('isolate'))
    add({
      id: 'isolate',
      label: 'Isolate',
      name: `Isolate ${id}`,
      command: { do: 'isolate', node: id },
      row: 'network',
    });
  if (can('campaign'))
    add({
      id: 'campaign',
      label: 'Force election',
      name: `Force ${id} to campaign`,
      command: { do: 'campaign', node: id },
      row: 'network',
      disabled: !node.alive || node.paused || node.witness,
    });
  return out;
}
