// Light, dark or system: set by the toggle and an embed's `theme` (public/theme.js too, before paint).
export type Theme = 'system' | 'light' | 'dark';

export function applyTheme(theme: Theme): void {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}
