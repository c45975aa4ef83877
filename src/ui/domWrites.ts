// Cheap writes for the per-frame layer: every attribute write, even of the same value, restyles its element,
// and replacing a text node (textContent) relays out its line, where changing its characters does not.

/** Set an attribute only when its value changes. */
export function setAttr(el: Element, name: string, value: string): void {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

/** Set an element's text by changing its one text node in place. */
export function setText(el: Element, text: string): void {
  const node = el.firstChild;
  if (node && node.nodeType === Node.TEXT_NODE && !node.nextSibling) {
    if ((node as Text).data !== text) (node as Text).data = text;
  } else if (el.textContent !== text) {
    el.textContent = text;
  }
}
