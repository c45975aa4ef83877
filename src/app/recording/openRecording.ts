// How an import (TraceImport.tsx) hands a real run's recording to the page (App.tsx), which it replaces in
// place: its events are far more than a URL carries.
import { createContext } from 'react';
import type { RecordingBackend } from '../../store/backends/recordingBackend';

export interface OpenedRecording {
  /** Tells one import from the next, so the page builds the new one afresh. */
  id: number;
  name: string;
  /** The recording, folded once already (at the moment the file was saved at). */
  backend: RecordingBackend;
}

/** Null where no page hosts recordings. */
export const OpenRecording = createContext<((r: OpenedRecording) => void) | null>(null);
