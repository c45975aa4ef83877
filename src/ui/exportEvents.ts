// Events an image export sends to the scene it copies, right before and right after the copy.
// A scene that draws part of itself outside its SVG (the stage's moving parts are on a canvas)
// writes those parts into the SVG on BEFORE_EXPORT and takes them out again on AFTER_EXPORT.
export const BEFORE_EXPORT = 'lab:before-export';
export const AFTER_EXPORT = 'lab:after-export';

/** Run `copy` with the scene's exported-only parts in place. */
export function withExportParts<T>(scene: Element, copy: () => T): T {
  scene.dispatchEvent(new Event(BEFORE_EXPORT));
  try {
    return copy();
  } finally {
    scene.dispatchEvent(new Event(AFTER_EXPORT));
  }
}
