// Keyboard shortcuts for speakers and clickers: one table drives the handler and the help, so they agree.
import type { Command } from '../../engine';
import type { BackendCapabilities } from '../../store/backend';
import type { GuidedStore } from '../../store/guidedStore';
import type { LabStore } from '../../store/labStore';
import { splitMinority } from '../../shared/split';

export interface Shortcut {
  keys: string[];
  label: string;
  /** The command it issues, if any: a backend that cannot run it has the key do nothing. */
  needs?: Command['do'];
  /** Whether the run can do it beyond `needs` (absent: always); a key it cannot is not handled or listed. */
  offered?(can: BackendCapabilities, guided: boolean): boolean;
  /** Act; returns a sentence when it could not (said to the reader, as a key has no button to grey out). */
  run(lab: LabStore, guided: GuidedStore | null): string | void;
  /** Whether the state that sentence speaks of still holds: the note goes once it would no longer be true. */
  noteHolds?(lab: LabStore): boolean;
}

function hasLeader(lab: LabStore): boolean {
  return lab.getState().snapshot.leader !== null;
}

/** A command aimed at the leader, or why there is nothing to aim it at. */
function atLeader(lab: LabStore, command: Command, what: string): string | void {
  if (!hasLeader(lab)) return `There is no leader to ${what} right now: believed leader_count is 0.`;
  lab.getState().command(command);
}

function split(lab: LabStore): string | void {
  const s = splitMinority(lab.getState().snapshot.nodes);
  if (!s) return 'A split needs at least two nodes.';
  lab.getState().command({ do: 'partition', groups: [s.minority, s.majority] });
}

export const SHORTCUTS: Shortcut[] = [
  { keys: [' '], label: 'Play / pause', run: (lab) => lab.getState().togglePlay() },
  {
    keys: ['ArrowRight', 'PageDown'],
    label: 'Next step (guided) or next event',
    offered: (can, guided) => guided || can.step,
    run: (lab, g) => {
      if (!g) return lab.getState().can.step ? lab.getState().stepEvent() : undefined;
      const s = g.getState();
      if (s.status === 'waiting') s.skip();
      else s.next();
    },
  },
  {
    keys: ['ArrowLeft', 'PageUp'],
    label: 'Previous step (guided) or back 5 s',
    offered: (can, guided) => guided || can.seek,
    run: (lab, g) => {
      if (g) return g.getState().previous();
      if (lab.getState().can.seek) lab.getState().seek(lab.frame().nowMs - 5000);
    },
  },
  {
    keys: ['k'],
    label: 'Kill the leader',
    needs: 'kill',
    run: (lab) => atLeader(lab, { do: 'kill', node: 'leader' }, 'kill'),
    noteHolds: (lab) => !hasLeader(lab),
  },
  {
    keys: ['p'],
    label: 'GC-pause the leader for 30 s',
    needs: 'pause',
    run: (lab) => atLeader(lab, { do: 'pause', node: 'leader', forMs: 30000 }, 'pause'),
    noteHolds: (lab) => !hasLeader(lab),
  },
  { keys: ['s'], label: 'Split the network (minority | majority)', needs: 'partition', run: split },
  {
    keys: ['h'],
    label: 'Heal the network',
    needs: 'heal',
    run: (lab) =>
      lab.getState().snapshot.partition
        ? void lab.getState().command({ do: 'heal' })
        : 'The network is whole: there is no partition to heal.',
    noteHolds: (lab) => !lab.getState().snapshot.partition,
  },
  {
    keys: ['f'],
    label: 'Toggle fencing',
    needs: 'safety',
    offered: (can) => !can.switches || can.switches.includes('fencing'),
    run: (lab) =>
      void lab.getState().command({ do: 'safety', fencing: !lab.getState().snapshot.safety.fencing }),
  },
];

/** Keys handled by the page itself rather than the lab (controls, full screen, help), as the help lists them. */
export const VIEW_KEYS = [
  { keys: ['c'], label: 'Hide / show the controls', act: 'toggleControls' },
  { keys: ['z'], label: 'Full screen', act: 'toggleFullscreen' },
  { keys: ['?'], label: 'This help (Esc closes it)', act: 'toggleHelp' },
] as const;

/**
 * A clicker's keys (Space is its play key, and the one a speaker's hand finds). In present mode they drive
 * the talk, as in a slide show: a click on a slider or button must not make the clicker that control.
 */
export const CLICKER_KEYS: ReadonlySet<string> = new Set(['PageDown', 'PageUp', ' ']);

/** The step keys some clickers send instead of PageDown / PageUp. */
export const ARROW_STEP_KEYS: ReadonlySet<string> = new Set(['ArrowRight', 'ArrowLeft']);

/**
 * Whether a key belongs to the element rather than the shortcuts: always in a field being typed in; in
 * present mode never for the clicker's keys, nor arrows on a control focused by a click (a slider tabbed to
 * keeps them); otherwise for the keys a control gives a meaning of its own. Space means nothing to a slider,
 * so it still plays and pauses (as a speaker who just clicked the timeline expects).
 */
export function keyBelongsToTarget(
  target: EventTarget | null,
  key: string,
  present: boolean,
  focusedByPointer = false,
): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  const tag = el.tagName.toLowerCase();
  const type = tag === 'input' ? (el as HTMLInputElement).type : '';
  const typing = tag === 'input' && !['checkbox', 'radio', 'button', 'submit', 'range'].includes(type);
  if (typing || tag === 'textarea' || tag === 'select' || el.isContentEditable) return true;
  if (present && (CLICKER_KEYS.has(key) || (focusedByPointer && ARROW_STEP_KEYS.has(key)))) return false;
  const role = el.getAttribute('role');
  const moves = key.startsWith('Arrow') || key === 'Home' || key === 'End';
  if (type === 'range' || role === 'slider') return moves || key === 'PageUp' || key === 'PageDown';
  if (key === ' ' || key === 'Enter')
    return ['button', 'a', 'summary'].includes(tag) || role === 'button' || role === 'tab' || tag === 'input';
  return (role === 'tab' || role === 'tablist') && moves;
}

/** Whether the run offers the shortcut: a real run or recording only what it does for real (NOT_FOR_REAL). */
function isOffered(s: Shortcut, can: BackendCapabilities, guided: boolean): boolean {
  if (s.needs && !can.commands.includes(s.needs)) return false;
  return s.offered ? s.offered(can, guided) : true;
}

export function offeredShortcuts(can: BackendCapabilities, guided: boolean): Shortcut[] {
  return SHORTCUTS.filter((s) => isOffered(s, can, guided));
}

export function findShortcut(key: string, can: BackendCapabilities, guided: boolean): Shortcut | undefined {
  const k = key.length === 1 ? key.toLowerCase() : key;
  const s = SHORTCUTS.find((x) => x.keys.includes(k));
  return s && isOffered(s, can, guided) ? s : undefined;
}
