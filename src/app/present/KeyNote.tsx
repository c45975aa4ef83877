// Why the last key did nothing (usePageKeys' keyNote), shown for a few seconds on every lab page.
export function KeyNote({ note }: { note: string | null }) {
  if (!note) return null;
  return (
    <p className="banner banner-warn key-note" role="alert">
      {note}
    </p>
  );
}
