// The keyboard help ("?"), from the handler's own table: only what the run offers (offeredShortcuts).
import { useEffect, useRef } from 'react';
import { VIEW_KEYS, type Shortcut } from './shortcuts';

const KEY_NAMES: Record<string, string> = { ' ': 'Space', ArrowRight: '→', ArrowLeft: '←' };
const keyName = (k: string) => KEY_NAMES[k] ?? (k.length === 1 ? k.toUpperCase() : k);

const PRESENT_ROW = { keys: ['Esc'], label: 'Leave the presentation (the run stays where it is)' };

export function HelpOverlay({
  open,
  onClose,
  shortcuts,
  present = false,
}: {
  open: boolean;
  onClose(): void;
  shortcuts: readonly Shortcut[];
  /** In present mode, Esc also leaves the presentation. */
  present?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className="help-overlay"
      aria-labelledby="help-title"
      onClose={onClose}
      data-testid="help-overlay"
    >
      <h2 id="help-title">Keyboard</h2>
      <table>
        <tbody>
          {[...shortcuts, ...VIEW_KEYS, ...(present ? [PRESENT_ROW] : [])].map((s) => (
            <tr key={s.label}>
              <td>
                {s.keys.map((k) => (
                  <kbd key={k}>{keyName(k)}</kbd>
                ))}
              </td>
              <td>{s.label}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form method="dialog">
        <button type="submit" className="btn">
          Close
        </button>
      </form>
    </dialog>
  );
}
