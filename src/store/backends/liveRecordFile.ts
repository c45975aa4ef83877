// A real run's recording in a trace file: the Export tab adds it (as `real`) beside the engine-shaped trace,
// and an import opens it as the recording it is (recordingBackend.ts), folded again by the live page's fold;
// a re-simulation would be another run. Reading never throws: each bad field is a problem naming its path.
import { INVARIANT_TITLES, type InvariantName } from '../../engine';
import { z } from '../../engine/schemaKit';
import { parseRealCommand } from '../../real/model/commands';
import { REAL_FIELDS, type KeepAliveReport, type RealEvent } from '../../real/model/events';
import { checkSettings, DEFAULT_SETTINGS, type RunSettings } from '../../real/model/settings';
import { MAX_RECORDED, type LiveRecording } from './liveRecording';

export interface RealRecord {
  /** The run's settings, as `npm run lab:real` started it. */
  settings: RunSettings;
  /** The run's start on the wall clock (epoch ms): every time in the recording is ms since it. */
  startedAtEpochMs: number;
  /** How far the recording reaches: the run's clock when it was exported, in run ms. */
  untilMs: number;
  /** Where events held begin: 0, or later once the page folded its oldest (MAX_RECORDED); not refoldable. */
  fromMs: number;
  /** Every event the page received, in the order the run emitted them. */
  events: RealEvent[];
  /** Every answered keep-alive (the leader's renewal latency is folded from them). */
  keepAlives: KeepAliveReport[];
}

/** The recording as a file carries it. */
export function realRecordOf(
  recording: LiveRecording,
  settings: RunSettings,
  startedAtEpochMs: number,
  untilMs: number,
): RealRecord {
  return {
    settings,
    startedAtEpochMs: Math.round(startedAtEpochMs),
    untilMs: Math.max(0, Math.round(untilMs)),
    ...recording.held(),
  };
}

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
type Check = { safeParse(v: unknown): { success: boolean } };
const is = (c: Check, v: unknown) => c.safeParse(v).success;
const str = z.string();
const num = z.number();
const bool = z.boolean();
const time = z.number().check(z.minimum(0));

/** The fields each event of a real run must have (src/real/events.ts), beyond atMs and type. */
const FIELDS: Record<Exclude<RealEvent['type'], 'fault'>, Record<string, Check>> = {
  campaign: { node: str, term: num, preVote: bool, transfer: bool },
  elected: { node: str, term: num, votes: z.array(str) },
  ready: { node: str, term: num },
  steppedDown: { node: str, term: num, reason: str },
  write: {
    node: str,
    token: num,
    result: z.enum(['accepted', 'rejected']),
    maxTokenSeen: num,
    stale: bool,
    kind: z.enum(['claim', 'leader', 'client', 'manual']),
  },
  violation: { invariant: z.enum(Object.keys(INVARIANT_TITLES) as InvariantName[]), detail: str },
  ...REAL_FIELDS,
};

/** The first problem with one recorded event, or null. */
function eventProblem(e: unknown, nodes: number): string | null {
  if (!isObject(e)) return 'must be an event object';
  if (!is(time, e.atMs)) return 'atMs: must be a time in ms, 0 or more';
  if (e.type === 'fault') {
    if (!isObject(e.fault)) return 'fault: must be the command applied';
    const { atMs, ...command } = e.fault;
    if (!is(time, atMs)) return 'fault.atMs: must be a time in ms, 0 or more';
    const c = parseRealCommand(command, nodes);
    if (!c.ok) return `fault${c.error.field ? '.' + c.error.field : ''}: ${c.error.message}`;
    if (!is(z.optional(str), e.target)) return 'target: must be a host or left out';
    if (!is(z.optional(bool), e.skipped)) return 'skipped: must be true, false or left out';
    return null;
  }
  const fields = FIELDS[e.type as keyof typeof FIELDS];
  if (typeof e.type !== 'string' || !fields) return `type: not an event of a real run (${String(e.type)})`;
  for (const [k, check] of Object.entries(fields)) if (!is(check, e[k])) return `${k}: missing or malformed`;
  return null;
}

function readSettings(raw: unknown, problems: string[]): RunSettings | null {
  if (!isObject(raw)) {
    problems.push('real.settings: must be the run settings');
    return null;
  }
  // The fields of the defaults' kinds; the bounds have their own range, below.
  const bounds = ['maxEvents', 'maxSamples'];
  const fields = (kind: string) =>
    Object.keys(DEFAULT_SETTINGS).filter(
      (k) => typeof DEFAULT_SETTINGS[k as keyof RunSettings] === kind && !bounds.includes(k),
    );
  const before = problems.length;
  for (const k of fields('number'))
    if (!is(num, raw[k])) problems.push(`real.settings.${k}: must be a number`);
  for (const k of fields('boolean'))
    if (!is(bool, raw[k])) problems.push(`real.settings.${k}: must be true or false`);
  if (!is(z.nullable(num), raw.renewDeadlineMs))
    problems.push('real.settings.renewDeadlineMs: must be a number or null');
  // They bound what the page keeps of the recording's events and samples.
  for (const k of bounds)
    if (!is(z.int().check(z.minimum(1), z.maximum(1_000_000)), raw[k]))
      problems.push(`real.settings.${k}: must be a whole number from 1 to 1000000`);
  if (problems.length > before) return null;
  const settings = raw as unknown as RunSettings;
  problems.push(...checkSettings(settings).map((p) => `real.settings.${p}`));
  return problems.length > before ? null : settings;
}

/** The recording in a file's `real` section, checked field by field; null with problems when unusable. */
export function readRealRecord(raw: unknown, problems: string[]): RealRecord | null {
  if (!isObject(raw)) {
    problems.push('real: must be the recording of a real run');
    return null;
  }
  if (raw.events === undefined && isObject(raw.settings) && raw.etcdVersion !== undefined) {
    problems.push(
      "real: this is the run's own trace file (npm run real -- --trace, or the bridge's /trace), which keeps no keep-alives; open the trace the page exports in real mode (its Export tab)",
    );
    return null;
  }
  const before = problems.length;
  const settings = readSettings(raw.settings, problems);
  if (!is(time, raw.startedAtEpochMs))
    problems.push('real.startedAtEpochMs: must be the run start, in epoch ms');
  if (!is(time, raw.untilMs)) problems.push('real.untilMs: must be a time in ms, 0 or more');
  if (raw.fromMs !== undefined && raw.fromMs !== 0)
    problems.push(
      `real.fromMs: the page no longer held the recording's first ${Math.round(Number(raw.fromMs) / 1000)} s (it keeps ${MAX_RECORDED} events), so it cannot be folded from its start`,
    );
  for (const key of ['events', 'keepAlives'] as const) {
    const list = raw[key];
    if (!Array.isArray(list)) problems.push(`real.${key}: must be a list`);
    else if (list.length > MAX_RECORDED)
      problems.push(`real.${key}: at most ${MAX_RECORDED} (got ${list.length})`);
  }
  if (problems.length > before || !settings) return null;
  const events = raw.events as unknown[];
  for (const [i, e] of events.entries()) {
    const p = eventProblem(e, settings.nodes);
    if (p && problems.push(`real.events.${i}.${p}`) >= before + 20) break;
  }
  for (const [i, k] of (raw.keepAlives as unknown[]).entries()) {
    const ok =
      isObject(k) && is(time, k.atMs) && k.type === 'keepAlive' && is(str, k.node) && is(num, k.rttMs);
    if (
      !ok &&
      problems.push(`real.keepAlives.${i}: must be { atMs, type: "keepAlive", node, rttMs }`) >= before + 20
    )
      break;
  }
  if (problems.length > before) return null;
  return {
    settings,
    startedAtEpochMs: raw.startedAtEpochMs as number,
    untilMs: raw.untilMs as number,
    fromMs: 0,
    events: events as RealEvent[],
    keepAlives: raw.keepAlives as KeepAliveReport[],
  };
}
