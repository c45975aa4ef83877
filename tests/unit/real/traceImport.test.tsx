// @vitest-environment jsdom
// A real run's trace file in the page: the Export tab's import opens it as the recording it is
// (not a re-simulation of its commands), and on the recording the keys offer time only: nothing
// runs to apply a fault to. The fixture is a trace the page exported in real mode
// (recordingImport.test.ts says how it was made).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { readTraceFile } from '../../../src/app/export/traceFile';
import { TraceImport } from '../../../src/app/export/TraceImport';
import { offeredShortcuts } from '../../../src/app/present/shortcuts';
import { OpenRecording, type OpenedRecording } from '../../../src/app/recording/openRecording';
import { createLabStore } from '../../../src/store/labStore';
import { RecordingBackend } from '../../../src/store/backends/recordingBackend';
import { Keys, press } from './keysHarness';

afterEach(cleanup);

// (Read by path: this file's environment has the browser's URL, which Node's fs does not take.)
const FIXTURE = join(dirname(fileURLToPath(import.meta.url)), 'fixtures', 'real-run-trace.json');

describe("the keys on a real run's recording", () => {
  it("offer no fault on a real run's recording: time only", () => {
    const run = readTraceFile(readFileSync(FIXTURE, 'utf8'));
    if (!run.ok) throw new Error(run.problems.join('\n'));
    const b = new RecordingBackend(run.run.real!, run.run.atMs);
    const store = createLabStore({ experiment: b.experiment, makeBackend: () => b, playing: false });
    expect(offeredShortcuts(b.can, false).map((s) => s.keys[0])).toEqual([' ', 'ArrowRight', 'ArrowLeft']);
    render(<Keys store={store} />);
    expect(press('k')).toBe(false);
    expect(store.getState().snapshot.nodes.find((n) => n.id === 'n1')?.alive).toBe(true);
  });
});

describe("the Export tab's import of a real run's trace", () => {
  it('opens it as the recording it is, at its saved moment, with no replay of its commands', async () => {
    const text = readFileSync(FIXTURE, 'utf8');
    const opened: OpenedRecording[] = [];
    render(
      <OpenRecording.Provider value={(r) => opened.push(r)}>
        <TraceImport />
      </OpenRecording.Provider>,
    );
    const input = screen.getByLabelText('Open a trace file (JSON)') as HTMLInputElement;
    const file = new File([text], 'real-run.json', { type: 'application/json' });
    Object.defineProperty(input, 'files', { value: [file], configurable: true });
    fireEvent.change(input);
    await waitFor(() => expect(opened).toHaveLength(1));
    const { name, backend } = opened[0];
    expect(name).toBe('real-run.json');
    expect(backend).toBeInstanceOf(RecordingBackend);
    expect(backend.nowMs).toBe(JSON.parse(text).atMs);
    expect(screen.queryByTestId('import-problems')).toBeNull();
  });
});
