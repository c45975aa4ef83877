// The pure half of `npm run fidelity`: the faults it compares, each side's distribution, real trials compared
// with simulated ones, the printed report. No processes, no clocks: unit tests run it on numbers.

export interface FaultInfo {
  id: FaultId;
  title: string;
  /** What one trial measures, from when to when. */
  metric: string;
  unit: 'ms' | 'terms';
  /** The issue's goal: medians within 20% of each other. */
  medianGoal: boolean;
}

const RAFT_LEADER = 'from the kill to another member becoming raft leader';
const ELECTED = 'from SIGSTOP to another candidate being elected';
const HEAL_TERMS = "the raft leader's term after the heal minus its term before";

/** A fault's words; only the four faults of the issue's goal have medianGoal; the heals count terms. */
const fault = (title: string, metric: string, medianGoal = false) => ({
  title,
  metric,
  unit: metric === HEAL_TERMS ? ('terms' as const) : ('ms' as const),
  medianGoal,
});

/** Every fault, in the report's order. */
const ABOUT = {
  'raft-kill-fast': fault(
    'kill -9 the raft leader, heartbeat 20 ms, election timeout 200 ms (pre-vote on)',
    RAFT_LEADER,
    true,
  ),
  'raft-kill': fault(
    "kill -9 the raft leader at etcd's defaults, 100/1000 ms (pre-vote on)",
    RAFT_LEADER,
    true,
  ),
  'pause-ttl5': fault('pause the application leader past its TTL: TTL 5 s, paused 8 s', ELECTED, true),
  'pause-ttl15': fault('pause the application leader past its TTL: TTL 15 s, paused 18 s', ELECTED, true),
  'pause-short': fault(
    'pause the application leader 1 s, shorter than its renew deadline (TTL 5 s, deadline 3 s)',
    "the leader's longest gap between answered keep-alives",
  ),
  isolate: fault(
    "isolate the raft leader's member from its peers, 100/1000 ms (pre-vote on)",
    'from the cut to another member becoming raft leader',
  ),
  'heal-prevote-off': fault(
    'isolate a raft follower 5 election timeouts, then heal, pre-vote off (100/1000 ms)',
    HEAL_TERMS,
  ),
  'heal-prevote-on': fault(
    'isolate a raft follower 5 election timeouts, then heal, pre-vote on (100/1000 ms)',
    HEAL_TERMS,
  ),
  'raft-kill-under-lease': fault(
    "kill -9 the raft leader (not the application leader's own member) under an application lease: TTL 5 s, renew deadline 3 s, 100/1000 ms",
    "the application leader's longest gap between answered keep-alives",
  ),
};

export type FaultId = keyof typeof ABOUT;
export const FAULT_IDS = Object.keys(ABOUT) as FaultId[];

export const FAULTS = Object.fromEntries(FAULT_IDS.map((id) => [id, { id, ...ABOUT[id] }])) as Record<
  FaultId,
  FaultInfo
>;

/** One trial of one side: the measured value and what happened, in words both sides share. */
export interface Trial {
  value: number;
  outcome: string;
}

export interface Distribution {
  n: number;
  min: number;
  median: number;
  p90: number;
  max: number;
}

/** min / median / p90 / max; the median of an even count is the mean of the middle two, p90 the nearest rank. */
export function distribution(values: number[]): Distribution | null {
  if (values.length === 0) return null;
  if (values.some((v) => !Number.isFinite(v))) throw new Error('distribution: values must be finite numbers');
  const s = [...values].sort((a, b) => a - b);
  const n = s.length;
  const median = n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  const p90 = s[Math.max(0, Math.ceil(0.9 * n) - 1)];
  return { n, min: s[0], median, p90, max: s[n - 1] };
}

/** How many trials ended each way, most common first (ties by name, so the order is stable). */
export function outcomeCounts(trials: Trial[]): { outcome: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const t of trials) counts.set(t.outcome, (counts.get(t.outcome) ?? 0) + 1);
  return [...counts.entries()]
    .map(([outcome, count]) => ({ outcome, count }))
    .sort((a, b) => b.count - a.count || a.outcome.localeCompare(b.outcome));
}

export interface Comparison {
  fault: FaultInfo;
  real: Distribution | null;
  sim: Distribution | null;
  /** median sim / median real; null when either is missing or the real median is 0. */
  ratio: number | null;
  /** For a fault with the median goal: the ratio within 0.8..1.2. Null without the goal. */
  withinGoal: boolean | null;
  realOutcomes: { outcome: string; count: number }[];
  simOutcomes: { outcome: string; count: number }[];
  /**
   * The mechanism agrees when both sides' most common outcome is the same (a noisy real trial that went the
   * other way shows in the counts but does not flip the verdict); a tie for most common agrees with either.
   */
  mechanismAgrees: boolean;
}

const MEDIAN_TOLERANCE = 0.2;

/** The outcomes tied for most common (counts sorted most common first). */
function mostCommon(counts: { outcome: string; count: number }[]): string[] {
  return counts.filter((c) => c.count === counts[0].count).map((c) => c.outcome);
}

export function compare(fault: FaultInfo, real: Trial[], sim: Trial[]): Comparison {
  const r = distribution(real.map((t) => t.value));
  const s = distribution(sim.map((t) => t.value));
  const ratio = r && s && r.median !== 0 ? s.median / r.median : null;
  const realOutcomes = outcomeCounts(real);
  const simOutcomes = outcomeCounts(sim);
  return {
    fault,
    real: r,
    sim: s,
    ratio,
    withinGoal: fault.medianGoal ? ratio !== null && Math.abs(ratio - 1) <= MEDIAN_TOLERANCE + 1e-9 : null,
    realOutcomes,
    simOutcomes,
    mechanismAgrees: mostCommon(realOutcomes).some((o) => mostCommon(simOutcomes).includes(o)),
  };
}

function num(v: number, unit: FaultInfo['unit']): string {
  return unit === 'ms' ? `${Math.round(v)} ms` : `${Number(v.toFixed(1))}`;
}

function formatDistribution(d: Distribution | null, unit: FaultInfo['unit']): string {
  if (!d) return 'no trials';
  const parts = [d.min, d.median, d.p90, d.max].map((v) => num(v, unit).replace(/ ms$/, ''));
  return `${parts.join(' / ')}${unit === 'ms' ? ' ms' : ' terms'} (n=${d.n})`;
}

function formatOutcomes(o: { outcome: string; count: number }[]): string {
  const total = o.reduce((a, x) => a + x.count, 0);
  return o.map((x) => `${x.count}/${total} ${x.outcome}`).join('; ');
}

/** The plain-text block the CLI prints for one fault. */
export function formatComparison(c: Comparison): string {
  const ratio = c.ratio === null ? 'n/a' : c.ratio.toFixed(2);
  const goal = c.withinGoal === null ? '' : c.withinGoal ? ' (within 20%: yes)' : ' (within 20%: NO)';
  return [
    `${c.fault.id}: ${c.fault.title}`,
    `  measured: ${c.fault.metric}; min / median / p90 / max`,
    `  real: ${formatDistribution(c.real, c.fault.unit)}`,
    `  sim:  ${formatDistribution(c.sim, c.fault.unit)}`,
    `  ratio (median sim / real): ${ratio}${goal}`,
    `  mechanism: ${c.mechanismAgrees ? 'agrees' : 'DISAGREES'}`,
    `    real: ${formatOutcomes(c.realOutcomes) || 'no trials'}`,
    `    sim:  ${formatOutcomes(c.simOutcomes) || 'no trials'}`,
  ].join('\n');
}

function sideRow(c: Comparison, side: 'real' | 'sim'): string {
  const d = c[side];
  const stats = d
    ? [d.n, ...[d.min, d.median, d.p90, d.max].map((v) => num(v, c.fault.unit))]
    : [0, '', '', '', ''];
  return `| ${side} | ${stats.join(' | ')} | ${formatOutcomes(c[`${side}Outcomes`]) || 'no trials'} |`;
}

/** One fault's table and verdicts, in Markdown, as docs/fidelity.md records them. */
export function markdownFault(c: Comparison): string {
  const ratio = c.ratio === null ? 'n/a (a zero median)' : c.ratio.toFixed(2);
  const goal = c.withinGoal === null ? '' : c.withinGoal ? ', within 20%' : ', **not within 20%**';
  return [
    `### \`${c.fault.id}\`: ${c.fault.title}`,
    '',
    `Measured: ${c.fault.metric}.`,
    '',
    '| side | n | min | median | p90 | max | what happened |',
    '| ---- | - | --- | ------ | --- | --- | ------------- |',
    sideRow(c, 'real'),
    sideRow(c, 'sim'),
    '',
    `Median sim / real: ${ratio}${goal}. Mechanism: ${c.mechanismAgrees ? 'agrees' : '**disagrees**'}.`,
  ].join('\n');
}
