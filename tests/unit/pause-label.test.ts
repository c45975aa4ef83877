// The node panel's pause buttons name how the pause compares with the run's own lease or TTL
// (a real run's TTL is its own, not the simulator's default).
import { describe, expect, it } from 'vitest';
import { leaseLengthMs, versusLease } from '../../src/app/controls/NodePanel';
import { parseExperiment, type Experiment } from '../../src/engine';

const experiment = (input: object): Experiment => {
  const r = parseExperiment(input);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.experiment;
};

describe('pause buttons against the lease', () => {
  it("reads a Kubernetes Lease's duration and an etcd session's TTL; Raft has none", () => {
    expect(leaseLengthMs(experiment({ algorithm: 'k8s-lease' }))).toBe(15000);
    expect(leaseLengthMs(experiment({ algorithm: 'etcd-election', etcd: { ttlMs: 5000 } }))).toBe(5000);
    expect(leaseLengthMs(experiment({}))).toBeNull();
  });
  it('compares the pause with that length', () => {
    expect(versusLease(5000, 15000, 'shorter')).toBe('shorter than the lease');
    expect(versusLease(5000, 5000, 'shorter')).toBe('as long as the lease');
    expect(versusLease(5000, 2000, 'shorter')).toBe('longer than the lease');
    expect(versusLease(30000, 60000, 'longer')).toBe('shorter than the lease');
  });
  it('keeps the teaching words without a lease', () => {
    expect(versusLease(5000, null, 'shorter')).toBe('shorter than the lease');
    expect(versusLease(30000, null, 'longer')).toBe('longer than the lease');
  });
});
