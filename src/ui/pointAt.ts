// Motion that points the reader at a change: an alert arriving with a jolt, a view that a guided
// step names drawing the eye with a short pulse. Drawn with motion's small animate (the Web
// Animations API underneath, a few KB), loaded the first time something moves, so a page or an
// embed that never shows an alert never fetches it. Reduced motion gets everything still.
type Mini = typeof import('motion/mini');

let mini: Promise<Mini> | null = null;

function reduced(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function play(el: Element | null, keyframes: Keyframe[] | PropertyIndexedKeyframes, durationS: number): void {
  if (!el || reduced()) return;
  mini ??= import('motion/mini');
  mini.then(
    ({ animate }) => {
      if (el.isConnected) animate(el, keyframes as never, { duration: durationS, ease: 'easeOut' });
    },
    () => {
      mini = null; // offline without the chunk: things simply arrive without moving
    },
  );
}

/** A new alert: it shakes once, the way a rejected write bounces. */
export function jolt(el: Element | null): void {
  play(
    el,
    {
      opacity: [0, 1, 1, 1, 1, 1],
      transform: [
        'translateX(0) scale(0.85)',
        'translateX(-8px) scale(1)',
        'translateX(7px)',
        'translateX(-5px)',
        'translateX(3px)',
        'translateX(0)',
      ],
    },
    0.45,
  );
}

/** A view the narration now points at: its halo swells once. */
export function pulse(el: Element | null): void {
  play(el, { outlineOffset: ['14px', '2px'], outlineWidth: ['1px', '3px'] }, 0.5);
}
