// How an import hands a real run's recording to the page: the page (App.tsx) provides the door,
// the Export tab's import (TraceImport.tsx) opens it. A recording is no link: it holds the run's
// events, far more than a URL carries, so it replaces the page in place.
import { createContext } from 'react';
import type { RecordingBackend } from '../../store/backends/recordingBackend';

export interface OpenedRecording {
  /** Tells one import from the next, so the page builds the new one afresh. */
  id: number;
  /** The file's name, as the reader chose it. */
  name: string;
  /** The recording, folded once already (at the moment the file was saved at). */
  backend: RecordingBackend;
}

/** Null where no page hosts recordings. */
export const OpenRecording = createContext<((r: OpenedRecording) => void) | null>(null);
