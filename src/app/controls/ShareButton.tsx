// "Copy link to this moment": the URL carries the setup, the recorded commands and the moment,
// so whoever opens it sees exactly this state. When the clipboard is unavailable the link is
// shown in a field to copy by hand.
import { useState } from 'react';
import { useLabStore } from '../../store/context';
import { loadCodec } from '../codec';
import { linkToMoment } from '../session';

/** Start fetching the link codec when a click looks likely, so the click itself does not wait. */
export function prefetchCodec(): void {
  loadCodec().catch(() => undefined); // a failure shows when the link is asked for
}

export function ShareButton() {
  const store = useLabStore();
  const [link, setLink] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);
  const [failed, setFailed] = useState(false);
  const copy = async () => {
    try {
      await loadCodec(); // fetched as the pointer or focus reached the button, or now
    } catch {
      setFailed(true);
      return;
    }
    setFailed(false);
    const url = linkToMoment(store);
    setLink(url);
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <span className="share">
      <button type="button" className="btn" onClick={copy} onPointerEnter={prefetchCodec} onFocus={prefetchCodec} data-testid="copy-link">
        Copy link to this moment
      </button>
      {failed && (
        <span role="alert" className="hint">
          The part of the lab that writes links did not load (offline?); reload to try again.
        </span>
      )}
      {link && !failed && (
        <span role="status" className="hint">
          {copied ? 'Link copied.' : 'Copy this link:'}{' '}
          <input className="share-link" readOnly value={link} aria-label="Link to this moment" data-testid="share-link" onFocus={(e) => e.target.select()} />
        </span>
      )}
    </span>
  );
}
