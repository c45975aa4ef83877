// The CLI as a user runs it: a real child process, on a file and on stdin, checking the trace
// contract, --summary, and exit status 2 with every bad field named. The rest of its surface is
// checked through main() in this process, which is much cheaper than a process per case.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/sim';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'lel-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the CLI as `npm run sim` does (tsx), feeding stdin; resolves when it exits. */
function sim(args: string[], stdin = ''): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', ...args], { cwd: ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

function file(name: string, content: string): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

// Short runs keep the suite fast; a kill of the leader makes the trace non-trivial.
const experiment = {
  seed: 7,
  nodes: 3,
  untilMs: 40_000,
  faults: [{ atMs: 10_000, do: 'kill', node: 'leader' }],
};

// Each case starts a process (most of its time is Node and tsx starting), so they run concurrently.
describe.concurrent('npm run sim (src/cli/sim.ts) as a process', () => {
  it('prints the trace with the contract fields for a valid experiment file', async () => {
    const r = await sim([file('ok.json', JSON.stringify(experiment))]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const trace = JSON.parse(r.stdout);
    expect(Object.keys(trace)).toEqual(
      expect.arrayContaining(['experiment', 'events', 'samples', 'summary', 'final']),
    );
    // The experiment comes back normalized, defaults filled in.
    expect(trace.experiment).toMatchObject({
      seed: 7,
      nodes: 3,
      raft: { heartbeatMs: 100, electionTimeoutMs: 1000 },
      safety: { quorum: true, fencing: true, followersReject: true, preVote: true, checkQuorum: true },
    });
    const types = new Set(trace.events.map((e: { type: string }) => e.type));
    for (const t of ['fault', 'elected', 'steppedDown', 'write', 'ready']) expect(types).toContain(t);
    for (const e of trace.events) expect(typeof e.atMs).toBe('number');
    expect(trace.samples.length).toBe(40_000 / 100 + 1);
    expect(Object.keys(trace.samples[0])).toEqual(
      expect.arrayContaining([
        'atMs',
        'leaderCount',
        'maxTerm',
        'maxTokenSeen',
        'fencingRejections',
        'staleWritesAccepted',
        'divergentWrites',
        'leaderTransitions',
      ]),
    );
    expect(trace.summary).toMatchObject({ leaderTransitions: 1, maxLeaderCount: 1, violations: [] });
    expect(trace.summary.failovers).toHaveLength(1);
    expect(Object.keys(trace.summary.failovers[0])).toEqual(
      expect.arrayContaining(['lostAtMs', 'detectedAtMs', 'electedAtMs', 'readyAtMs', 'node', 'term']),
    );
    expect(trace.final.nodes.map((n: { id: string }) => n.id)).toEqual(['n1', 'n2', 'n3']);
    expect(Object.keys(trace.final.nodes[0])).toEqual(
      expect.arrayContaining(['id', 'role', 'term', 'votedFor', 'alive', 'paused', 'clockRate']),
    );
    expect(Object.keys(trace.final.storage)).toEqual(['maxTokenSeen', 'accepted', 'rejected']);
  });

  it('reads stdin with "-" and prints only the summary with --summary', async () => {
    const r = await sim(['-', '--summary'], JSON.stringify(experiment));
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary).not.toHaveProperty('events');
    expect(summary).not.toHaveProperty('experiment');
    expect(Object.keys(summary)).toEqual(
      expect.arrayContaining([
        'leaderTransitions',
        'fencingRejections',
        'staleWritesAccepted',
        'divergentWrites',
        'maxLeaderCount',
        'msWithoutLeader',
        'failovers',
        'violations',
      ]),
    );
  });

  it('exits 2 naming each field the schema rejects', async () => {
    const r = await sim(['-'], JSON.stringify({ nodes: 12, seed: -1, faults: [{ atMs: 0, do: 'explode' }] }));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^invalid experiment/);
    expect(r.stderr).toMatch(/^\s+nodes: .*9/m);
    expect(r.stderr).toMatch(/^\s+seed: /m);
    expect(r.stderr).toMatch(/^\s+faults\.0\.do: /m);
  });

  it('exits 2 naming the broken lease rule and a fault on a node the cluster does not have', async () => {
    const bad = {
      algorithm: 'k8s-lease',
      nodes: 3,
      lease: { renewDeadlineMs: 2000 },
      faults: [{ atMs: 0, do: 'kill', node: 'n9' }],
    };
    const r = await sim([file('bad.json', JSON.stringify(bad))]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^\s+lease\.renewDeadlineMs: .*1\.2 x retryPeriodMs/m);
    expect(r.stderr).toMatch(/^\s+faults\.0\.node: .*"n9"/m);
  });

  it('exits 2 on input that is not JSON', async () => {
    const r = await sim(['-'], '{"nodes": ');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/not valid JSON/);
  });
});

// The rest of the command-line surface, through the CLI's main() in this process: the same code
// the process runs, minus a process start per case.
describe('the CLI main()', () => {
  const stdinOf = (text: string) => () => text;

  it('gives the same trace from stdin as from a file', () => {
    const json = JSON.stringify(experiment);
    const fromStdin = main(['-'], stdinOf(json));
    const fromFile = main([file('same.json', json)], stdinOf(''));
    expect(fromStdin.code).toBe(0);
    expect(fromStdin.stdout).toBe(fromFile.stdout);
  });

  it('fills in every default for an empty experiment', () => {
    const r = main(['-', '--summary'], stdinOf('{"untilMs": 5000}'));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).maxLeaderCount).toBe(1);
  });

  it('indents with --pretty', () => {
    const r = main(['-', '--summary', '--pretty'], stdinOf('{"untilMs": 1000}'));
    expect(r.stdout).toMatch(/^\{\n {2}"/);
  });

  it('exits 2 on a lease duration not above the renew deadline', () => {
    const r = main(['-'], stdinOf(JSON.stringify({ algorithm: 'k8s-lease', lease: { durationMs: 10000 } })));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^\s+lease\.durationMs: .*greater than renewDeadlineMs/m);
  });

  it('exits 2 on a file that is not JSON, or missing', () => {
    const broken = main([file('broken.json', 'nodes = 5')], stdinOf(''));
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/not valid JSON/);
    const missing = main([join(dir, 'does-not-exist.json')], stdinOf(''));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read/);
  });

  it('exits 2 with usage on a missing argument or an unknown option; 0 with --help', () => {
    const none = main([], stdinOf(''));
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/usage/);
    const unknown = main(['-', '--sumary'], stdinOf('{}'));
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown option --sumary/);
    const help = main(['--help'], stdinOf(''));
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/usage/);
  });
});
