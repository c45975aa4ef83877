// The page's header: the title and what the lab is for, the game days, and the page's own
// switches (present mode, keys, theme). index.html holds a copy of it for the first paint before
// any module has loaded: keep the two alike.
import { ScenarioPicker } from './guided/ScenarioPicker';
import { ThemeToggle } from './ThemeToggle';
import { presentHref } from './present/usePageKeys';

interface Props {
  present: boolean;
  theme: 'light' | 'dark' | 'system' | null;
  scenario: string | null;
  controlsHidden: boolean;
  onToggleControls(): void;
  onToggleFullscreen(): void;
  onToggleHelp(): void;
  /** Leave present mode in place, the run where it is (the link is for a new tab). */
  onExitPresent(): void;
}

export function AppHeader({
  present,
  theme,
  scenario,
  controlsHidden,
  onToggleControls,
  onToggleFullscreen,
  onToggleHelp,
  onExitPresent,
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
            <a
              className="btn present-exit"
              href={presentHref(false)}
              onClick={(e) => {
                if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
                e.preventDefault();
                onExitPresent();
              }}
            >
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
