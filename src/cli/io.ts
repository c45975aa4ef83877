// What the command-line tools share: an input file (or "-", standard input) read as JSON with the line a
// person reads when it cannot be, a setup's bad fields one a line, and running as `npm run <tool>`.
import { readFileSync } from 'node:fs';
import type { FieldError } from '../engine';

export interface Output {
  code: number;
  stdout: string;
  stderr: string;
}

/** A tool that printed `stdout`, and nothing on stderr: exit status 0. */
export const printed = (stdout: string): Output => ({ code: 0, stdout, stderr: '' });

/** A tool that could not do its work (bad input): `stderr` and nothing else, exit status 2. */
export const failed = (stderr: string): Output => ({ code: 2, stdout: '', stderr });

/** The JSON in `path` ("-": standard input), or why it cannot be had, as the line to print. */
export function readJson(
  path: string,
  readFile = (path: string) => readFileSync(path, 'utf8'),
  readStdin: () => string = () => readFileSync(0, 'utf8'),
): { ok: true; value: unknown } | { ok: false; error: string } {
  let text: string;
  try {
    text = path === '-' ? readStdin() : readFile(path);
  } catch (err) {
    return { ok: false, error: `cannot read ${path}: ${(err as Error).message}\n` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    const name = path === '-' ? 'standard input' : path;
    return { ok: false, error: `${name} is not valid JSON: ${(err as Error).message}\n` };
  }
}

/** "invalid experiment:" and each bad field on a line of its own. */
export function invalidLines(what: string, errors: readonly FieldError[]): string {
  return `invalid ${what}:\n${errors.map((e) => `  ${e.field}: ${e.message}`).join('\n')}\n`;
}

/** Run `main` when module `name` is the entry point, print what it returns (or just its status) and exit. */
export function runAsEntry(name: string, main: () => Output | Promise<number>): void {
  if (!new RegExp(`${name}\\.(ts|js|mjs)$`).test(process.argv[1] ?? '')) return;
  // `npm run sim -- x.json | head` closes the pipe early: that is the reader's choice, not an error.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  void Promise.resolve(main()).then((r) => {
    if (typeof r === 'number') return void (process.exitCode = r);
    if (r.stdout) process.stdout.write(r.stdout);
    if (r.stderr) process.stderr.write(r.stderr);
    process.exitCode = r.code;
  });
}
