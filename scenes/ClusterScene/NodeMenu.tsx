// A node's actions (as RaftScope offers them) in a menu beside it, the node panel's own list; arrows move,
// Esc or an action closes it. Drawn over the page: the stage's panel clips overflow, a phone needs room.
import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { createPortal } from 'react-dom';

/** Room kept between the menu and the node, and between the menu and the window's edges. */
const GAP_PX = 8;

const CONTROLS = 'button:not([disabled]), input:not([disabled]), select:not([disabled])';

/** Where the menu goes: beside the node, on whichever side has room, inside the window. */
export function placeMenu(
  node: { left: number; right: number; top: number; bottom: number },
  menu: { width: number; height: number },
  view: { width: number; height: number },
): { left: number; top: number } {
  let left = node.right + GAP_PX;
  if (left + menu.width > view.width - GAP_PX) left = node.left - GAP_PX - menu.width;
  if (left < GAP_PX) left = Math.min(view.width - GAP_PX - menu.width, Math.max(GAP_PX, node.left));
  let top = node.top;
  // Too little room beside the node: under it (or over it), still inside the window.
  if (left < node.right && left + menu.width > node.left) top = node.bottom + GAP_PX;
  if (top + menu.height > view.height - GAP_PX) top = Math.max(GAP_PX, view.height - GAP_PX - menu.height);
  return { left: Math.max(GAP_PX, left), top };
}

interface NodeMenuProps {
  id: string;
  /** The node's glyph on the stage. */
  anchor: Element;
  /** Close the menu; `refocus` gives focus back to the node. */
  onClose(refocus: boolean): void;
  children: ReactNode;
}

export function NodeMenu({ id, anchor, onClose, children }: NodeMenuProps) {
  const menu = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = menu.current;
    if (!el) return;
    const at = placeMenu(
      anchor.getBoundingClientRect(),
      { width: el.offsetWidth, height: el.offsetHeight },
      { width: document.documentElement.clientWidth, height: window.innerHeight },
    );
    // In the page's coordinates: the menu scrolls with the stage.
    el.style.left = `${Math.round(at.left + window.scrollX)}px`;
    el.style.top = `${Math.round(at.top + window.scrollY)}px`;
    el.querySelector<HTMLElement>(CONTROLS)?.focus({ preventScroll: true });
  }, [anchor, id]);
  // A press elsewhere closes it (the node toggles it itself), and so does a resize, which moves the node.
  useEffect(() => {
    const away = (e: PointerEvent) => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !anchor.contains(t)) onClose(false);
    };
    const resize = () => onClose(false);
    document.addEventListener('pointerdown', away);
    window.addEventListener('resize', resize);
    return () => {
      document.removeEventListener('pointerdown', away);
      window.removeEventListener('resize', resize);
    };
  }, [anchor, onClose]);
  const move = (by: number) => {
    const items = [...(menu.current?.querySelectorAll<HTMLElement>(CONTROLS) ?? [])];
    if (!items.length) return;
    const i = items.indexOf(document.activeElement as HTMLElement);
    items[(i + by + items.length) % items.length].focus();
  };
  return createPortal(
    <div
      ref={menu}
      className="node-menu"
      role="dialog"
      aria-label={`Actions for ${id}`}
      data-testid="node-menu"
      onKeyDown={(e) => {
        const field = (e.target as HTMLElement).matches('input, select');
        if (e.key === 'Escape') onClose(true);
        else if (e.key === 'Tab') {
          // Leaving the menu closes it, and Tab goes on from the node.
          onClose(true);
          return;
        } else if (!field && (e.key === 'ArrowDown' || e.key === 'ArrowRight')) move(1);
        else if (!field && (e.key === 'ArrowUp' || e.key === 'ArrowLeft')) move(-1);
        else return;
        e.preventDefault();
      }}
      // Every action closes the menu: a click on a button, a new clock rate.
      onClick={(e) => {
        if ((e.target as Element).closest('button')) onClose(true);
      }}
      onChange={(e) => {
        if ((e.target as Element).matches('select')) onClose(true);
      }}
    >
      <p className="node-menu-title">{id}</p>
      {children}
    </div>,
    document.body,
  );
}
