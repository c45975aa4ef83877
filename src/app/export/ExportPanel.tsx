// Export: scenes, embeds and the run's files, all made in the page and saved through a download link: no
// server is involved, so it works on the static and offline site too.
import { useId, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useLabStore } from '../../store/context';
import { revealScenes } from '../../store/gate';
import type { LabStore } from '../../store/labStore';
import { samplesToCsv } from './csv';
import { downloadBlob, exportName } from './download';
import { svgToPng } from './raster';
import { EXPORT_PARTS, SCENES, type ExportPart, type SceneEntry } from '../../shared/scenes';
import { toMermaid } from '../../../scenes/SpaceTimeScene/mermaid';
import { PX_PER_MS, spacetimeOf } from '../../../scenes/SpaceTimeScene/useSpacetime';
import { sceneSvg } from './sceneSvg';
import { traceFileOf } from './traceFile';
import { TraceImport } from './TraceImport';
import { EmbedButton } from '../controls/EmbedButton';
import './exportPanel.css';

type Status = { tone: 'done' | 'failed'; text: string } | null;

function moment(store: LabStore): { seed: number; atMs: number } {
  const s = store.getState();
  return { seed: s.experiment.seed, atMs: s.snapshot.nowMs };
}

async function exportScene(
  store: LabStore,
  scene: ExportPart,
  format: 'png' | 'svg',
  within: Element | null,
): Promise<string> {
  // The part inside this lab (several labs can share a page), if it is shown.
  const el = (within?.closest('.lab') ?? document).querySelector(scene.selector);
  if (!el) {
    // A scene that loads with its tab is drawn once that tab has been opened.
    const owner = (SCENES as readonly SceneEntry[]).find((s) => s.exports.some((p) => p.id === scene.id));
    if (owner?.tabLoads === 'opened')
      throw new Error(`the ${scene.name} is drawn once its tab is opened: open "${owner.title}" first`);
    throw new Error(`the ${scene.name} is not on the page right now`);
  }
  // A scene in an unselected tab is not laid out: its panel shows for the copy, undone before paint.
  const tab = el.closest<HTMLElement>('[role="tabpanel"][hidden]');
  const { seed, atMs } = moment(store);
  // A scene scrolled out of view stopped following the lab (gate.ts): bring it to this moment first.
  let release = () => {};
  flushSync(() => {
    release = revealScenes(store);
    store.flushDeferred();
  });
  if (tab) tab.hidden = false;
  let image;
  try {
    image = sceneSvg(
      el,
      `Leader Election Lab: ${scene.name} at ${(atMs / 1000).toFixed(1)} s (seed ${seed})`,
    );
  } finally {
    if (tab) tab.hidden = true;
    release();
  }
  const name = exportName(scene.id, seed, atMs, format);
  const blob =
    format === 'svg'
      ? new Blob([image.svg], { type: 'image/svg+xml' })
      : await svgToPng(image.svg, image.width, image.height);
  downloadBlob(blob, name);
  return `${name} (${image.width} × ${image.height} px)`;
}

function saveText(store: LabStore, what: string, ext: string, type: string, text: string): string {
  const { seed, atMs } = moment(store);
  const name = exportName(what, seed, atMs, ext);
  downloadBlob(new Blob([text], { type }), name);
  return name;
}

const exportTrace = (store: LabStore) =>
  saveText(store, 'trace', 'json', 'application/json', JSON.stringify(traceFileOf(store.backend())));

const exportCsv = (store: LabStore) =>
  saveText(store, 'metrics', 'csv', 'text/csv', samplesToCsv(store.backend().samples));

/** The space-time diagram's window at this moment (every kind, every lane) as Mermaid text. */
function exportMermaid(store: LabStore): string {
  const model = spacetimeOf(store.getState(), store.backend(), {
    pxPerMs: PX_PER_MS,
    hiddenFamilies: new Set(),
    hiddenLanes: new Set(),
  });
  return saveText(store, 'spacetime', 'mmd', 'text/plain', toMermaid(model) + '\n');
}

/** The run's files: what each holds, its button's name and words, and how it is saved. */
const RUN_FILES: [what: string, name: string, label: string, save: (store: LabStore) => string][] = [
  ['the trace', 'the trace as JSON', 'Trace as JSON', exportTrace],
  ['the metrics', 'the metric series as CSV', 'Metric series as CSV', exportCsv],
  [
    'the space-time window',
    'the space-time window as a Mermaid sequence diagram',
    'Space-time window as Mermaid',
    exportMermaid,
  ],
];

export function ExportPanel() {
  const store = useLabStore();
  const headingId = useId();
  const panel = useRef<HTMLElement>(null);
  const [status, setStatus] = useState<Status>(null);

  const run = async (what: string, action: () => string | Promise<string>) => {
    try {
      setStatus({ tone: 'done', text: `Saved ${await action()}` });
    } catch (e) {
      setStatus({ tone: 'failed', text: `Could not export ${what}: ${(e as Error).message}` });
    }
  };

  return (
    <section className="panel export-panel" aria-labelledby={headingId} ref={panel}>
      <h2 id={headingId}>Export</h2>
      <h3>Images</h3>
      <p className="hint">Images show the moment on screen, 1920 px wide for slides.</p>
      <ul className="export-scenes plain-list">
        {EXPORT_PARTS.map((scene) => (
          <li key={scene.id}>
            <span className="export-scene-name">{scene.name}</span>
            {(['png', 'svg'] as const).map((format) => (
              <button
                key={format}
                type="button"
                className="btn"
                aria-label={`Export the ${scene.name} as ${format.toUpperCase()}`}
                onClick={() =>
                  run(`the ${scene.name}`, () => exportScene(store, scene, format, panel.current))
                }
              >
                {format.toUpperCase()}
              </button>
            ))}
          </li>
        ))}
      </ul>
      <p className="hint">
        The fencing chain and the failover timeline are HTML: their SVG holds it in a foreignObject, which
        browsers show but some vector editors do not. Their PNG is complete.
      </p>
      <h3>Embed in a docs page</h3>
      <p className="hint">A scene running this run from this moment, as an iframe or a custom element.</p>
      <ul className="export-scenes plain-list" data-testid="export-embeds">
        {(SCENES as readonly SceneEntry[]).map((scene) => (
          <li key={scene.id}>
            <span className="export-scene-name">{scene.name}</span>
            <EmbedButton scene={scene} />
          </li>
        ))}
      </ul>
      <h3>The run</h3>
      <div className="btn-row">
        {RUN_FILES.map(([what, name, label, save]) => (
          <button
            key={what}
            type="button"
            className="btn"
            aria-label={`Export ${name}`}
            onClick={() => run(what, () => save(store))}
          >
            {label}
          </button>
        ))}
      </div>
      <p
        className={`export-status export-${status?.tone ?? 'idle'}`}
        role="status"
        data-testid="export-status"
      >
        {status?.text}
      </p>
      <TraceImport />
    </section>
  );
}
