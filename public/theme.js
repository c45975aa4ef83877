// Runs before the page's first paint (a classic script in <head>), so the first frame already
// looks like the lab that loads into it:
// - a theme the link asks for, or else one the visitor chose earlier, applies at once, so a dark
//   choice never flashes light (the same key and values as src/app/ThemeToggle.tsx);
// - a presentation link (`?present`) gets present mode's layout at once (the same test as
//   src/shared/params.ts), so the page does not reflow when the lab starts.
// An external file, since the page's CSP runs no inline script.
var query = new URLSearchParams(location.search);
try {
  // A theme in the link (`?theme=dark`) wins over the one chosen earlier.
  var theme = (query.get('theme') || '').toLowerCase() || localStorage.getItem('lel-theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
} catch {
  // Storage may be unavailable (private mode): the system theme applies.
}
var present = query.get('present');
if (present !== null && present !== '0' && present.toLowerCase() !== 'false')
  document.documentElement.classList.add('present');
