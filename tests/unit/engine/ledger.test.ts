// The failover ledger's cause for a change of leader with no loss noticed: it must say what was
// true at the election, whether another node still believed it led or none did.
import { describe, expect, it } from 'vitest';
import {
  countLeaders,
  createLedger,
  noteCampaign,
  noteElected,
  noteFault,
  noteLost,
} from '../../../src/engine/ledger';
import { monitorEvents } from '../../engineChecks';
import type { SimEvent } from '../../../src/engine';

/** A ledger past start-up: n1 elected at 1 s and counted as the one leader. */
function started() {
  const l = createLedger();
  noteElected(l, 1000, 'n1', 1, 'n1');
  countLeaders(l, 1000, 1, 1);
  return l;
}

describe('the cause of a failover with no loss noticed', () => {
  it('a leader gone unnoticed (no one believes it leads): won with no leader in office', () => {
    const l = started();
    noteFault(l, 10_000);
    // The leader left office with no `lost` (as a recorded run may show it): no one believes.
    countLeaders(l, 10_000, 0, 0);
    noteCampaign(l, 12_000);
    noteElected(l, 12_500, 'n2', 2, 'n2');
    expect(l.failovers).toEqual([
      expect.objectContaining({
        from: null,
        lostAtMs: 10_000,
        node: 'n2',
        cause: 'won with no leader in office',
      }),
    ]);
  });

  it('a split brain (the old leader still believes it leads): won while another node still believed it led', () => {
    const l = started();
    noteFault(l, 10_000);
    noteCampaign(l, 12_000);
    noteElected(l, 12_500, 'n2', 2, 'n2');
    expect(l.failovers[0]).toMatchObject({
      from: null,
      cause: 'won while another node still believed it led',
    });
  });

  it('a noticed loss keeps its own cause', () => {
    const l = started();
    noteLost(l, 10_000, 'n1', 'killed');
    countLeaders(l, 10_000, 0, 0);
    noteElected(l, 12_500, 'n2', 2, 'n2');
    expect(l.failovers[0]).toMatchObject({ from: 'n1', cause: 'killed' });
  });
});

describe('in a run', () => {
  it('a recorded run whose leader is killed with no lost event: the monitor says no leader was in office', () => {
    const events = [
      { atMs: 1000, type: 'elected', node: 'n1', term: 1, votes: ['n1', 'n2'] },
      { atMs: 10_000, type: 'fault', fault: { atMs: 10_000, do: 'kill', node: 'n1' }, target: 'n1' },
      { atMs: 10_000, type: 'steppedDown', node: 'n1', term: 1, reason: 'killed' },
      { atMs: 12_000, type: 'campaign', node: 'n2', term: 2, preVote: false, transfer: false },
      { atMs: 12_500, type: 'elected', node: 'n2', term: 2, votes: ['n2', 'n3'] },
    ] as SimEvent[];
    const safety = { quorum: true, fencing: true } as never;
    expect(monitorEvents({ algorithm: 'raft', safety }, events, 13_000).failovers).toEqual([
      expect.objectContaining({
        from: null,
        node: 'n2',
        lostAtMs: 10_000,
        cause: 'won with no leader in office',
      }),
    ]);
  });
});
