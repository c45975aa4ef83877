// Headless runner: an experiment (JSON file or "-" for stdin) in, a trace (JSON) out.
//   npm run sim -- experiment.json            full trace
//   npm run sim -- experiment.json --summary  only the summary
// Exit status: 0 ok, 2 invalid experiment (each bad field named), 1 other errors.
import '../engine/algorithms/all'; // every algorithm's rules: no page loads them on demand here
import { parseExperiment, runExperiment } from '../engine';
import { failed, invalidLines, printed, readJson, runAsEntry, type Output } from './io';

export function main(argv: string[], readStdin?: () => string): Output {
  const args = argv.filter((a) => !a.startsWith('--'));
  const flags = new Set(argv.filter((a) => a.startsWith('--')));
  const unknown = [...flags].filter((f) => !['--summary', '--help', '--pretty'].includes(f));
  if (flags.has('--help') || args.length !== 1 || unknown.length) {
    const usage = 'usage: npm run sim -- <experiment.json | -> [--summary] [--pretty]\n';
    const why = unknown.length ? `unknown option ${unknown.join(', ')}\n` : '';
    return flags.has('--help') ? printed(usage) : failed(why + usage);
  }
  const json = readJson(args[0], undefined, readStdin);
  if (!json.ok) return failed(json.error);
  const parsed = parseExperiment(json.value);
  if (!parsed.ok) return failed(invalidLines('experiment', parsed.errors));
  const trace = runExperiment(parsed.experiment);
  const value = flags.has('--summary') ? trace.summary : trace;
  return printed(JSON.stringify(value, null, flags.has('--pretty') ? 2 : undefined) + '\n');
}

runAsEntry('sim', () => main(process.argv.slice(2)));
