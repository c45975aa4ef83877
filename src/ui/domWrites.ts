// Cheap writes for the per-frame layer, which updates the DOM 60 times a second. Every attribute write,
// even of the same value, has the browser recompute that element's style or layout; replacing a text node
// (textContent) relays out its line, where changing the existing one's characters does not.

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
