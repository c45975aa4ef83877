// Open a trace file: check it, replay it headless to confirm it is the run it recorded, then open it as a
// shared link (`?run=`); a real run's file opens as its recording. A bad file leaves the lab as it was.
import { useContext, useId, useState, type DragEvent } from 'react';
import { CODEC_MISSING, loadCodec } from '../../shared/codec';
import { RecordingBackend } from '../../store/backends/recordingBackend';
import { OpenRecording, type OpenedRecording } from '../recording/openRecording';
import { runLink } from '../session';
import { algorithmFor, loadAlgorithm } from '../../engine';
import { firstDifference, readTraceFile, replayTrace, type ImportedRun } from './traceFile';

/** Far above any run the lab can record (its event and sample stores are bounded). */
const MAX_IMPORT_BYTES = 200 * 1024 * 1024;

type View =
  | { kind: 'idle' }
  | { kind: 'checking'; name: string }
  | { kind: 'problems'; name: string; problems: string[] }
  | { kind: 'differs'; name: string; run: ImportedRun; at: string };

const nextPaint = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));

/** Open the run as its link; false when the link codec could not load. */
async function open(run: ImportedRun): Promise<boolean> {
  try {
    await loadCodec();
  } catch {
    return false;
  }
  window.location.assign(runLink(run, window.location.href));
  return true;
}

let recordingsOpened = 0;

/** The recording folded, ready to show; or why it cannot be. */
function foldRecording(run: ImportedRun, name: string): OpenedRecording | string {
  if (!run.real) return 'not a real run';
  try {
    return { id: ++recordingsOpened, name, backend: new RecordingBackend(run.real, run.atMs) };
  } catch (e) {
    return `the recording could not be folded: ${(e as Error).message}`;
  }
}

export function TraceImport() {
  const openRecording = useContext(OpenRecording);
  const inputId = useId();
  const [view, setView] = useState<View>({ kind: 'idle' });
  const [dragging, setDragging] = useState(false);

  const read = async (file: File) => {
    const name = file.name;
    const fail = (...problems: string[]) => setView({ kind: 'problems', name, problems });
    if (file.size > MAX_IMPORT_BYTES) return fail(`the file is larger than ${MAX_IMPORT_BYTES >> 20} MB`);
    setView({ kind: 'checking', name });
    const r = readTraceFile(await file.text());
    if (!r.ok) return fail(...r.problems);
    await nextPaint(); // let "Checking" show before a long replay blocks the page
    // The replay runs the file's algorithm, whose code (and description) may not have loaded yet.
    try {
      await loadAlgorithm(r.run.experiment.algorithm);
    } catch {
      const title = algorithmFor(r.run.experiment.algorithm).title;
      return fail(`the ${title} algorithm could not be loaded (offline?); try again`);
    }
    if (r.run.real) {
      if (!openRecording) return fail("a real run's recording opens on the lab's own page");
      const opened = foldRecording(r.run, name);
      if (typeof opened === 'string') return fail(opened);
      return openRecording(opened);
    }
    const at = r.run.trace ? firstDifference(replayTrace(r.run), r.run.trace) : null;
    if (at) return setView({ kind: 'differs', name, run: r.run, at });
    if (!(await open(r.run))) fail(CODEC_MISSING);
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file) void read(file);
  };

  return (
    <div
      className="export-import"
      data-dragging={dragging || undefined}
      data-testid="trace-drop"
      onDragOver={(e) => {
        if (!e.dataTransfer.types.includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <label htmlFor={inputId}>Open a trace file (JSON)</label>
      <input
        id={inputId}
        type="file"
        accept=".json,application/json"
        onChange={(e) => {
          const file = e.currentTarget.files?.[0];
          e.currentTarget.value = ''; // choosing the same file again still triggers a change
          if (file) void read(file);
        }}
      />
      <p className="hint">
        Or drop one here. It replays the run and opens it at the saved moment, like a shared link; a real
        run&apos;s trace opens as the recording it is.
      </p>
      <ImportMessage view={view} setView={setView} />
    </div>
  );
}

function ImportMessage({ view, setView }: { view: View; setView: (v: View) => void }) {
  if (view.kind === 'idle') return null;
  if (view.kind === 'checking') {
    return (
      <p role="status" className="export-status">
        Checking {view.name}…
      </p>
    );
  }
  if (view.kind === 'problems') {
    return (
      <div role="alert" className="banner banner-warn export-problems" data-testid="import-problems">
        <p>{view.name} could not be opened; the lab is unchanged:</p>
        <ul>
          {view.problems.slice(0, 20).map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
        {view.problems.length > 20 && <p>…and {view.problems.length - 20} more.</p>}
      </div>
    );
  }
  return (
    <div role="alert" className="banner banner-warn export-problems" data-testid="import-problems">
      {view.run.retired ? (
        <p>
          {view.name} was made with the lab&apos;s first model (a Raft election with a Kubernetes-timed
          lease), which is retired: replayed under Raft as etcd runs it, it differs from its stored trace
          (first difference at {view.at}).
        </p>
      ) : (
        <p>
          Replaying {view.name} gives a different run from the trace stored in it (first difference at{' '}
          {view.at}): it was probably saved by another version of the lab, or edited.
        </p>
      )}
      <button
        type="button"
        className="btn"
        onClick={() =>
          void open(view.run).then((ok) => {
            if (!ok) setView({ kind: 'problems', name: view.name, problems: [CODEC_MISSING] });
          })
        }
      >
        Open the replay anyway
      </button>
    </div>
  );
}
