// The one rule both the S key and the "Split" button use: every voter counts (a witness too),
// the minority side takes floor(voters / 2) of them, the witness stays on the majority side,
// and there are never more than two groups.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine';
import { splitLabel, splitMinority } from '../../src/shared/split';

const nodes = (ids: string[], witness: string[] = []) =>
  ids.map((id) => ({ id, witness: witness.includes(id) }));

describe('splitMinority', () => {
  it('splits five nodes 2 | 3', () => {
    const s = splitMinority(nodes(['n1', 'n2', 'n3', 'n4', 'n5']))!;
    expect(s).toEqual({ minority: ['n1', 'n2'], majority: ['n3', 'n4', 'n5'] });
    expect(splitLabel(s)).toBe('2 | 3');
  });

  it('four nodes and a witness: two groups, the witness with the majority, which can still elect', () => {
    const s = splitMinority(nodes(['n1', 'n2', 'n3', 'n4', 'w'], ['w']))!;
    expect(s).toEqual({ minority: ['n1', 'n2'], majority: ['n3', 'n4', 'w'] });
    // The same split applied to a run: the majority side elects a leader, the minority none.
    const sim = new Simulation({
      seed: 1,
      nodes: 4,
      witness: true,
      faults: [{ atMs: 5_000, do: 'partition', groups: [s.minority, s.majority] }],
    });
    sim.runUntil(60_000);
    const leaders = sim
      .snapshot()
      .nodes.filter((n) => n.alive && n.role === 'leader')
      .map((n) => n.id);
    expect(leaders).toHaveLength(1);
    expect(s.majority).toContain(leaders[0]);
  });

  it('has nothing to split with fewer than two nodes', () => {
    expect(splitMinority(nodes(['n1']))).toBeNull();
  });
});
