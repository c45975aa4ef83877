// The headless CLI's options and its one line per event.
import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../../src/real/cluster/cliArgs';
import { formatEvent } from '../../../src/real/cluster/format';
import { DEFAULT_SETTINGS } from '../../../src/real/model/settings';

describe('real CLI options', () => {
  it("start from etcd's default timing with pre-vote and fencing on", () => {
    const o = parseCliArgs([]);
    expect(o).toMatchObject({ settings: DEFAULT_SETTINGS, json: false, tracePath: null, bridge: false });
  });

  it('read the fast timing, the lease settings and the switches', () => {
    const o = parseCliArgs([
      '--fast',
      '--ttl-ms',
      '2000',
      '--renew-deadline-ms',
      '1500',
      '--no-pre-vote',
      '--no-fencing',
      '--trace',
      't.json',
    ]);
    expect(typeof o === 'object' && o.settings).toMatchObject({
      heartbeatMs: 20,
      electionMs: 200,
      ttlMs: 2000,
      renewDeadlineMs: 1500,
      preVote: false,
      fencing: false,
    });
    expect(typeof o === 'object' && o.tracePath).toBe('t.json');
  });

  it('name what is wrong', () => {
    expect(parseCliArgs(['--ttl-ms'])).toBe('--ttl-ms needs a whole number');
    expect(parseCliArgs(['--ttl-ms', '2.5'])).toBe('--ttl-ms needs a whole number');
    expect(parseCliArgs(['--frobnicate'])).toBe('unknown option --frobnicate');
  });
});

describe('event lines', () => {
  it('say what happened, with the time since the run started', () => {
    expect(formatEvent({ atMs: 8330, type: 'elected', node: 'n1', term: 3, votes: [] })).toBe(
      '   8.330 s  n1 elected: leads with token 3',
    );
    expect(
      formatEvent({
        atMs: 11422,
        type: 'write',
        node: 'n2',
        token: 2,
        result: 'rejected',
        maxTokenSeen: 3,
        stale: false,
        kind: 'leader',
      }),
    ).toBe("  11.422 s  storage rejected n2's write with token 2 (max seen 3)");
    expect(
      formatEvent({
        atMs: 6369,
        type: 'fault',
        fault: { atMs: 6369, do: 'kill', node: 'leader' },
        target: 'n2',
        live: true,
      }),
    ).toBe('   6.369 s  command kill node=leader -> n2');
    expect(formatEvent({ atMs: 2596, type: 'member', member: 'm2', role: 'leader', term: 3 })).toBe(
      '   2.596 s  etcd m2 became leader at term 3',
    );
  });
});
