// Motion that points the reader at a change (an alert's jolt, a named view's pulse), by the Web
// Animations API: no animation library for an embed to fetch. Reduced motion gets everything still.
export function reduced(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}

function play(el: Element | null, keyframes: PropertyIndexedKeyframes, durationS: number): void {
  if (!el || reduced() || typeof el.animate !== 'function') return;
  el.animate(keyframes, { duration: durationS * 1000, easing: 'ease-out' });
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
