// The page's header: the title and what the lab is for, the game days, and the page's own
// switches (present mode, keys, theme). index.html holds a copy of it for the first paint before
// any module has loaded: keep the two alike.
import { ScenarioPicker } from './guided/ScenarioPicker';
import { ThemeToggle } from './ThemeToggle';

interface Props {
  present: boolean;
  theme: 'light' | 'dark' | 'system' | null;
  scenario: string | null;
  controlsHidden: boolean;
  onToggleControls(): void;
  onToggleFullscreen(): void;
  onToggleHelp(): void;
}

function presentHref(on: boolean): string {
  const q = new URLSearchParams(window.location.search);
  if (on) q.set('present', '');
  else q.delete('present');
  const s = q.toString().replace(/present=(&|$)/, 'present$1');
  return `${window.location.pathname}${s ? `?${s}` : ''}`;
}

export function AppHeader({
  present,
  theme,
  scenario,
  controlsHidden,
  onToggleControls,
  onToggleFullscreen,
  onToggleHelp,
}: Props) {
  return (
    <header className="app-header">
      <div className="app-title">
        <h1>Leader Election Lab</h1>
        <p className="tagline">
          Break a cluster and watch the pattern hold: a quorum elects one leader, a lease bounds how long it
          may act, and a fencing token checked at the storage stops a zombie's writes.
        </p>
      </div>
      <div className="header-tools">
        <ScenarioPicker current={scenario} />
        {present ? (
          <>
            <button type="button" className="btn" onClick={onToggleFullscreen}>
              Full screen
            </button>
            <button type="button" className="btn controls-toggle" onClick={onToggleControls}>
              {controlsHidden ? 'Show controls' : 'Hide controls'}
            </button>
            <a className="btn" href={presentHref(false)}>
              Exit presentation
            </a>
          </>
        ) : (
          <a className="btn" href={presentHref(true)}>
            Present
          </a>
        )}
        <button type="button" className="btn" onClick={onToggleHelp} aria-label="Keyboard shortcuts">
          Keys ?
        </button>
        <ThemeToggle initial={theme} />
      </div>
    </header>
  );
}
