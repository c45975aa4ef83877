// Save a file the way a link with `download` does, so it works without any server.

/** Chromium reads the blob after click() returns; revoking at once can cancel the download. */
const REVOKE_AFTER_MS = 60_000;

export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
}

/** "leader-election-cluster-seed1-t33.9s.png": what, which run, and which moment. */
export function exportName(what: string, seed: number, atMs: number, ext: string): string {
  return `leader-election-${what}-seed${seed}-t${(atMs / 1000).toFixed(1)}s.${ext}`;
}
