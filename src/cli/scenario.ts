// Run a game day headless, exactly as the page's guided mode and the tests run it.
//   npm run scenario -- gc-pause-long            the steps, the measured summary and the trace
//   npm run scenario -- gc-pause-long --summary  only the steps and the summary
//   npm run scenario -- path/to/scenario.json    a scenario file of your own
//   npm run scenario -- --list                   the scenarios that ship with the lab
// Exit status: 0 ok, 2 unknown scenario or invalid file (each bad field named).
import '../engine/algorithms/all'; // every algorithm's rules: no page loads them on demand here
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runScenario } from '../scenario/run';
import { parseScenario } from '../scenario/schema';
import type { Scenario } from '../scenario/types';
import { failed, invalidLines, printed, readJson, runAsEntry, type Output } from './io';

const DIR = join(import.meta.dirname, '..', '..', 'scenes', 'scenarios');

function shipped(): { file: string; scenario: Scenario | null; errors: string[] }[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const r = parseScenario(JSON.parse(readFileSync(join(DIR, file), 'utf8')));
      return r.ok
        ? { file, scenario: r.scenario, errors: [] }
        : { file, scenario: null, errors: r.errors.map((e) => `${e.field}: ${e.message}`) };
    });
}

export function main(argv: string[]): Output {
  const flags = new Set(argv.filter((a) => a.startsWith('--')));
  const args = argv.filter((a) => !a.startsWith('--'));
  if (flags.has('--list')) {
    const lines = shipped().map((s) =>
      s.scenario
        ? `${s.scenario.id.padEnd(34)} ${s.scenario.description}`
        : `${s.file}: invalid: ${s.errors.join('; ')}`,
    );
    return printed(lines.join('\n') + '\n');
  }
  if (args.length !== 1) return failed('usage: npm run scenario -- <id | file.json> [--summary] | --list\n');
  let scenario: Scenario | undefined;
  if (args[0].endsWith('.json') && existsSync(args[0])) {
    const json = readJson(args[0]);
    if (!json.ok) return failed(json.error);
    const r = parseScenario(json.value);
    if (!r.ok) return failed(invalidLines('scenario', r.errors));
    scenario = r.scenario;
  } else {
    scenario = shipped().find((s) => s.scenario?.id === args[0])?.scenario ?? undefined;
    if (!scenario) return failed(`no scenario "${args[0]}" (npm run scenario -- --list shows them)\n`);
  }
  const { steps, summary, trace } = runScenario(scenario);
  const value = { id: scenario.id, steps, summary, ...(flags.has('--summary') ? {} : { trace }) };
  return printed(JSON.stringify(value, null, 2) + '\n');
}

runAsEntry('scenario', () => main(process.argv.slice(2)));
