// Light / dark / system theme. The system preference is the default; a choice is remembered.
import { useEffect, useRef, useState } from 'react';
import { applyTheme, type Theme } from '../shared/theme';

const KEY = 'lel-theme';

function stored(): Theme {
  try {
    const v = localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

/** `initial`: a theme the link asked for; it shows, but is not remembered until the reader picks one. */
export function ThemeToggle({ initial = null }: { initial?: Theme | null }) {
  const [theme, setTheme] = useState<Theme>(() => initial ?? stored());
  const chosen = useRef(initial === null);
  useEffect(() => {
    applyTheme(theme);
    if (!chosen.current) {
      chosen.current = true;
      return;
    }
    try {
      if (theme === 'system') localStorage.removeItem(KEY);
      else localStorage.setItem(KEY, theme);
    } catch {
      // Storage may be unavailable (private mode); the choice then lasts for this page only.
    }
  }, [theme]);
  const next: Theme = theme === 'system' ? 'dark' : theme === 'dark' ? 'light' : 'system';
  return (
    <button
      type="button"
      className="btn"
      onClick={() => setTheme(next)}
      aria-label={`Theme: ${theme}. Switch to ${next}`}
    >
      {theme === 'dark' ? '☾ Dark' : theme === 'light' ? '☀ Light' : '◐ System'}
    </button>
  );
}
