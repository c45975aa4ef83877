// The bridge's fixed command set: what is accepted, each refusal's name, and the CLI's text form.
import { describe, expect, it } from 'vitest';
import { commandFromLine, parseRealCommand } from '../../../src/real/model/commands';

const ok = (x: unknown) => parseRealCommand(x, 3);
const errorOf = (x: unknown) => {
  const r = ok(x);
  return r.ok ? null : r.error;
};

describe('real commands', () => {
  it('accepts the engine verbs with their fields, and a part of the host', () => {
    for (const c of [
      { do: 'kill', node: 'leader' },
      { do: 'kill', node: 'raftLeader', part: 'member' },
      { do: 'restart', node: 'n2' },
      { do: 'pause', node: 'n1', forMs: 20000, part: 'host' },
      { do: 'resume', node: 'n1' },
      { do: 'isolate', node: 'n3' },
      { do: 'isolate', node: 'n3', part: 'candidate' },
      { do: 'partition', groups: [['n1'], ['n2', 'n3', 'storage']] },
      { do: 'heal' },
      { do: 'safety', fencing: false },
    ]) {
      expect(ok(c)).toEqual({ ok: true, command: c });
    }
  });

  it('refuses everything else by name', () => {
    expect(errorOf('kill')?.error).toBe('not an object');
    expect(errorOf({ do: 'explode' })).toMatchObject({ error: 'unknown command', field: 'do' });
    expect(errorOf({ do: 'clockRate', node: 'n1', rate: 2 })?.error).toBe('not possible for real');
    expect(errorOf({ do: 'campaign', node: 'n1' })?.error).toBe('not possible for real');
    expect(errorOf({ do: 'safety', preVote: false })?.error).toBe('not possible for real');
    expect(errorOf({ do: 'kill', node: 'n4' })).toMatchObject({ error: 'bad field', field: 'node' });
    expect(errorOf({ do: 'kill', node: 'n1', part: 'cpu' })).toMatchObject({
      error: 'bad field',
      field: 'part',
    });
    expect(errorOf({ do: 'isolate', node: 'n1', part: 'member' })).toMatchObject({ field: 'part' });
    expect(errorOf({ do: 'pause', node: 'n1', forMs: -5 })).toMatchObject({ field: 'forMs' });
    expect(errorOf({ do: 'heal', now: true })).toMatchObject({ error: 'bad field', field: 'now' });
    expect(errorOf({ do: 'partition', groups: [['n1'], ['n1']] })).toMatchObject({ field: 'groups.1.0' });
    expect(errorOf({ do: 'partition', groups: [] })).toMatchObject({ field: 'groups' });
    expect(errorOf({ do: 'safety', fencing: 'yes' })).toMatchObject({ field: 'fencing' });
  });

  it('reads the CLI text form', () => {
    expect(commandFromLine('kill leader')).toEqual({ do: 'kill', node: 'leader' });
    expect(commandFromLine('  kill raftLeader member ')).toEqual({
      do: 'kill',
      node: 'raftLeader',
      part: 'member',
    });
    expect(commandFromLine('pause leader 20000')).toEqual({ do: 'pause', node: 'leader', forMs: 20000 });
    expect(commandFromLine('pause n2 host')).toEqual({ do: 'pause', node: 'n2', part: 'host' });
    expect(commandFromLine('pause n2 500 member')).toEqual({
      do: 'pause',
      node: 'n2',
      forMs: 500,
      part: 'member',
    });
    expect(commandFromLine('partition n1 | n2,n3 storage')).toEqual({
      do: 'partition',
      groups: [['n1'], ['n2', 'n3', 'storage']],
    });
    expect(commandFromLine('fencing off')).toEqual({ do: 'safety', fencing: false });
    expect(commandFromLine('')).toBeNull();
    // Extra words are refused rather than ignored.
    expect(errorOf(commandFromLine('kill n1 member now'))).toMatchObject({ field: 'unexpected' });
    expect(errorOf(commandFromLine('fencing maybe'))).toMatchObject({ field: 'fencing' });
  });
});
