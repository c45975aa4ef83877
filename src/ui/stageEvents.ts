// The stage tells the page around it that it was laid out at a new size (and when it is first
// drawn): a layout that keeps the stage only while its words fit (present mode) measures it again.
export const STAGE_RESIZED = 'lab:stage-resized';
