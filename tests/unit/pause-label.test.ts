// The node panel's pause buttons are measured against what the run's own algorithm waits out
// before replacing a silent leader, named by its own name: a Kubernetes Lease, Raft's randomized
// election timeout, a session's TTL or timeout, a coordinator timeout. Never "the lease" where
// there is none, and the lengths follow the run's settings (a real run's TTL is its own).
import { describe, expect, it } from 'vitest';
import { nodeActions, pauseLengths } from '../../src/app/controls/nodeActions';
import { ALGORITHM_KINDS, pageOf, parseExperiment, type Experiment } from '../../src/engine';

const experiment = (input: object): Experiment => {
  const r = parseExperiment(input);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.experiment;
};

const node = { id: 'n1', alive: true, paused: false, witness: false } as Parameters<typeof nodeActions>[0];
const pauses = (input: object) =>
  nodeActions(node, experiment(input), ['kill', 'pause'])
    .filter((a) => a.id.startsWith('pause'))
    .map((a) => [a.label, a.name]);

describe('pause buttons against what the algorithm waits out', () => {
  it("names each algorithm's own lease or timeout, with its settings' numbers", () => {
    expect(pauseLengths(experiment({ algorithm: 'k8s-lease' })).against).toBe('the Lease (15 s)');
    expect(pauseLengths(experiment({ raft: { heartbeatMs: 1000, electionTimeoutMs: 5000 } })).against).toBe(
      'the election timeout (5-10 s)',
    );
    expect(pauseLengths(experiment({ algorithm: 'etcd-election', etcd: { ttlMs: 5000 } })).against).toBe(
      'the session TTL (5 s)',
    );
    expect(pauseLengths(experiment({ algorithm: 'zookeeper' })).against).toBe('the session timeout (10 s)');
    expect(pauseLengths(experiment({ algorithm: 'redis-sentinel' })).against).toBe(
      'the down-after period (30 s)',
    );
    expect(pauseLengths(experiment({ algorithm: 'pacemaker' })).against).toBe('the token timeout (3 s)');
    expect(pauseLengths(experiment({ algorithm: 'bully' })).against).toBe('the coordinator timeout (4 s)');
    expect(pauseLengths(experiment({ algorithm: 'ring' })).against).toBe('the coordinator timeout (4 s)');
  });

  it("offers the card's 5 s and 30 s against a 15 s Lease, and Raft's own against its timeout", () => {
    expect(pauses({ algorithm: 'k8s-lease' })).toEqual([
      ['Pause 5 s', 'Pause n1 for 5 s, shorter than the Lease (15 s)'],
      ['Pause 30 s', 'Pause n1 for 30 s, longer than the Lease (15 s)'],
    ]);
    expect(pauses({ raft: { heartbeatMs: 1000, electionTimeoutMs: 5000 } })).toEqual([
      ['Pause 1.7 s', 'Pause n1 for 1.7 s, shorter than the election timeout (5-10 s)'],
      ['Pause 20 s', 'Pause n1 for 20 s, longer than the election timeout (5-10 s)'],
    ]);
    // etcd's own Raft timing (1 s, drawn up to 2 s): a third of a second, and four seconds.
    expect(pauses({}).map(([label]) => label)).toEqual(['Pause 0.3 s', 'Pause 4 s']);
  });

  it.each(ALGORITHM_KINDS)(
    '%s: the short pause is within every wait, the long one past the longest',
    (kind) => {
      const e = experiment({ algorithm: kind });
      const p = pauseLengths(e);
      const wait = pageOf(e).expiry(e);
      expect(p.shortMs).toBeGreaterThan(0);
      expect(p.shortMs).toBeLessThan(wait.ms);
      expect(p.longMs).toBeGreaterThan(wait.maxMs);
      expect(p.against).toContain(wait.name);
    },
  );
});
