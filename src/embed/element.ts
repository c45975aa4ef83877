// <leader-election-scene scene="metric-line" scenario="kill-leader"></leader-election-scene>
// One script tag from the built site defines it. Each element hosts the scene in its own frame
// (the site's embed page), so several on one page run independently and the host page's styles
// cannot reach inside. The frame reports its content height and the element fits it, growing
// and shrinking with the scene.
//
// Every attribute becomes a parameter of the embed page, except the element's own (height,
// title) and the attributes every HTML element may carry (elementAttrs.ts). The embed page reads
// them through the same table as a link (src/shared/params.ts), so a misspelt attribute is named
// in the frame, as a misspelt parameter would be.
import { passedOn, reservedPx } from './elementAttrs';
const HEIGHT_MESSAGE = 'leader-election-scene:height';

// Resolved once, while this script runs: the embed page sits beside it on the same site. The
// script may be loaded as a classic script (currentScript is set) or as a module (it is not).
function scriptSrc(): string {
  const current = document.currentScript as HTMLScriptElement | null;
  if (current?.src) return current.src;
  const tags = document.querySelectorAll<HTMLScriptElement>('script[src*="leader-election-scene"]');
  return tags.length ? tags[tags.length - 1].src : window.location.href;
}
const base = new URL('./embed.html', scriptSrc());

let counter = 0;

class LeaderElectionScene extends HTMLElement {
  private frame: HTMLIFrameElement | null = null;
  private watcher: MutationObserver | null = null;
  private readonly frameId = `les-${++counter}-${Math.random().toString(36).slice(2, 8)}`;

  private onMessage = (e: MessageEvent) => {
    const data = e.data as { type?: string; id?: string; height?: number } | null;
    if (!data || data.type !== HEIGHT_MESSAGE || data.id !== this.frameId || !this.frame) return;
    if (this.hasAttribute('height')) return;
    if (typeof data.height === 'number' && data.height > 0 && data.height < 5000)
      this.frame.style.height = `${data.height}px`;
  };

  connectedCallback(): void {
    const root = this.shadowRoot ?? this.attachShadow({ mode: 'open' });
    if (!this.frame) {
      const style = document.createElement('style');
      style.textContent = ':host{display:block}iframe{display:block;width:100%;border:0}';
      this.frame = document.createElement('iframe');
      this.frame.setAttribute('loading', 'lazy');
      root.append(style, this.frame);
    }
    window.addEventListener('message', this.onMessage);
    // Any attribute, not a fixed list: an unknown one is passed on for the frame to name.
    this.watcher ??= new MutationObserver(() => this.update());
    this.watcher.observe(this, { attributes: true });
    this.update();
  }

  disconnectedCallback(): void {
    window.removeEventListener('message', this.onMessage);
    this.watcher?.disconnect();
  }

  private update(): void {
    const url = new URL(base);
    for (const { name, value } of [...this.attributes]) {
      if (!passedOn(name)) continue;
      url.searchParams.set(name, value);
    }
    url.searchParams.set('id', this.frameId);
    const frame = this.frame as HTMLIFrameElement;
    frame.title =
      this.getAttribute('title') ?? `Leader Election Lab: ${this.getAttribute('scene') ?? 'cluster'} scene`;
    const h = this.getAttribute('height');
    if (h) frame.style.height = /^\d+$/.test(h) ? `${h}px` : h;
    if (frame.src === url.toString()) return;
    // A new scene: the height its embed reserves, until the frame says how tall it is.
    if (!h)
      frame.style.height = `${reservedPx(this.getAttribute('scene'), Number(this.getAttribute('step')) > 1 && this.hasAttribute('scenario'))}px`;
    frame.src = url.toString();
  }
}

if (!customElements.get('leader-election-scene'))
  customElements.define('leader-election-scene', LeaderElectionScene);
