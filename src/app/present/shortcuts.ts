// Keyboard shortcuts for speakers and presentation clickers (which send PageUp / PageDown).
// One table drives both the handler and the help overlay, so they cannot disagree.
import type { GuidedStore } from '../../store/guidedStore';
import type { LabStore } from '../../store/labStore';

export interface Shortcut {
  keys: string[];
  label: string;
  run(lab: LabStore, guided: GuidedStore | null): void;
}

function splitMinority(lab: LabStore): void {
  const nodes = lab
    .getState()
    .snapshot.nodes.filter((n) => !n.witness)
    .map((n) => n.id);
  const minority = Math.floor(nodes.length / 2);
  if (minority > 0)
    lab.getState().command({ do: 'partition', groups: [nodes.slice(0, minority), nodes.slice(minority)] });
}

export const SHORTCUTS: Shortcut[] = [
  { keys: [' '], label: 'Play / pause', run: (lab) => lab.getState().togglePlay() },
  {
    keys: ['ArrowRight', 'PageDown'],
    label: 'Next step (guided) or next event',
    run: (lab, g) => {
      if (!g) return lab.getState().stepEvent();
      const s = g.getState();
      if (s.status === 'waiting') s.skip();
      else s.next();
    },
  },
  {
    keys: ['ArrowLeft', 'PageUp'],
    label: 'Previous step (guided) or back 5 s',
    run: (lab, g) => (g ? g.getState().previous() : lab.getState().seek(lab.frame().nowMs - 5000)),
  },
  {
    keys: ['k'],
    label: 'Kill the leader',
    run: (lab) => lab.getState().command({ do: 'kill', node: 'leader' }),
  },
  {
    keys: ['p'],
    label: 'GC-pause the leader for 30 s',
    run: (lab) => lab.getState().command({ do: 'pause', node: 'leader', forMs: 30000 }),
  },
  { keys: ['s'], label: 'Split the network (minority | majority)', run: splitMinority },
  { keys: ['h'], label: 'Heal the network', run: (lab) => lab.getState().command({ do: 'heal' }) },
  {
    keys: ['f'],
    label: 'Toggle fencing',
    run: (lab) => lab.getState().command({ do: 'safety', fencing: !lab.getState().snapshot.safety.fencing }),
  },
];

/** Keys handled by the page itself rather than the lab (help, controls, full screen). */
export const VIEW_KEYS = { help: '?', controls: 'c', fullscreen: 'z' } as const;

export function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  const tag = el.tagName.toLowerCase();
  if (tag === 'textarea' || tag === 'select' || el.isContentEditable) return true;
  if (tag === 'input') {
    const type = (el as HTMLInputElement).type;
    return !['checkbox', 'radio', 'button', 'submit', 'range'].includes(type);
  }
  return false;
}

export function findShortcut(key: string): Shortcut | undefined {
  const k = key.length === 1 ? key.toLowerCase() : key;
  return SHORTCUTS.find((s) => s.keys.includes(k));
}
