// "Copy link to this moment": the URL carries the setup, commands and moment, so whoever opens it sees
// exactly this state. Without a clipboard the link shows in a field to copy by hand.
import { useState } from 'react';
import { useLabStore } from '../../store/context';
import { CODEC_MISSING, loadCodec, prefetchCodec } from '../../shared/codec';
import { currentRun, linkToRun } from '../session';
import { useGuided } from '../guided/GuidedContext';

/** Copies `text` to the clipboard; false where there is none (an insecure page, a refused permission). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

export function ShareButton() {
  const store = useLabStore();
  const guided = useGuided();
  const [link, setLink] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const copy = async () => {
    const run = currentRun(store, guided); // the moment of the click, even while the codec is on its way
    setLink(null);
    setBusy(true);
    try {
      await loadCodec(); // fetched as the pointer or focus reached the button, or now
    } catch {
      setFailed(true);
      return;
    } finally {
      setBusy(false);
    }
    setFailed(false);
    const url = linkToRun(run);
    setLink(url);
    setCopied(await copyText(url));
  };
  return (
    <span className="share">
      <button
        type="button"
        className="btn"
        onClick={copy}
        onPointerEnter={prefetchCodec}
        onFocus={prefetchCodec}
        aria-busy={busy || undefined}
        data-testid="copy-link"
      >
        Copy link to this moment
      </button>
      {failed && (
        <span role="alert" className="hint">
          The link could not be made: {CODEC_MISSING}.
        </span>
      )}
      {link && (
        <span role="status" className="hint">
          {copied ? 'Link copied.' : 'Copy this link:'}{' '}
          <input
            className="share-link"
            readOnly
            value={link}
            aria-label="Link to this moment"
            data-testid="share-link"
            onFocus={(e) => e.target.select()}
          />
        </span>
      )}
    </span>
  );
}
