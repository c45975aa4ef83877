// Every game day's captions against its run: a caption stays on screen until the reader moves
// on, so whatever it says in the present tense about who leads and what leader_count is must
// still be true when its step has ended (where the lab pauses for the reader). Checked headless
// for every scenario; the browser spec consistency.spec.ts checks the page's views too.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../src/engine';
import { catalog } from '../../src/scenario/catalog';
import { runStep } from '../../src/scenario/run';

/** Claims a caption makes about the moment, as [what it says, whether the snapshot agrees]. */
function claims(caption: string, leaders: string[], leaderCount: number): [string, boolean][] {
  const out: [string, boolean][] = [];
  for (const m of caption.matchAll(/\b(n\d+|w)(?:,| is)? (?:still )?(?:leads|the leader)\b/g))
    out.push([m[0], leaders.includes(m[1])]);
  for (const m of caption.matchAll(/leader_count is (?:back to |now )?(\d+)/g))
    out.push([m[0], Number(m[1]) === leaderCount]);
  return out;
}

describe('captions tell the truth when their step ends', () => {
  for (const scenario of catalog.scenarios) {
    it(scenario.id, () => {
      const sim = new Simulation(scenario.experiment);
      const wrong: string[] = [];
      scenario.steps.forEach((step, i) => {
        runStep(sim, step, sim.experiment.untilMs);
        const snap = sim.snapshot();
        const leaders = snap.nodes.filter((n) => n.alive && n.role === 'leader').map((n) => n.id);
        for (const [said, ok] of claims(step.caption, leaders, snap.leaderCount))
          if (!ok)
            wrong.push(
              `step ${i + 1} at ${snap.nowMs} ms says "${said}"; leaders [${leaders.join(', ')}], leader_count ${snap.leaderCount}`,
            );
      });
      expect(wrong).toEqual([]);
    });
  }
});
