// "Embed this": the snippets that put this scene, at this moment of this run, into a docs page:
// an iframe, or the custom element with its one script tag.
import { useRef, useState } from 'react';
import { useLabStore } from '../../store/context';
import { SCENES, type SceneName } from '../../embed/sceneParam';
import { CODEC_MISSING, loadCodec, prefetchCodec } from '../codec';
import { runParam } from '../session';

function siteBase(): string {
  return new URL('.', window.location.href).toString();
}

export function embedSnippets(scene: SceneName, run: string): { iframe: string; element: string } {
  const base = siteBase();
  const src = `${base}embed.html?scene=${scene}&run=${run}&controls=minimal`;
  return {
    iframe: `<iframe src="${src}" width="720" height="520" style="border:0" title="Leader Election Lab: ${SCENES[scene]}" loading="lazy"></iframe>`,
    element: `<script src="${base}leader-election-scene.js"></script>\n<leader-election-scene scene="${scene}" run="${run}"></leader-election-scene>`,
  };
}

export function EmbedButton({ scene }: { scene: SceneName }) {
  const store = useLabStore();
  const dialog = useRef<HTMLDialogElement>(null);
  const [snippets, setSnippets] = useState<{ iframe: string; element: string } | null>(null);
  const [failed, setFailed] = useState(false);
  const open = async () => {
    try {
      await loadCodec(); // the snippets carry the run as a link
      setSnippets(embedSnippets(scene, runParam(store)));
      setFailed(false);
    } catch {
      setSnippets(null);
      setFailed(true);
    }
    dialog.current?.showModal();
  };
  return (
    <>
      <button
        type="button"
        className="btn btn-small embed-button"
        onClick={() => void open()}
        onPointerEnter={prefetchCodec}
        onFocus={prefetchCodec}
        aria-label={`Embed the ${SCENES[scene]}`}
      >
        Embed this
      </button>
      <dialog ref={dialog} className="embed-dialog" aria-label={`Embed the ${SCENES[scene]}`}>
        <h2>Embed the {SCENES[scene]}</h2>
        <p className="hint">This run, as it is now. Paste into any HTML, Markdown/MDX or VitePress page.</p>
        {failed && (
          <p role="alert" className="hint">
            The snippets could not be made: {CODEC_MISSING}.
          </p>
        )}
        {snippets && (
          <>
            <label className="snippet">
              <span>iframe</span>
              <textarea
                readOnly
                rows={4}
                value={snippets.iframe}
                onFocus={(e) => e.target.select()}
                data-testid="embed-iframe"
              />
            </label>
            <label className="snippet">
              <span>Custom element (one script tag)</span>
              <textarea
                readOnly
                rows={4}
                value={snippets.element}
                onFocus={(e) => e.target.select()}
                data-testid="embed-element"
              />
            </label>
          </>
        )}
        <form method="dialog">
          <button type="submit" className="btn">
            Close
          </button>
        </form>
      </dialog>
    </>
  );
}
