// `npm run explore` (src/cli/explore.ts): once as a real process, the rest through main() in this
// process. Found: the experiment on stdout, exit 0. Nothing: one line, exit 1. Bad input: a
// message naming the field, exit 2, as `npm run sim` does.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseExperiment } from '../../../src/engine';
import { main } from '../../../src/cli/explore';
import { violationsOf } from './helpers';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

async function explore(argv: string[], files: Record<string, string> = {}, stdin = '') {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    readFile: (path) => {
      if (!(path in files)) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
      return files[path];
    },
    readStdin: () => stdin,
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
  });
  return { code, stdout, stderr };
}

const FENCING_OFF = JSON.stringify({ safety: { fencing: false } });

describe('npm run explore', () => {
  it('as a process: prints the minimal failing schedule as an experiment and exits 0', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/explore.ts', '-', '--seed', '3'], {
      cwd: ROOT,
      input: FENCING_OFF,
      encoding: 'utf8',
    });
    expect(r.status).toBe(0);
    const parsed = parseExperiment(JSON.parse(r.stdout));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(violationsOf(parsed.experiment)[0].invariant).toBe('staleWriteAccepted');
    expect(r.stderr).toContain('fencing off:');
    expect(r.stderr).toContain('removing any one of them makes the run pass');
  });

  it('prints the same experiment for the same seed, and says how to keep it', async () => {
    const a = await explore(['setup.json', '--seed', '5'], { 'setup.json': FENCING_OFF });
    const b = await explore(['setup.json', '--seed=5'], { 'setup.json': FENCING_OFF });
    expect(a.code).toBe(0);
    expect(b.stdout).toBe(a.stdout);
    expect(a.stderr).toContain('tests/regressions/staleWriteAccepted--');
    expect(a.stderr).toContain('--seed 5');
  });

  it('nothing found: one line with the schedules tried and the rate, exit 1, nothing on stdout', async () => {
    const r = await explore(['safe.json', '--budget-schedules', '30', '--horizon-ms', '30000'], {
      'safe.json': '{}',
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^nothing found after 30 schedules \([\d,]+ per second\)\n$/);
  });

  it.each([
    [['missing.json'], {}, /^cannot read missing\.json: ENOENT/],
    [['x.json'], { 'x.json': '{ nope' }, /^x\.json is not valid JSON: /],
    [['x.json'], { 'x.json': '{"nodes": 12}' }, /^invalid experiment:\n {2}nodes: /],
    [
      ['x.json'],
      { 'x.json': '{"algorithm": "bully", "witness": true}' },
      /^invalid experiment:\n {2}witness: /,
    ],
    [
      ['x.json'],
      { 'x.json': '{"algorithm": "k8s-lease", "safety": {"quorum": false}}' },
      /^invalid experiment:\n {2}safety\.quorum: means nothing under the /,
    ],
    [['x.json', '--seed', 'abc'], { 'x.json': '{}' }, /^--seed: must be a whole number/],
    [['x.json', '--seed', '99999999999'], { 'x.json': '{}' }, /^--seed: must be an integer/],
    [['x.json', '--budget-ms', '0'], { 'x.json': '{}' }, /^--budget-ms: must be an integer/],
    [['x.json', '--horizon-ms', '5'], { 'x.json': '{}' }, /^--horizon-ms: must be an integer/],
    [['x.json', '--budget-schedules'], { 'x.json': '{}' }, /^--budget-schedules: needs a number/],
    [['x.json', '--colour', 'red'], { 'x.json': '{}' }, /^unknown option --colour\n/],
    [['x.json', '--kinds', 'pause,fly'], { 'x.json': '{}' }, /^--kinds: must be some of kill, /],
    [[], {}, /^no experiment file\n/],
  ])('bad input %j: names it, exit 2', async (argv, files, message) => {
    const r = await explore(argv, files as Record<string, string>);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  it('explores only the kinds of fault asked for', async () => {
    const r = await explore(['b.json', '--kinds', 'partition,heal'], { 'b.json': '{"algorithm": "bully"}' });
    expect(r.code).toBe(0);
    const faults: { do: string }[] = JSON.parse(r.stdout).faults;
    expect(faults.length).toBeGreaterThan(0);
    expect(faults.every((f) => f.do === 'partition' || f.do === 'heal')).toBe(true);
  });

  it("prints an experiment of the file's own algorithm, which replays to the same violation", async () => {
    const setup = '{"algorithm": "k8s-lease", "safety": {"fencing": false}}';
    const r = await explore(['k.json'], { 'k.json': setup });
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout);
    expect(printed.algorithm).toBe('k8s-lease');
    expect(printed.lease).toBeDefined();
    expect(violationsOf(printed)[0]).toMatchObject({ invariant: 'staleWriteAccepted', allowedBy: 'fencing' });
    expect(r.stderr).toMatch(/^fencing off: .* \(breaks "No stale write accepted" at [\d.]+ s\)$/m);
  });

  it("takes a scenario file as its experiment's setup, without the scenario's scripted faults", async () => {
    const scenario = {
      id: 'split',
      title: 'A split',
      experiment: {
        algorithm: 'bully',
        nodes: 4,
        faults: [
          { atMs: 10_000, do: 'partition', groups: [['n1', 'n2']] },
          { atMs: 20_000, do: 'safety', fencing: false },
        ],
        untilMs: 60_000,
      },
      steps: [{ caption: 'split', until: { atMs: 60_000 } }],
    };
    const r = await explore(['s.json', '--kinds', 'isolate'], { 's.json': JSON.stringify(scenario) });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /^scenario "split": exploring its setup; its steps and its 1 scripted fault are left out\n/,
    );
    const printed = JSON.parse(r.stdout);
    expect(printed).toMatchObject({ algorithm: 'bully', nodes: 4 });
    // The switch the scenario turns stays; its partition is gone; only the explorer's isolations remain.
    expect(printed.faults).toContainEqual({ atMs: 20_000, do: 'safety', fencing: false });
    expect(
      printed.faults
        .filter((f: { do: string }) => f.do !== 'safety')
        .every((f: { do: string }) => f.do === 'isolate'),
    ).toBe(true);
    expect(violationsOf(printed)[0].invariant).toBe('oneLeaderPerTerm');
  });

  it('reads the setup from stdin with "-"', async () => {
    const r = await explore(['-', '--budget-schedules', '200'], {}, FENCING_OFF);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).safety.fencing).toBe(false);
  });
});
