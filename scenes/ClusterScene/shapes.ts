// The shapes the motion layer paints, all its worker needs (importing the engine would load its tables).
import type { MessageKindInfo } from '../../src/engine';
import { NODE_R } from './layout';

/** The lease arc's radius around a node. */
export const ARC_R = NODE_R + 7;

export type Family = MessageKindInfo['family'];

/** Dot kinds in drawing order (later on top): routine streams, election traffic, storage's, then dropped. */
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
