// The lab page starts in steps, each its own task: this module, small and without React, lets index.html's
// header paint, then loads React and the lab (boot.tsx), whose evaluation delayed a slow phone's first paint.
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
