// Runs before the page's first paint (a classic script in <head>): applies a theme the visitor
// chose earlier, so a dark choice never flashes light while the lab loads. The same key and
// values as src/app/ThemeToggle.tsx. An external file, since the page's CSP runs no inline script.
try {
  var theme = localStorage.getItem('lel-theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
} catch {
  // Storage may be unavailable (private mode): the system theme applies.
}
