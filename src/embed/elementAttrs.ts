// Which of the element's attributes it keeps for itself rather than passing to the embed page:
// the table's element-only rows (src/shared/params.ts; a unit test holds the two alike) and
// the attributes any HTML element may carry. Kept apart from the table so that the element's
// script stays a few hundred bytes and imports nothing (docs load it as a classic script).
export const OWN_ATTRS: readonly string[] = ['height', 'title'];

export const GLOBAL_ATTR =
  /^(id|class|style|slot|part|hidden|lang|dir|tabindex|is|nonce|translate|inert|autofocus|draggable|spellcheck|contenteditable|enterkeyhint|inputmode|popover|role|on[a-z]+|data-.*|aria-.*)$/i;

/** Whether an attribute of the element becomes a parameter of its frame. */
export function passedOn(name: string): boolean {
  return !OWN_ATTRS.includes(name) && !GLOBAL_ATTR.test(name);
}
