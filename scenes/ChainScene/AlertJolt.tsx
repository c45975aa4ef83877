// The alert's arrival: a jolt (the write "bounces") drawn with motion. It sits in its own module
// so that motion loads only with it, after the page is up, not with every page and embed.
import type { ReactNode } from 'react';
import { LazyMotion, domAnimation, m, useReducedMotion } from 'motion/react';

export default function AlertJolt({
  className,
  testId,
  children,
}: {
  className: string;
  testId: string;
  children: ReactNode;
}) {
  const reduce = useReducedMotion();
  // Keyed by the write (by the caller), so each new one remounts and arrives with a jolt;
  // reduced motion gets it still.
  const enter = reduce ? false : { opacity: 0, scale: 0.8 };
  const settle = reduce ? { opacity: 1, scale: 1 } : { opacity: 1, scale: 1, x: [0, -8, 7, -5, 3, 0] };
  return (
    <LazyMotion features={domAnimation}>
      <m.p
        className={className}
        data-testid={testId}
        initial={enter}
        animate={settle}
        transition={{ duration: 0.45, ease: 'easeOut' }}
      >
        {children}
      </m.p>
    </LazyMotion>
  );
}
