// docs/scenarios.md's step-by-step section, from the runs: where each game day's steps pause, the caption
// there with its numbers from that moment, then the summary. gen:docs rewrites it; docs.test.ts checks it.
import { formatSeconds } from '../engine';
import { fillBetween } from '../shared/paramDocs';
import { runScenario } from './run';
import type { Scenario } from './types';

function scenarioSteps(scenario: Scenario): string {
  const run = runScenario(scenario);
  const steps = run.steps.map(
    (s) =>
      `${s.index + 1}. _Pauses at ${formatSeconds(s.endedAtMs)}${s.met ? '' : ' (its condition never came)'}; ` +
      `${s.claimsChecked} claims checked._ ${s.caption}`,
  );
  return [
    `#### ${scenario.title} (\`${scenario.id}\`)`,
    '',
    ...steps,
    '',
    `**What happened**: ${run.summary}.`,
  ].join('\n');
}

/** docs/scenarios.md with its step-by-step section made from these game days' runs, in the given order. */
export function scenariosDoc(doc: string, scenarios: readonly Scenario[]): string {
  return fillBetween(doc, 'steps', scenarios.map(scenarioSteps).join('\n\n'));
}
