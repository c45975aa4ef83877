// What the two terminal front ends of a real run share (`npm run real`, cli.ts, and `npm run lab:real`,
// bridge/labReal.ts): the run made from the command line's settings, a line printer, and one way to end it.
// The end runs once, whoever asks first (end of input, a failed start, Ctrl-C, SIGTERM, SIGHUP): what the
// front end opened closes first, then the run ends every child by PID and says if one is left (exit 1).
import type { RunSettings } from '../model/settings';
import { RealRun } from './run';

export interface TerminalRun {
  run: RealRun;
  print(line: string): void;
  /** End the run (once); resolves to the exit code. */
  end(code: number): Promise<number>;
}

export function terminalRun(
  settings: RunSettings,
  hooks: {
    /** What to close before the run stops (the bridge, the page server). */
    beforeStop(): Promise<void>;
    /** After a clean stop (every child gone): the last words. */
    afterStop(run: RealRun, print: (line: string) => void): void;
  },
): TerminalRun | number {
  let run: RealRun;
  try {
    run = new RealRun(settings);
  } catch (err) {
    // Settings the run refuses: said, with the command line's status for bad options.
    process.stderr.write(`${(err as Error).message}\n`);
    return 2;
  }
  const print = (line: string) => void process.stdout.write(line + '\n');
  let ending: Promise<number> | null = null;
  const end = (code: number) =>
    (ending ??= (async () => {
      await hooks.beforeStop();
      await run.stop();
      const left = run.leftovers();
      if (left.length) {
        process.stderr.write(`could not end ${left.map((p) => `${p.name} (pid ${p.pid})`).join(', ')}\n`);
        return 1;
      }
      hooks.afterStop(run, print);
      return code;
    })());
  // Children have process groups of their own (children.ts): these signals reach only this process, which
  // ends them by PID. Node runs no exit handler when a signal ends it, hence SIGHUP too.
  process.on('SIGINT', () => void end(130).then((c) => process.exit(c)));
  process.on('SIGTERM', () => void end(143).then((c) => process.exit(c)));
  process.on('SIGHUP', () => void end(129).then((c) => process.exit(c)));
  return { run, print, end };
}

/** The run's first words once it has started: what was cleaned up, and what runs with what settings. */
export function printStarted({ run, print }: TerminalRun, leftovers: number): void {
  if (leftovers)
    print(`# ended ${leftovers} leftover process(es) of an earlier run that did not stop cleanly`);
  const s = run.settings;
  print(
    `# etcd ${run.etcdVersion}: ${s.nodes} members healthy ${run.healthyAtMs} ms after start ` +
      `(heartbeat ${s.heartbeatMs} ms, election ${s.electionMs} ms, pre-vote ${s.preVote ? 'on' : 'off'}); ` +
      `candidates: TTL ${s.ttlMs / 1000} s, renew deadline ${s.renewDeadlineMs ?? 'none'}, fencing ${s.fencing ? 'on' : 'off'}`,
  );
}

/** Options refused (exit status 2, with the usage) or help asked for (0, with the help). */
export function usageExit(o: { help?: boolean } | string, usage: string, help = usage): number {
  if (typeof o === 'string') process.stderr.write(`${o}\n${usage}\n`);
  else process.stdout.write(`${help}\n`);
  return typeof o === 'string' ? 2 : 0;
}

/** Run a command's main and exit with its status; a failure is its message and status 1. */
export function exitWith(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}
