// The end-of-game-day summary and the failover timeline tell one story: the summary reads the
// timeline's own bars, so a run whose timeline draws a failover never sums up as "no failover",
// and the phases it quotes are a bar's. Bully's split once said "no failover" beside two bars.
import { describe, expect, it } from 'vitest';
import { algorithmFor } from '../../src/engine';
import { catalog, loadAllScenarios } from '../../src/scenario/catalog';
import { runScenario } from '../../src/scenario/run';
import { failoverBars } from '../../scenes/FailoverTimelineScene/failoverModel';

await loadAllScenarios();

const sec = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

describe('the summary agrees with the failover timeline', () => {
  it("every game day: no failover only when the timeline has no bar; else a bar's phases and their count", () => {
    const wrong: string[] = [];
    for (const scenario of catalog.scenarios) {
      const { trace, summary } = runScenario(scenario);
      const epoch = algorithmFor(trace.experiment.algorithm).words.epoch;
      const bars = failoverBars(trace.summary.failovers, trace.experiment.untilMs, epoch);
      const says = (ok: boolean, what: string) => ok || wrong.push(`${scenario.id}: ${what}: "${summary}"`);
      if (bars.length === 0) {
        says(summary.startsWith('no failover'), 'no bar on the timeline, so "no failover"');
        continue;
      }
      says(!summary.includes('no failover'), `${bars.length} bars on the timeline, yet "no failover"`);
      says(
        bars.some((b) =>
          summary.includes(
            `${sec(b.phases[0].durationMs)} detection, ${sec(b.phases[1].durationMs)} election`,
          ),
        ),
        "the phases quoted are no bar's",
      );
      says(
        bars.length === 1
          ? !/failovers on the timeline/.test(summary)
          : summary.includes(`${bars.length} failovers on the timeline`),
        `the count of bars (${bars.length})`,
      );
    }
    expect(wrong).toEqual([]);
  });

  it("bully split: a second coordinator beside a live one is told as what it is, with its bar's numbers", () => {
    const scenario = catalog.scenarios.find((s) => s.id === 'bully-split-2-3')!;
    const { summary } = runScenario(scenario);
    expect(summary).toMatch(
      /^no leader lost, but n2 won while another node still believed it led \(epoch 2\), which took 5\.9 s: 3\.4 s detection, 0\.5 s election, 2\.0 s warm-up; 2 failovers on the timeline;/,
    );
  });
});
