// The deflate codec behind run links (fflate), loaded apart from the page: its module builds its Huffman
// tables as it loads, a task that neither a first visit nor an embed without a run link needs. It loads
// before the page starts only for a `?run=` URL; otherwise when a link is made ("Copy link", "Embed", opening
// a trace file), fetched as the pointer or focus reaches those buttons. Saved sessions are plain JSON.
type Fflate = typeof import('./codecLib');

let lib: Fflate | null = null;
let loading: Promise<Fflate> | null = null;

/** Load the codec (once); resolves when encodeRun and decodeRun can run. */
export function loadCodec(): Promise<Fflate> {
  return (loading ??= import('./codecLib').then(
    (m) => (lib = m),
    (err: unknown) => {
      loading = null; // offline without the chunk cached: a later call tries again
      throw err;
    },
  ));
}

export function codecLoaded(): boolean {
  return lib !== null;
}

/** The loaded codec; calling this before loadCodec() has resolved is a bug in the caller. */
export function codec(): Fflate {
  if (!lib) throw new Error('run links: the codec is used before loadCodec() has finished');
  return lib;
}

/** What a person is told when the codec's chunk could not load (offline, not cached). */
export const CODEC_MISSING =
  'the part of the lab that reads and writes links did not load (offline?); reload to try again';

/** Start fetching the codec when a link looks about to be asked for, so the click need not wait. */
export function prefetchCodec(): void {
  loadCodec().catch(() => undefined); // a failure shows when the link is asked for
}

/** Whether a page's query string carries a run link, so the codec must load before the page reads it. */
export function needsCodec(search: string): boolean {
  return new URLSearchParams(search).has('run');
}
