// A page's keyboard alone, for jsdom tests: the keys a lab's run offers, the help overlay's list
// and the note a key leaves when it could not act.
import { act } from '@testing-library/react';
import { HelpOverlay } from '../../../src/app/present/HelpOverlay';
import { usePageKeys } from '../../../src/app/present/usePageKeys';
import type { LabStore } from '../../../src/store/labStore';

export function Keys({ store }: { store: LabStore }) {
  const keys = usePageKeys(store, null);
  return (
    <>
      <HelpOverlay open={false} onClose={keys.closeHelp} shortcuts={keys.shortcuts} />
      {keys.keyNote && <p role="alert">{keys.keyNote}</p>}
    </>
  );
}

/** Press a key on the page; whether the page took it (prevented its default). */
export function press(key: string): boolean {
  const e = new KeyboardEvent('keydown', { key, cancelable: true, bubbles: true });
  act(() => void document.dispatchEvent(e));
  return e.defaultPrevented;
}
