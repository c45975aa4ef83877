import { describe, expect, it } from 'vitest';
import { createLabStore } from '../../src/store/labStore';
import { createGuidedStore } from '../../src/store/guidedStore';
import { catalog, findScenario } from '../../src/scenario/catalog';
import { runScenario } from '../../src/scenario/run';
import { tolerated } from '../../src/app/learn/QuorumTable';
import { majorityOf as majority } from '../../src/engine';

describe('guided mode', () => {
  it('waits for each step, pauses for the reader, and ends with a measured summary', () => {
    const scenario = findScenario('steady-state');
    expect(scenario).toBeDefined();
    const lab = createLabStore({ experiment: scenario!.experiment, playing: true });
    const guided = createGuidedStore(lab, scenario!);
    const detach = guided.attach();
    expect(guided.getState().status).toBe('waiting');
    guided.getState().skip();
    expect(guided.getState().status).toBe('met');
    expect(lab.getState().playing).toBe(false);
    expect(lab.getState().snapshot.leaderCount).toBe(1);
    guided.getState().next();
    expect(guided.getState().step).toBe(1);
    expect(lab.getState().playing).toBe(true);
    guided.getState().skip();
    guided.getState().next();
    guided.getState().skip();
    expect(guided.getState().status).toBe('done');
    expect(guided.getState().summary).toMatch(
      /0 zombie writes rejected; 0 stale writes accepted; believed leader_count peaked at 1/,
    );
    detach();
  });

  it('opens at a given step and replays a step deterministically', () => {
    const scenario = findScenario('steady-state')!;
    const lab = createLabStore({ experiment: scenario.experiment, playing: false });
    const guided = createGuidedStore(lab, scenario);
    const detach = guided.attach();
    guided.getState().goTo(1);
    expect(guided.getState().step).toBe(1);
    const start = guided.getState().stepStartMs;
    guided.getState().skip();
    const log = lab.getState().log.map((l) => l.text);
    guided.getState().replay();
    expect(lab.getState().snapshot.nowMs).toBe(start);
    guided.getState().skip();
    expect(lab.getState().log.map((l) => l.text)).toEqual(log);
    detach();
  });
  it.each([
    ['on a slow machine (100 ms frames, 6.4 s each)', 100],
    // 1024 ms a frame: frames end off the runner's 50 ms grid, where a check 50 ms after the
    // frame's end paused up to 49 ms away from the runner (and a caption's {time} read otherwise).
    ['at 60 frames a second (16 ms frames)', 16],
  ])('at 64x %s every step ends where the headless runner ends it', (_, frameMs) => {
    for (const scenario of catalog.scenarios) {
      const headless = runScenario(scenario).steps;
      const lab = createLabStore({ experiment: scenario.experiment, playing: true, speed: 64 });
      const guided = createGuidedStore(lab, scenario);
      const detach = guided.attach();
      const seen: { index: number; endedAtMs: number; met: boolean }[] = [];
      for (let step = 0; step < scenario.steps.length; step++) {
        if (step > 0) guided.getState().next();
        for (let frame = 0; frame < 1000 && guided.getState().status === 'waiting'; frame++)
          lab.getState().advanceWall(frameMs);
        const status = guided.getState().status;
        seen.push({ index: step, endedAtMs: lab.frame().nowMs, met: status !== 'timeout' });
      }
      detach();
      expect({ id: scenario.id, steps: seen }).toEqual({
        id: scenario.id,
        steps: headless.map((s) => ({ index: s.index, endedAtMs: s.endedAtMs, met: s.met })),
      });
    }
  });
});

describe('quorum arithmetic', () => {
  it('majority and failures tolerated for N = 1..9', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map(majority)).toEqual([1, 2, 2, 3, 3, 4, 4, 5, 5]);
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9].map(tolerated)).toEqual([0, 0, 1, 1, 2, 2, 3, 3, 4]);
  });
});
