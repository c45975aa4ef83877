// Light, dark, or the system's: the page's theme toggle and an embed's `theme` parameter both
// set it here (public/theme.js does the same before the first paint).
export type Theme = 'system' | 'light' | 'dark';

export function applyTheme(theme: Theme): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}
