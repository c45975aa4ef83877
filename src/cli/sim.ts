// Headless runner: an experiment (JSON file or "-" for stdin) in, a trace (JSON) out.
//   npm run sim -- experiment.json            full trace
//   npm run sim -- experiment.json --summary  only the summary
// Exit status: 0 ok, 2 invalid experiment (each bad field named), 1 other errors.
// Every algorithm's rules: this runs in Node (or a worker), with no page to load them on demand.
import '../engine/algorithms/all';
import { readFileSync } from 'node:fs';
import { parseExperiment, runExperiment } from '../engine';

export function main(
  argv: string[],
  readStdin: () => string,
): { code: number; stdout: string; stderr: string } {
  const args = argv.filter((a) => !a.startsWith('--'));
  const flags = new Set(argv.filter((a) => a.startsWith('--')));
  const unknown = [...flags].filter((f) => !['--summary', '--help', '--pretty'].includes(f));
  if (flags.has('--help') || args.length !== 1 || unknown.length) {
    const usage = 'usage: npm run sim -- <experiment.json | -> [--summary] [--pretty]\n';
    const why = unknown.length ? `unknown option ${unknown.join(', ')}\n` : '';
    return {
      code: flags.has('--help') ? 0 : 2,
      stdout: flags.has('--help') ? usage : '',
      stderr: flags.has('--help') ? '' : why + usage,
    };
  }
  let text: string;
  try {
    text = args[0] === '-' ? readStdin() : readFileSync(args[0], 'utf8');
  } catch (err) {
    return { code: 2, stdout: '', stderr: `cannot read ${args[0]}: ${(err as Error).message}\n` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    const name = args[0] === '-' ? 'standard input' : args[0];
    return { code: 2, stdout: '', stderr: `${name} is not valid JSON: ${(err as Error).message}\n` };
  }
  const parsed = parseExperiment(json);
  if (!parsed.ok) {
    const lines = parsed.errors.map((e) => `  ${e.field}: ${e.message}`).join('\n');
    return { code: 2, stdout: '', stderr: `invalid experiment:\n${lines}\n` };
  }
  const trace = runExperiment(parsed.experiment);
  const value = flags.has('--summary') ? trace.summary : trace;
  return {
    code: 0,
    stdout: JSON.stringify(value, null, flags.has('--pretty') ? 2 : undefined) + '\n',
    stderr: '',
  };
}

const isEntry = process.argv[1] && /sim\.(ts|js|mjs)$/.test(process.argv[1]);
if (isEntry) {
  // `npm run sim -- x.json | head` closes the pipe early: that is the reader's choice, not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  const r = main(process.argv.slice(2), () => readFileSync(0, 'utf8'));
  if (r.stdout) process.stdout.write(r.stdout);
  if (r.stderr) process.stderr.write(r.stderr);
  process.exitCode = r.code;
}
