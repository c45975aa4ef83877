// The strip of tabs under the first screen. Every panel stays mounted (a hidden one keeps its state; its
// scenes stop following the lab: LabGate); the tabs follow the ARIA tabs pattern.
import type { KeyboardEvent, ReactNode } from 'react';

export interface MoreTab {
  id: string;
  title: string;
  content: ReactNode;
}

/** A tab list's arrow keys: the next tab (or the previous), around the ends, goes to `go`. */
export function arrowKeys<T extends { id: string }>(
  list: readonly T[],
  current: string,
  go: (next: T) => void,
) {
  return (e: KeyboardEvent) => {
    const by = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!by) return;
    e.preventDefault();
    const i = list.findIndex((t) => t.id === current);
    go(list[(i + by + list.length) % list.length]);
  };
}

export function MoreTabs({
  tabs,
  selected,
  onSelect,
}: {
  tabs: MoreTab[];
  selected: string;
  onSelect(id: string): void;
}) {
  const current = tabs.some((t) => t.id === selected) ? selected : tabs[0].id;
  const onKeyDown = arrowKeys(tabs, current, (next) => {
    onSelect(next.id);
    const tab = document.getElementById(`more-tab-${next.id}`);
    tab?.focus();
    // On a phone the strip scrolls sideways: keep the chosen tab in it.
    tab?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  });
  return (
    <section className="lab-more" aria-label="More views">
      <div role="tablist" aria-label="More" className="more-tabs" onKeyDown={onKeyDown}>
        {tabs.map((t) => (
          <button
            key={t.id}
            id={`more-tab-${t.id}`}
            type="button"
            role="tab"
            className="more-tab"
            aria-selected={t.id === current}
            aria-controls={`more-panel-${t.id}`}
            tabIndex={t.id === current ? 0 : -1}
            onClick={(e) => {
              onSelect(t.id);
              e.currentTarget.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
            }}
          >
            {t.title}
          </button>
        ))}
      </div>
      {tabs.map((t) => (
        <div
          key={t.id}
          id={`more-panel-${t.id}`}
          role="tabpanel"
          aria-labelledby={`more-tab-${t.id}`}
          className={`more-panel more-panel-${t.id}`}
          hidden={t.id !== current}
        >
          {t.content}
        </div>
      ))}
    </section>
  );
}
