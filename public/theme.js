// Runs before the page's first paint (a classic script in <head>), so the first frame already
// looks like the lab that loads into it:
// - a theme the visitor chose earlier applies at once, so a dark choice never flashes light
//   (the same key and values as src/app/ThemeToggle.tsx);
// - a presentation link (`?present`) gets present mode's layout at once (the same test as
//   src/app/urlParams.ts), so the page does not reflow when the lab starts.
// An external file, since the page's CSP runs no inline script.
try {
  var theme = localStorage.getItem('lel-theme');
  if (theme === 'light' || theme === 'dark') document.documentElement.dataset.theme = theme;
} catch {
  // Storage may be unavailable (private mode): the system theme applies.
}
if (new URLSearchParams(location.search).has('present')) document.documentElement.classList.add('present');
