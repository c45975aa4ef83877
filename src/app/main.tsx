// The lab page starts in steps, each its own task, so that a slow phone's main thread is never
// held for long. index.html already shows the header; this module, small and without React, lets
// the browser paint it first, and only then loads React and the lab (boot.tsx). Run at once, the
// modules' evaluation (React's own is the largest) delayed the first paint on a slow phone.
import '../ui/theme.css';
import '../ui/base.css';
import './layout/layout.css';
import { registerOffline } from './offline';

/** After the page's first paint: the frame after the next one, or at most 100 ms (a hidden tab paints no frames). */
function afterFirstPaint(run: () => void): void {
  let done = false;
  const once = () => {
    if (done) return;
    done = true;
    run();
  };
  requestAnimationFrame(() => setTimeout(once, 0));
  setTimeout(once, 100);
}

afterFirstPaint(() => {
  void import('./boot').then((m) => m.boot());
});
registerOffline();
