// The page's header: title, game days and the page's switches. index.html holds a copy of it for the first
// paint before any module has loaded: keep the two alike.
import { ScenarioPicker } from './guided/ScenarioPicker';
import { ThemeToggle } from './ThemeToggle';
import { presentHref, type PageKeys } from './present/usePageKeys';

interface Props {
  /** The page's keyboard and its state: present mode, the controls, full screen, the help. */
  keys: PageKeys;
  theme: 'light' | 'dark' | 'system' | null;
  scenario: string | null;
}

export function AppHeader({ keys, theme, scenario }: Props) {
  const { present, controlsHidden, view } = keys;
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
            <button type="button" className="btn" onClick={view.toggleFullscreen}>
              Full screen
            </button>
            <button type="button" className="btn controls-toggle" onClick={view.toggleControls}>
              {controlsHidden ? 'Show controls' : 'Hide controls'}
            </button>
            <a
              className="btn present-exit"
              href={presentHref(false)}
              // A plain click leaves present mode in place, the run where it is (the link is for a new tab).
              onClick={(e) => {
                if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
                e.preventDefault();
                view.exitPresent();
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
        <button type="button" className="btn" onClick={view.toggleHelp} aria-label="Keyboard shortcuts">
          Keys ?
        </button>
        <ThemeToggle initial={theme} />
      </div>
    </header>
  );
}
