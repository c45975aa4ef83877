// Events an image export sends to the scene it copies: a scene that draws parts outside its SVG (the
// stage's canvas) writes them into the SVG on BEFORE_EXPORT and takes them out on AFTER_EXPORT.
export const BEFORE_EXPORT = 'lab:before-export';
export const AFTER_EXPORT = 'lab:after-export';

export function withExportParts<T>(scene: Element, copy: () => T): T {
  scene.dispatchEvent(new Event(BEFORE_EXPORT));
  try {
    return copy();
  } finally {
    scene.dispatchEvent(new Event(AFTER_EXPORT));
  }
}
