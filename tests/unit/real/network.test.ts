// The partition model of a real run (the engine's): groups, isolate, the storage's side, and
// candidates cut from their own member.
import { describe, expect, it } from 'vitest';
import { NetworkPlan } from '../../../src/real/model/network';

describe('network plan', () => {
  it('isolate puts the host alone and keeps the rest together, as the engine does', () => {
    const n = new NetworkPlan(['n1', 'n2', 'n3']);
    n.isolate('n2');
    expect(n.partition).toEqual([['n2'], ['n1', 'n3']]);
    expect(n.hostsCut('n1', 'n2')).toBe(true);
    expect(n.hostsCut('n1', 'n3')).toBe(false);
    // The storage, named in no group, stays reachable from every host.
    expect(['n1', 'n2', 'n3'].map((h) => n.storageCut(h))).toEqual([false, false, false]);
    n.isolate('n3');
    expect(n.partition).toEqual([['n3'], ['n2'], ['n1']]);
  });

  it('hosts named in no group form one group; the storage is reachable only from its own group', () => {
    const n = new NetworkPlan(['n1', 'n2', 'n3']);
    n.setPartition([['n1', 'storage']]);
    expect(n.partition).toEqual([
      ['n1', 'storage'],
      ['n2', 'n3'],
    ]);
    expect(n.hostsCut('n2', 'n3')).toBe(false);
    expect(['n1', 'n2', 'n3'].map((h) => n.storageCut(h))).toEqual([false, true, true]);
  });

  it('cuts a candidate from its member, and heal ends every cut', () => {
    const n = new NetworkPlan(['n1', 'n2', 'n3']);
    expect(n.heal()).toBe(false);
    n.cutCandidate('n1');
    expect(n.etcdLinkCut('n1')).toBe(true);
    expect(n.hostsCut('n1', 'n2')).toBe(false);
    n.isolate('n3');
    expect(n.heal()).toBe(true);
    expect(n.etcdLinkCut('n1')).toBe(false);
    expect(n.partition).toBeNull();
  });
});
