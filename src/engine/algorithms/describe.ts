// What the page says of an algorithm: the shape of its description, shared words and readings. Each
// description is part of its algorithm's rules (ElectionAlgorithm.page, in pages/), so a page or an
// embed fetches only its own algorithm's words; `page` is required, so nothing falls back to
// another's. It is read once the rules have loaded (loadLinkScenario, the store's reset); what the
// picker says before any has loaded is picker.ts's.
import { rulesFor } from './index';
import type { Experiment } from '../experiment';

/** The chain's first step: how one leader is chosen (its title is the info's `elects`). */
export interface ElectStep {
  short: string;
  /** What elects, in one line (Raft's is drawn from its votes instead: empty). */
  how: string;
}

/** The chain's second step: what the leader holds and how it keeps it. */
export interface HoldStep {
  title: string;
  short: string;
  text: string;
  /** Whether the lease ring (a Kubernetes lease's dial) belongs under it. */
  ring: boolean;
  /** How a renewal round goes, where the dial's deadline needs it (client-go's). */
  round?: string;
}

export type SafetySwitch = keyof Experiment['safety'];

/** What runs out when the leader goes quiet: the others replace it after that. */
export interface Expiry {
  /** What runs out, with its span: "15 s lease", "5 s election timeout". */
  what: string;
  /** How the leader keeps it: "renews its lease every 2 s". */
  keep: string;
  ms: number;
  /** Its name alone, in its system's words: "Lease", "election timeout", "session TTL". */
  name: string;
  /** The longest the others may wait (ms): Raft's randomized timeout reaches twice its setting; else ms. */
  maxMs: number;
}

/** The renewal latency chart's line: the latency at which the leader stops acting by itself. */
export interface RenewLimit {
  ms: number;
  /** What the line is, in its system's words, with the setting's own value. */
  label: string;
}

export interface AlgorithmPage {
  elect: ElectStep;
  hold(e: Experiment): HoldStep;
  expiry(e: Experiment): Expiry;
  /** Null where the leader never stops by itself for want of renewals. */
  renewLimit(e: Experiment): RenewLimit | null;
  /** What a leader does after "storage refuses n1's write, naming token 1;" (onFenced): most act on. */
  fenced: string;
  /** Why each switch it does not offer is missing (Redis has no token, so no Fencing); others are offered. */
  missing: Partial<Record<SafetySwitch, string>>;
  /** What a network split does while one leader leads: the hint under the stage says it. */
  split: string;
}

/** A span as the page writes it: "15 s", "0.3 s". */
export function formatSpan(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** A time to a tenth of a second, as the log, captions and tools write it: "12.0 s". */
export const formatSeconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** An expiry of `ms`: "<span> <what>", kept as `keep`, waited out at most `maxMs` (Raft's is longer). */
export function expiryOf(ms: number, what: string, keep: string, name = what, maxMs = ms): Expiry {
  return { ms, what: `${formatSpan(ms)} ${what}`, keep, name, maxMs };
}

export function held(title: string, short: string, text: string): HoldStep {
  return { title, short, text, ring: false };
}

/** Raft's own switches, missing under every other algorithm. */
export function raftOnly(title: string): Partial<Record<SafetySwitch, string>> {
  return {
    preVote: `Raft's own: ${title} has no terms for a returning node to raise`,
    checkQuorum: `Raft's own: a ${title} leader has no followers' majority to check`,
  };
}

/** What a split does with a quorum switched on, and with none (Raft's switch off, Bully, the Ring). */
export const SPLIT_WITH_QUORUM = 'only a side with a majority can elect';
export const SPLIT_WITHOUT_QUORUM = 'with no quorum, each side can elect its own';

/** What the page says of the experiment's algorithm, once loaded (loadAlgorithm). */
export function pageOf(e: Pick<Experiment, 'algorithm'>): AlgorithmPage {
  return rulesFor(e.algorithm).page;
}

/** A description's clause as a sentence of its own: capitalised, with its full stop. */
export function sentenceOf(clause: string): string {
  return `${clause.charAt(0).toUpperCase()}${clause.slice(1)}.`;
}

/** Why the experiment's algorithm does not offer this switch, or null: it does. */
export function missingSwitch(e: Pick<Experiment, 'algorithm'>, key: SafetySwitch): string | null {
  return pageOf(e).missing[key] ?? null;
}

/** The experiment's renewal limit, or null (the chart's renewal panel). */
export function renewLimitOf(e: Experiment): RenewLimit | null {
  return pageOf(e).renewLimit(e);
}
