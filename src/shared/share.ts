// A run in a URL: the setup, its game day (and step), the recorded commands and the moment viewed, as
// deflated JSON in base64url. Decoding never throws: a bad, cut or old link yields readable problems.
import { codec, CODEC_MISSING, codecLoaded } from './codec';
import { parseCommand, parseExperiment, type Experiment, type ExperimentInput } from '../engine';
import type { RecordedCommand } from '../store/backend';

/**
 * 2: each run names its election algorithm (absent: Raft as etcd runs it). 1: the lab's first, retired model
 * (Raft with a Kubernetes-timed lease): it still opens, under Raft without its lease, with a note.
 */
export const SHARE_VERSION = 2;

/** What a run made with the retired model is told when it opens. */
export const RETIRED_MODEL_NOTE =
  "this run was made with the lab's first model (a Raft election with a Kubernetes-timed lease), which is retired: it opens under Raft as etcd runs it, so what happens may differ";

/** Far above any run (2,000 commands: ~200 KB JSON); deflate expands ~1000x: 100 KB could become 100 MB. */
export const MAX_RUN_JSON_BYTES = 1 << 20;
const INFLATE_SLICE_BYTES = 1024;

export interface SharedRun {
  experiment: ExperimentInput;
  /** The game day the run belongs to, and the step shown (zero-based): the receiver gets the narration. */
  scenario?: string;
  step?: number;
  commands: readonly RecordedCommand[];
  /** The moment being viewed, in simulated ms. */
  atMs: number;
  /** What the receiver should be told about how the run opens (a retired model). */
  notes?: readonly string[];
}

function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Inflate at most MAX_RUN_JSON_BYTES; null when the stream holds more. Throws on a broken stream. */
function inflateBounded(bytes: Uint8Array): Uint8Array | null {
  const parts: Uint8Array[] = [];
  let total = 0;
  const inflater = new (codec().Inflate)((chunk) => {
    total += chunk.length;
    if (total <= MAX_RUN_JSON_BYTES) parts.push(chunk);
  });
  // Fed in small slices, so an oversized stream stops after at most ~1 MB more output.
  for (let i = 0; i === 0 || (i < bytes.length && total <= MAX_RUN_JSON_BYTES); i += INFLATE_SLICE_BYTES) {
    inflater.push(bytes.subarray(i, i + INFLATE_SLICE_BYTES), i + INFLATE_SLICE_BYTES >= bytes.length);
  }
  if (total > MAX_RUN_JSON_BYTES) return null;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** Only the fields that differ from the defaults, so links stay short. */
export function experimentDiff(e: Experiment, defaults: Experiment): ExperimentInput {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(e)) {
    const d = (defaults as Record<string, unknown>)[k];
    if (JSON.stringify(v) !== JSON.stringify(d)) out[k] = v;
  }
  return out as ExperimentInput;
}

/** `version` is for tests and for sessions saved before versions: a page writes SHARE_VERSION. */
export function encodeRun(run: SharedRun, version = SHARE_VERSION): string {
  const payload = {
    v: version,
    e: run.experiment,
    ...(run.scenario ? { sc: run.scenario } : {}),
    ...(run.scenario && run.step ? { st: run.step } : {}),
    c: run.commands.map((c) => [c.atMs, c.command]),
    t: Math.round(run.atMs),
  };
  const { deflateSync, strToU8 } = codec();
  return toBase64Url(deflateSync(strToU8(JSON.stringify(payload)), { level: 9 }));
}

export type DecodeResult = { ok: true; run: SharedRun } | { ok: false; problems: string[] };

export function decodeRun(text: string): DecodeResult {
  // The page loads the codec before it reads a run link; it is missing only when its chunk could not load.
  if (!codecLoaded()) return { ok: false, problems: [`"run" could not be read: ${CODEC_MISSING}`] };
  let json: unknown;
  try {
    const bytes = inflateBounded(fromBase64Url(text));
    if (!bytes) return { ok: false, problems: ['"run" is far too large to be a link to a run'] };
    json = JSON.parse(codec().strFromU8(bytes));
  } catch {
    return { ok: false, problems: ['"run" is not a complete link: it may have been cut off when copied'] };
  }
  if (typeof json !== 'object' || json === null) return { ok: false, problems: ['"run" holds no run'] };
  const p = json as { v?: unknown; e?: unknown; sc?: unknown; st?: unknown; c?: unknown; t?: unknown };
  const problems: string[] = [];
  const notes: string[] = [];
  if (p.v === 1) {
    // The retired composite: its lease means nothing under Raft; everything else still reads.
    notes.push(RETIRED_MODEL_NOTE);
    if (typeof p.e === 'object' && p.e !== null) {
      const { lease: _lease, ...rest } = p.e as Record<string, unknown>;
      p.e = rest;
    }
  } else if (p.v !== SHARE_VERSION) {
    return {
      ok: false,
      problems: [
        `"run" was made by another version of the lab (format ${String(p.v)}, this one reads ${SHARE_VERSION})`,
      ],
    };
  }
  const e = parseExperiment(p.e ?? {});
  if (!e.ok) problems.push(...e.errors.map((x) => `run setup: ${x.field}: ${x.message}`));
  const commands: RecordedCommand[] = [];
  if (!Array.isArray(p.c)) problems.push('run commands: not a list');
  else {
    p.c.forEach((entry, i) => {
      const [atMs, cmd] = Array.isArray(entry) ? entry : [undefined, undefined];
      const parsed = parseCommand(cmd);
      if (typeof atMs !== 'number' || !Number.isInteger(atMs) || atMs < 0)
        problems.push(`run commands.${i}: bad time`);
      else if (!parsed.ok)
        problems.push(...parsed.errors.map((x) => `run commands.${i}.${x.field}: ${x.message}`));
      else commands.push({ atMs, command: parsed.command });
    });
  }
  if (typeof p.t !== 'number' || !Number.isFinite(p.t) || p.t < 0) problems.push('run moment: not a time');
  if (p.sc !== undefined && typeof p.sc !== 'string') problems.push('run scenario: not a name');
  if (p.st !== undefined && !(typeof p.st === 'number' && Number.isInteger(p.st) && p.st >= 0))
    problems.push('run scenario: not a step');
  if (problems.length) return { ok: false, problems };
  return {
    ok: true,
    run: {
      experiment: p.e as ExperimentInput,
      ...(typeof p.sc === 'string' ? { scenario: p.sc } : {}),
      ...(typeof p.sc === 'string' && typeof p.st === 'number' ? { step: p.st } : {}),
      commands,
      atMs: Math.round(p.t as number),
      ...(notes.length ? { notes } : {}),
    },
  };
}
