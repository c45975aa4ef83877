// What can be done to a node, as the one list every place offering a node's actions reads. A pause names
// its length against what the algorithm's others wait out before replacing a silent leader ("shorter than
// the Lease (15 s)"), from the algorithm's own description: never a lease an algorithm does not have.
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

/** The node panel's pause lengths, against what the others wait out (the algorithm description's expiry). */
export function pauseLengths(e: Experiment) {
  const x = pageOf(e).expiry(e);
  const span =
    x.maxMs === x.ms ? formatSpan(x.ms) : `${formatSpan(x.ms).replace(/ s$/, '')}-${formatSpan(x.maxMs)}`;
  return {
    /** A third of the shortest wait: a leader paused this long is not replaced (the card's renew-at-a-third rule). */
    shortMs: pauseSpanMs(x.ms / 3),
    /** Twice the longest wait: a leader paused this long is replaced, and wakes a zombie. */
    longMs: pauseSpanMs(2 * x.maxMs),
    /** What they are measured against, by its own name: "the Lease (15 s)", "the election timeout (5-10 s)". */
    against: `the ${x.name} (${span})`,
  };
}

type PlainDo = 'kill' | 'restart' | 'resume' | 'isolate';

/** What anything on the stage (a node, a service) can have done to it by name: "Kill n1". */
function plainAction(id: string, c: PlainDo, row: NodeAction['row']): NodeAction {
  const label = c.charAt(0).toUpperCase() + c.slice(1);
  const command = { do: c, node: id };
  return { id: c, label, name: `${label} ${id}`, command, row, disabled: false, danger: c === 'kill' };
}

/** Kill or restart a service, and cut it off from every node: what the run accepts now. */
export function serviceActions(service: { id: string; alive: boolean }, commands: readonly Command['do'][]) {
  const life = plainAction(service.id, service.alive ? 'kill' : 'restart', 'life');
  return [life, plainAction(service.id, 'isolate', 'network')].filter((a) => commands.includes(a.command.do));
}

/** The node's actions the run accepts now, in the order the panel shows them. */
export function nodeActions(node: NodeView, e: Experiment, commands: readonly Command['do'][]): NodeAction[] {
  const can = (c: Command['do']) => commands.includes(c);
  const id = node.id;
  const out: NodeAction[] = [];
  const plain = (c: PlainDo, row: NodeAction['row']) => {
    if (can(c)) out.push(plainAction(id, c, row));
  };
  plain(node.alive ? 'kill' : 'restart', 'life');
  if (node.paused) plain('resume', 'life');
  if (!node.paused && can('pause')) {
    const p = pauseLengths(e);
    for (const [key, ms, than] of [
      ['pause-short', p.shortMs, 'shorter'],
      ['pause-long', p.longMs, 'longer'],
    ] as const)
      out.push({
        id: key,
        label: `Pause ${formatSpan(ms)}`,
        name: `Pause ${id} for ${formatSpan(ms)}, ${than} than ${p.against}`,
        command: { do: 'pause', node: id, forMs: ms },
        row: 'life',
        disabled: !node.alive,
        danger: false,
      });
  }
  plain('isolate', 'network');
  if (can('campaign'))
    out.push({
      id: 'campaign',
      label: 'Force election',
      name: `Force ${id} to campaign`,
      command: { do: 'campaign', node: id },
      row: 'network',
      disabled: !node.alive || node.paused || node.witness,
      danger: false,
    });
  return out;
}
