// @vitest-environment jsdom
// Links the page builds to open a scenario: they describe that scenario only. A run link's
// `run` would otherwise win over the scenario (see readPageParams), and setup parameters would
// be ignored by it, so the picker would reopen the same run, or open with a warning.
import { afterEach, describe, expect, it } from 'vitest';
import { scenarioHref } from '../../src/app/guided/ScenarioPicker';
import { readPageParams } from '../../src/app/urlParams';

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
