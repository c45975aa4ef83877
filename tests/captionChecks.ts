// The tests' checks of the page's words: the facts a sentence it says of a moment states (the
// hint, the safety banner), checked against a snapshot headless (tests/scenes/claims.test.ts) and
// in the page (tests/e2e/claims*.ts), and the numbers a caption's author typed by hand.
import type { Snapshot } from '../src/engine';
import type { ClaimMismatch } from '../src/scenario/claims';

/**
 * The facts a sentence the page says of a moment states (the hint under the stage, the safety
 * banner): both leader_count lines, who believes it leads with which token and whether paused,
 * who leads, whether the cluster is still starting, and the stale writes it counts. Read from the
 * words themselves, so a sentence that goes stale fails its check wherever it came from.
 */
export function statedFacts(text: string): [string, unknown][] {
  const out: [string, unknown][] = [];
  const believed = /believed leader_count (\d+)|observed leader_count \d+, believed (\d+)/.exec(text);
  if (believed) out.push(['leaderCount', Number(believed[1] ?? believed[2])]);
  const observed = /believed leader_count \d+, observed (\d+)|observed leader_count (\d+)/.exec(text);
  if (observed) out.push(['leaderCountObserved', Number(observed[1] ?? observed[2])]);
  if (/(?:^|[^\w])leader_count 0, believed and observed/.test(text))
    out.push(['leaderCount', 0], ['leaderCountObserved', 0]);
  if (/One leader/.test(text)) out.push(['leaderCount', 1], ['leaderCountObserved', 1]);
  if (/^No \w+ yet|Starting:/.test(text)) out.push(['startingUp', true]);
  if (/^No \w+(?: yet)?:/.test(text)) out.push(['leaderCount', 0]);
  for (const m of text.matchAll(/\b(n\d+|w) \([a-zA-Z]+ (\d+)(, paused)?\)/g))
    out.push([`believes.${m[1]}`, { token: Number(m[2]), paused: m[3] !== undefined }]);
  const leads = /^The \w+ is (n\d+|w)\b|^The \w+ (n\d+|w) is GC-paused/.exec(text);
  if (leads) out.push(['leader', leads[1] ?? leads[2]]);
  if (/^The \w+ (n\d+|w) is GC-paused/.test(text)) out.push([`paused.${leads![2]}`, true]);
  const stale = /(\d+) stale writes? accepted|(no) stale write accepted/.exec(text);
  if (stale) out.push(['staleWritesAccepted', stale[2] ? 0 : Number(stale[1])]);
  return out;
}

/** A stated fact's value at this snapshot. */
function factAt(name: string, s: Snapshot): unknown {
  if (name === 'leaderCount') return s.leaderCount;
  if (name === 'leaderCountObserved') return s.leaderCountObserved;
  if (name === 'startingUp') return s.startedAtMs < 0;
  if (name === 'leader') return s.leader?.id ?? null;
  if (name === 'staleWritesAccepted') return s.counters.staleWritesAccepted;
  const [kind, id] = name.split('.');
  const n = s.nodes.find((x) => x.id === id);
  if (kind === 'paused') return n?.paused ?? 'no such node';
  // believes.<id>: alive, believing it leads, with that token.
  return n && n.alive && n.role === 'leader'
    ? { token: n.term, paused: n.paused }
    : 'does not believe it leads';
}

/** The facts a sentence states that do not hold at this snapshot (none: it is true of the moment). */
export function checkStatements(text: string, s: Snapshot): ClaimMismatch[] {
  return statedFacts(text)
    .map(([claim, said]) => ({ claim, said, actual: factAt(claim, s) }))
    .filter((m) => JSON.stringify(m.said) !== JSON.stringify(m.actual));
}

/**
 * Numbers typed into a caption by hand: digits outside every placeholder and node name (n1, m2,
 * s3) that the step does not declare quoted. None should be: a run's figure is a placeholder
 * filled at the pause, a setting a `{setting:path}` filled from the experiment.
 */
export function handTypedNumbers(caption: string, quoted: Record<string, string> = {}): string[] {
  const bare = caption.replace(/\{[a-zA-Z]+(?::[\w.]+)?\}/g, ' ').replace(/\b[a-z]\d+\b/g, ' ');
  return [...bare.matchAll(/\d+(?:\.\d+)?/g)].map((m) => m[0]).filter((n) => !(n in quoted));
}
