// @vitest-environment jsdom
// Links the page builds to open a scenario: they describe that scenario only. A run link's
// `run` would otherwise win over the scenario (see readPageParams), and setup parameters would
// be ignored by it, so the picker would reopen the same run, or open with a warning.
import { afterEach, describe, expect, it } from 'vitest';
import { scenarioHref } from '../../src/app/guided/ScenarioPicker';
import { readEmbedParams, readPageParams } from '../../src/shared/link';
import { parseExperiment, RAFT_PRESETS } from '../../src/engine';

afterEach(() => window.history.replaceState(null, '', '/'));

describe('scenario links', () => {
  it('from a run link, open the scenario, keeping only how the page is viewed', () => {
    window.history.replaceState(
      null,
      '',
      '/lab/?run=eNqrVkrOz0nNS8_MSy1WsjI0qgUAOWEGHg&seed=4&nodes=7&speed=8&present',
    );
    const href = scenarioHref('kill-leader', 2);
    const q = new URL(href, 'https://example.test').searchParams;
    expect([...q.keys()].sort()).toEqual(['present', 'scenario', 'speed', 'step']);
    const p = readPageParams(new URL(href, 'https://example.test').search);
    expect(p.scenario?.id).toBe('kill-leader');
    expect(p.step).toBe(2);
    expect(p.problems).toEqual([]);
  });

  it('"Free play" leaves the scenario and its step behind', () => {
    window.history.replaceState(null, '', '/?scenario=kill-leader&step=3&speed=2');
    expect(scenarioHref(null)).toBe('/?speed=2');
  });
});

describe('a step without a game day', () => {
  it('names the step as ignored, whether the scenario is missing or unknown', () => {
    expect(readPageParams('?step=2').problems.join('\n')).toMatch(/"step".*needs a scenario/);
    const unknown = readPageParams('?scenario=no-such-day&step=1');
    expect(unknown.scenario).toBeNull();
    expect(unknown.problems.join('\n')).toMatch(/"step".*scenario was not found/);
  });

  it("reads a scenario id in any case, and says a step out of range with the game day's own range", () => {
    expect(readPageParams('?scenario=STEADY-State').scenario?.id).toBe('steady-state');
    for (const step of ['0', '99'])
      expect(readPageParams(`?scenario=steady-state&step=${step}`).problems.join('\n')).toContain(
        `"step" must be a whole number from 1 to 3 (got "${step}"): opened step 1`,
      );
  });
});

describe('the algorithm in a link', () => {
  it("opens the pattern card's Kubernetes Lease when the link asks for no run", () => {
    for (const bare of ['', '?speed=16', '?paused&theme=dark', '?present']) {
      const card = readPageParams(bare);
      expect(card.experiment, bare).toMatchObject({ algorithm: 'k8s-lease', nodes: 5 });
      expect(card.experiment.raft, bare).toBeUndefined();
      const parsed = parseExperiment(card.experiment);
      if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
      // The card's numbers: LeaseDuration 15 s, RenewDeadline 10 s, RetryPeriod 2 s.
      expect(parsed.experiment.lease).toMatchObject({
        durationMs: 15000,
        renewDeadlineMs: 10000,
        retryPeriodMs: 2000,
      });
    }
  });

  it('keeps Raft for a link that names any setup (old links open what they asked for); an embed keeps it too', () => {
    for (const old of [
      '?seed=1',
      '?nodes=5',
      '?clients=0',
      '?algorithm=raft',
      '?step=2',
      '?algorithm=paxos',
    ]) {
      const raft = readPageParams(old);
      expect(raft.experiment.algorithm ?? 'raft', old).toBe('raft');
      expect(raft.experiment, old).toMatchObject({ raft: RAFT_PRESETS.teaching });
      expect(parseExperiment(raft.experiment).ok).toBe(true);
    }
    expect(readEmbedParams('?scene=chain').experiment.algorithm ?? 'raft').toBe('raft');
  });

  it('opens another algorithm with its own timing', () => {
    const zk = readPageParams('?algorithm=zookeeper&nodes=3');
    expect(zk.experiment).toMatchObject({ algorithm: 'zookeeper', nodes: 3 });
    expect(zk.experiment.raft).toBeUndefined();
    expect(zk.problems).toEqual([]);
    expect(parseExperiment(zk.experiment).ok).toBe(true);
  });

  it('names an unknown algorithm and a witness the algorithm has no use for', () => {
    const bad = readPageParams('?algorithm=paxos');
    expect(bad.experiment.algorithm).toBeUndefined();
    expect(bad.problems).toEqual([
      '"algorithm" must be raft, k8s-lease, etcd-election, zookeeper, redis-sentinel, pacemaker, bully or ring (got "paxos"): used raft',
    ]);
    const bully = readPageParams('?algorithm=bully&witness=1');
    expect(bully.experiment).toMatchObject({ algorithm: 'bully' });
    expect(bully.experiment.witness).toBeUndefined();
    expect(bully.problems).toEqual(['"witness" means nothing under the Bully algorithm: ignored']);
    expect(parseExperiment(bully.experiment).ok).toBe(true);
  });
});
