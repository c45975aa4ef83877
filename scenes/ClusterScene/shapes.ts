// The kinds of shape the stage's motion layer paints: what the canvas's worker needs, and nothing
// more (it must not import the engine: the algorithms' tables would ride along into its script).
import type { MessageKindInfo } from '../../src/engine';
import { NODE_R } from './layout';

/** The lease arc's radius around a node. */
export const ARC_R = NODE_R + 7;

export type Family = MessageKindInfo['family'];

/**
 * Message dot kinds in drawing order (later on top): one per family (routine streams, then the election's
 * traffic, then storage's writes and verdicts), and the dropped ones.
 */
export const DOT_KINDS = [
  'ack',
  'heartbeat',
  'request',
  'grant',
  'announce',
  'write',
  'reject',
  'dropped',
] as const satisfies readonly (Family | 'dropped')[];
export type DotKind = (typeof DOT_KINDS)[number];
