// The scenes a person can export, and where each one is on the page. Kept in one place so a
// renamed scene class breaks one line here (and the export spec) rather than the panel.

export interface ExportScene {
  /** Used in file names. */
  id: string;
  /** Reads after "Export the ...". */
  name: string;
  selector: string;
  /** HTML scenes export as SVG through a foreignObject (see sceneSvg.ts). */
  html: boolean;
}

export const EXPORT_SCENES: readonly ExportScene[] = [
  { id: 'cluster', name: 'cluster stage', selector: '.cluster-svg', html: false },
  { id: 'leader-count', name: 'leader_count chart', selector: '.metric-svg', html: false },
  { id: 'lease-ring', name: 'lease ring', selector: '.chain-ring', html: false },
  { id: 'chain', name: 'fencing chain', selector: '.chain-scene', html: true },
  { id: 'failover', name: 'failover timeline', selector: '.failover-scene', html: true },
];

/** The scene inside this lab (several labs can share a page), or null when it is not shown. */
export function findScene(scene: ExportScene, within: Element | null): Element | null {
  const lab = within?.closest('.lab') ?? document;
  return lab.querySelector(scene.selector);
}
