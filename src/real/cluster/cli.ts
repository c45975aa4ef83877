// `npm run real -- [options]`: the real cluster, headless. Starts etcd, the candidates and the storage,
// prints every event, and reads commands from stdin, one a line (the bridge's command set, e.g. `kill
// leader`, `pause leader 20000`, `isolate n2`, `heal`; `wait <ms>` pauses the reading, for scripts). Ctrl-C,
// `quit` or the end of stdin ends the run and every process it started, by PID; --trace writes a trace file.
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Bridge } from '../bridge/bridge';
import { parseCliArgs, USAGE } from './cliArgs';
import { COMMAND_LINE_HELP, commandFromLine } from '../model/commands';
import { formatEvent } from './format';
import { EtcdMissingError } from './run';
import { exitWith, printStarted, terminalRun, usageExit } from './terminal';

async function main(): Promise<number> {
  const o = parseCliArgs(process.argv.slice(2));
  if (typeof o === 'string' || o.help) return usageExit(o, USAGE, `${USAGE}\n\n${COMMAND_LINE_HELP}`);
  let bridge: Bridge | null = null;
  const t = terminalRun(o.settings, {
    beforeStop: async () => await bridge?.close(),
    afterStop: (run, print) => {
      if (!o.tracePath) return;
      writeFileSync(o.tracePath, JSON.stringify(run.trace()) + '\n');
      print(`# trace written to ${o.tracePath}`);
    },
  });
  if (typeof t === 'number') return t;
  const { run, print, end } = t;
  run.onEvent((e) => print(o.json ? JSON.stringify(e) : formatEvent(e)));
  try {
    printStarted(t, (await run.start()).leftovers);
  } catch (err) {
    await end(1);
    if (err instanceof EtcdMissingError) process.stderr.write(`${err.message}\n`);
    else process.stderr.write(`cannot start the real cluster: ${(err as Error).message}\n`);
    return 1;
  }
  if (o.bridge) {
    bridge = new Bridge(run, o.origin);
    await bridge.listen();
    print(`# bridge ${bridge.url} token ${bridge.token} (accepts Origin ${o.origin})`);
  }
  print('# type "help" for commands');
  const lines = createInterface({ input: process.stdin, terminal: false });
  for await (const line of lines) {
    const words = line.trim().split(/\s+/);
    if (words[0] === 'quit' || words[0] === 'exit') break;
    if (words[0] === 'help') print(COMMAND_LINE_HELP);
    else if (words[0] === 'status') print(JSON.stringify(run.state()));
    else if (words[0] === 'wait' && /^\d+$/.test(words[1] ?? ''))
      await new Promise((r) => setTimeout(r, Number(words[1])));
    else {
      const cmd = commandFromLine(line);
      if (!cmd) continue;
      const r = run.apply(cmd);
      if (!r.ok)
        print(`# ${r.error?.error}: ${r.error?.message}${r.error?.field ? ` (${r.error.field})` : ''}`);
    }
  }
  return end(0);
}

exitWith(main);
