// Failing schedules the explorer found, kept as regression cases (docs/explorer.md): each file in
// tests/regressions/ is an experiment exactly as `npm run explore` printed it, named
// `<invariant>--<what-it-shows>.json`. Each must still break that invariant first, so an engine
// change cannot quietly lose a failure the lab teaches (or that a fix must still be checked against).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { INVARIANT_TITLES, parseExperiment, runExperiment, type InvariantName } from '../../../src/engine';

const DIR = fileURLToPath(new URL('../../regressions', import.meta.url));
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));

/** The invariant a file's name says it breaks, or null when the name does not follow the rule. */
function invariantOfFile(name: string): InvariantName | null {
  const m = /^([A-Za-z]+)--[\w.-]+\.json$/.exec(name);
  return m && m[1] in INVARIANT_TITLES ? (m[1] as InvariantName) : null;
}

describe('regression cases (tests/regressions/*.json)', () => {
  it('has cases, every one named <invariant>--<what-it-shows>.json', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((f) => invariantOfFile(f) === null)).toEqual([]);
  });

  it.each(files)('%s still breaks its invariant first', (file) => {
    const raw: unknown = JSON.parse(readFileSync(join(DIR, file), 'utf8'));
    const parsed = parseExperiment(raw);
    expect(parsed.ok ? [] : parsed.errors).toEqual([]);
    if (!parsed.ok) return;
    // In the engine's current format, filled in as the explorer prints it: a file written for an
    // older engine (a retired setting, a missing default) is re-derived, not left half-valid.
    expect(raw).toEqual(parsed.experiment);
    const violations = runExperiment(parsed.experiment).summary.violations;
    expect(violations[0]?.invariant, JSON.stringify(violations)).toBe(invariantOfFile(file));
  });

  it('reads the invariant from a name, and refuses names without one', () => {
    expect(invariantOfFile('staleWriteAccepted--gc-pause.json')).toBe('staleWriteAccepted');
    expect(invariantOfFile('gc-pause.json')).toBeNull();
    expect(invariantOfFile('twoLeaders--gc-pause.json')).toBeNull();
  });
});
