// "Embed" (in the Export tab, beside each scene): the snippets that put this scene, at this moment of this
// run, into a docs page, with the embed's options and a Copy button each.
import { useId, useRef, useState } from 'react';
import { useLabStore } from '../../store/context';
import { embedHeightOf, type SceneEntry } from '../../shared/scenes';
import { CODEC_MISSING, loadCodec, prefetchCodec } from '../../shared/codec';
import { currentRun } from '../session';
import { encodeRun } from '../../shared/share';
import { useGuided } from '../guided/GuidedContext';
import { copyText } from './ShareButton';
import { DEFAULT_CHOICES, embedSnippets, type EmbedChoices } from './embedSnippets';

function Snippet({
  label,
  value,
  testId,
  onCopied,
}: {
  label: string;
  value: string;
  testId: string;
  onCopied(message: string): void;
}) {
  const area = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const copy = async () => {
    if (await copyText(value)) return onCopied(`Copied the ${label}.`);
    // No clipboard here: select it for a keyboard copy.
    area.current?.select();
    onCopied(`The ${label} is selected: press Ctrl+C (⌘C) to copy it.`);
  };
  return (
    <div className="snippet">
      <div className="snippet-head">
        <label htmlFor={id}>{label === 'iframe' ? 'iframe' : 'Custom element (one script tag)'}</label>
        <button type="button" className="btn btn-small" onClick={() => void copy()}>
          Copy the {label}
        </button>
      </div>
      <textarea
        id={id}
        ref={area}
        readOnly
        rows={4}
        value={value}
        onFocus={(e) => e.target.select()}
        data-testid={testId}
      />
    </div>
  );
}

export function EmbedButton({ scene }: { scene: SceneEntry }) {
  const store = useLabStore();
  // During a game day the snippets carry it and its step, so the embed shows its title and caption.
  const guided = useGuided();
  const dialog = useRef<HTMLDialogElement>(null);
  const [run, setRun] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const [choices, setChoices] = useState<EmbedChoices>(DEFAULT_CHOICES);
  const [copied, setCopied] = useState('');
  const ids = useId();
  const open = async () => {
    const moment = currentRun(store, guided); // the moment of the click, while the codec loads
    try {
      await loadCodec(); // the snippets carry the run as a link
      setRun(encodeRun(moment));
      setFailed(false);
    } catch {
      setRun(null);
      setFailed(true);
    }
    setCopied('');
    dialog.current?.showModal();
  };
  const choose = <K extends keyof EmbedChoices>(k: K, v: EmbedChoices[K]) =>
    setChoices((c) => ({ ...c, [k]: v }));
  const g = guided?.getState();
  const captions = g && g.step > 0 ? g.scenario.steps.map((s) => s.caption) : [];
  const heightPx = embedHeightOf(scene, store.backend().experiment, captions);
  const siteBase = new URL('.', window.location.href).toString();
  const snippets =
    run === null ? null : embedSnippets(scene, run, choices, siteBase, heightPx, g?.scenario.title ?? null);
  return (
    <>
      <button
        type="button"
        className="btn embed-button"
        onClick={() => void open()}
        onPointerEnter={prefetchCodec}
        onFocus={prefetchCodec}
        aria-label={`Embed the ${scene.name}`}
      >
        Embed
      </button>
      <dialog ref={dialog} className="embed-dialog" aria-labelledby={`${ids}-title`}>
        <h2 id={`${ids}-title`}>Embed the {scene.name}</h2>
        <p className="hint">This run, as it is now. Paste into any HTML, Markdown/MDX or VitePress page.</p>
        <p className="hint">
          The iframe fills its column and is as tall as the scene at 720 px wide; in a narrower column the
          custom element fits better, as it grows with its scene.
        </p>
        {failed && (
          <p role="alert" className="hint">
            The snippets could not be made: {CODEC_MISSING}.
          </p>
        )}
        <fieldset className="embed-choices">
          <legend>Options</legend>
          <label className="field">
            <span>Theme</span>
            <select
              value={choices.theme}
              onChange={(e) => choose('theme', e.target.value as EmbedChoices['theme'])}
            >
              <option value="system">as the reader's system</option>
              <option value="light">light</option>
              <option value="dark">dark</option>
              <option value="inherit">as the docs page (the element; the iframe: the system)</option>
            </select>
          </label>
          <label className="field">
            <span>Controls</span>
            <select
              value={choices.controls}
              onChange={(e) => choose('controls', e.target.value as EmbedChoices['controls'])}
            >
              <option value="minimal">play, restart and “Open in the lab”</option>
              <option value="none">none</option>
            </select>
          </label>
          <label className="switch">
            <input
              type="checkbox"
              checked={choices.autoplay}
              onChange={(e) => choose('autoplay', e.target.checked)}
            />
            Start playing at once
          </label>
        </fieldset>
        {snippets && (
          <>
            <Snippet label="iframe" value={snippets.iframe} testId="embed-iframe" onCopied={setCopied} />
            <Snippet label="element" value={snippets.element} testId="embed-element" onCopied={setCopied} />
          </>
        )}
        <p role="status" className="hint">
          {copied}
        </p>
        <form method="dialog">
          <button type="submit" className="btn">
            Close
          </button>
        </form>
      </dialog>
    </>
  );
}
