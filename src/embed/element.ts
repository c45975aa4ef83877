// <leader-election-scene scene="metric-line" scenario="kill-leader">: each hosts its scene in its own frame,
// so several run independently and the host's styles cannot reach inside. A theme change is sent to the
// loaded frame, so the run goes on; any other change loads the scene anew. Every attribute but its own and
// the global ones (elementAttrs.ts) is a parameter of the embed page: a misspelt one is named in the frame.
import { frameTitle, passedOn, reservedPx } from './elementAttrs';
const HEIGHT_MESSAGE = 'leader-election-scene:height';
const THEME_MESSAGE = 'leader-election-scene:theme';

// Resolved once, as this script runs: the embed page sits beside it (a module has no currentScript).
function scriptSrc(): string {
  const current = document.currentScript as HTMLScriptElement | null;
  if (current?.src) return current.src;
  const tags = document.querySelectorAll<HTMLScriptElement>('script[src*="leader-election-scene"]');
  return tags.length ? tags[tags.length - 1].src : window.location.href;
}
const base = new URL('./embed.html', scriptSrc());

let counter = 0;

/** `theme="inherit"`: the host's `color-scheme` if set (docs themes do), else its background, else system. */
function hostTheme(el: Element): 'light' | 'dark' | 'system' {
  const words = getComputedStyle(el).colorScheme.split(/\s+/);
  const dark = words.includes('dark');
  if (dark !== words.includes('light')) return dark ? 'dark' : 'light';
  if (!words.includes('normal')) return 'system';
  for (let at: Element | null = el; at; at = at.parentElement) {
    const rgb = getComputedStyle(at)
      .backgroundColor.match(/[\d.]+/g)
      ?.map(Number);
    if (!rgb || rgb.length < 3 || rgb[3] === 0) continue;
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2] < 128 ? 'dark' : 'light';
  }
  return 'system';
}

/** The `height` attribute as a CSS height, or null to fit the scene (an unusable one said in the console). */
function fixedHeight(raw: string | null, said: boolean): string | null {
  if (!raw) return null;
  const css = /^\d+(\.\d+)?$/.test(raw.trim()) ? `${raw.trim()}px` : raw;
  if (CSS.supports('height', css)) return css;
  if (!said)
    console.warn(
      `<leader-election-scene height="${raw}">: not a number of pixels or a CSS length; the frame fits its scene`,
    );
  return null;
}

const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');

class LeaderElectionScene extends HTMLElement {
  private frame: HTMLIFrameElement | null = null;
  /** Watches the element's attributes, and the host page's root for a theme toggle (`theme="inherit"`). */
  private watcher: MutationObserver | null = null;
  private readonly frameId = `les-${++counter}-${Math.random().toString(36).slice(2, 8)}`;
  /** The frame's address without its theme: a change of theme alone does not reload the scene. */
  private loadedKey = '';
  private loaded = false;
  private theme = 'system';
  /** The frame's fixed height, if the `height` attribute gives one it can use. */
  private fixed: string | null = null;
  /** The `height` attribute last read (an unusable one is said once). */
  private heightSaid: string | null = null;

  private onMessage = (e: MessageEvent) => {
    const data = e.data as { type?: string; id?: string; height?: number; title?: string } | null;
    if (!data || data.type !== HEIGHT_MESSAGE || data.id !== this.frameId || !this.frame) return;
    // The scene's name and its game day, as the frame knows them, unless the page named it.
    if (typeof data.title === 'string' && !this.hasAttribute('title')) this.frame.title = data.title;
    if (this.fixed) return;
    if (typeof data.height === 'number' && data.height > 0 && data.height < 5000)
      this.frame.style.height = `${data.height}px`;
  };

  private onChange = () => this.update();

  connectedCallback(): void {
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    if (!this.frame) {
      const style = document.createElement('style');
      style.textContent = ':host{display:block}iframe{display:block;width:100%;border:0}';
      this.frame = document.createElement('iframe');
      this.frame.setAttribute('loading', 'lazy');
      this.frame.addEventListener('load', () => {
        this.loaded = true;
        this.sendTheme(); // a theme chosen while the scene was on its way
      });
      root.append(style, this.frame);
    }
    window.addEventListener('message', this.onMessage);
    darkQuery.addEventListener('change', this.onChange);
    // Any attribute, not a fixed list: an unknown one is passed on for the frame to name.
    this.watcher ??= new MutationObserver(this.onChange);
    this.watcher.observe(this, { attributes: true });
    for (const at of [document.documentElement, document.body])
      if (at)
        this.watcher.observe(at, { attributes: true, attributeFilter: ['class', 'style', 'data-theme'] });
    this.update();
  }

  disconnectedCallback(): void {
    window.removeEventListener('message', this.onMessage);
    darkQuery.removeEventListener('change', this.onChange);
    this.watcher?.disconnect();
  }

  /** Tell a loaded frame its theme: it switches in place, its run going on. */
  private sendTheme(): void {
    if (!this.loaded || !this.frame?.contentWindow) return;
    this.frame.contentWindow.postMessage(
      { type: THEME_MESSAGE, id: this.frameId, theme: this.theme },
      base.origin,
    );
  }

  private update(): void {
    const url = new URL(base);
    for (const { name, value } of [...this.attributes]) {
      if (!passedOn(name) || name === 'theme') continue;
      url.searchParams.set(name, value);
    }
    url.searchParams.set('id', this.frameId);
    const asked = this.getAttribute('theme');
    const theme = asked?.toLowerCase() === 'inherit' ? hostTheme(this) : asked;
    const frame = this.frame as HTMLIFrameElement;
    const title = this.getAttribute('title');
    if (title !== null) frame.title = title;
    const raw = this.getAttribute('height');
    const h = fixedHeight(raw, raw === this.heightSaid);
    this.heightSaid = raw;
    this.fixed = h;
    if (h) frame.style.height = h;
    const key = url.toString();
    const themeChanged = (theme ?? 'system') !== this.theme;
    this.theme = theme ?? 'system';
    if (key === this.loadedKey) {
      if (themeChanged) this.sendTheme();
      return;
    }
    // Until the frame names its scene and game day (onMessage).
    if (title === null) frame.title = frameTitle(this.getAttribute('scene'), this.getAttribute('scenario'));
    if (theme !== null) url.searchParams.set('theme', theme);
    if (!h)
      frame.style.height = `${reservedPx(this.getAttribute('scene'), Number(this.getAttribute('step')) > 1 && this.hasAttribute('scenario'))}px`;
    this.loadedKey = key;
    this.loaded = false;
    frame.src = url.toString();
  }
}

if (!customElements.get('leader-election-scene'))
  customElements.define('leader-election-scene', LeaderElectionScene);
