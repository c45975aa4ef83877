// The boundary between the page and src/real, as `npm run lint` enforces it (eslint.config.js):
// src/real/model runs in the browser, so a Node module, a Node-only package, a Node global or
// another part of src/real there fails the lint; and the page imports nothing of src/real but its
// model. Each snippet is linted with the project's own config, as if it were the file named.
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const eslint = new ESLint({ cwd: ROOT });

/** The rule ids and messages of the errors the lint gives `code` as the file at `path`. */
async function errors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${ROOT}/${path}` });
  return result.messages.filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the browser-safe part of src/real (src/real/model)', () => {
  const MODEL = 'src/real/model/probe.ts';

  it('fails the lint on a Node module, with or without node:', async () => {
    for (const from of ['node:fs', 'fs', 'fs/promises', 'node:child_process', 'events']) {
      expect(await errors(MODEL, `import * as m from '${from}';\nexport const x = m;\n`), from).toEqual([
        expect.stringMatching(/^no-restricted-imports: .*runs in the browser .*no Node module/),
      ]);
    }
  });

  it('fails the lint on a Node-only package and on a Node global', async () => {
    expect(
      await errors(MODEL, `import { createServer } from 'vite';\nexport const x = createServer;\n`),
    ).toEqual([expect.stringMatching(/^no-restricted-imports: .*no Node-only package/)]);
    expect(await errors(MODEL, 'export const home = process.env.HOME;\n')).toEqual([
      expect.stringMatching(/^no-restricted-globals: .*no Node global/),
    ]);
  });

  it('fails the lint on any other part of src/real, which is Node only', async () => {
    for (const from of [
      '../cluster/run',
      '../candidate/gateway',
      '../bridge/bridge',
      '../measurement/waits',
    ]) {
      expect(await errors(MODEL, `export * from '${from}';\n`), from).toEqual([
        expect.stringMatching(/^lab\/real-boundary: src\/real\/\w+\/\w+ is Node only/),
      ]);
    }
  });

  it('passes on the engine and on its own files (./events is not the Node module events)', async () => {
    const code = `import { Simulation } from '../../engine';\nimport type { RealEvent } from './events';\nexport type E = RealEvent;\nexport const S = Simulation;\n`;
    expect(await errors(MODEL, code)).toEqual([]);
  });
});

describe('the page and src/real', () => {
  it('fails the lint where the page imports a Node-only part of src/real', async () => {
    const cases: [string, string][] = [
      ['src/store/backends/probe.ts', '../../real/cluster/run'],
      ['src/app/real/Probe.tsx', '../../real/bridge/bridge'],
      ['src/embed/probe.ts', '../real/measurement/fidelitySim'],
      ['src/shared/probe.ts', '../real/candidate/candidateCore'],
      ['scenes/Probe/probe.ts', '../../src/real/cluster/storage'],
    ];
    for (const [file, from] of cases) {
      expect(await errors(file, `export { x } from '${from}';\n`), `${file} -> ${from}`).toEqual([
        expect.stringMatching(/^lab\/real-boundary: .* is Node only/),
      ]);
    }
  });

  it('passes where the page imports src/real/model, or its own folder named real (src/app/real)', async () => {
    expect(
      await errors('src/store/backends/probe.ts', "export { RunFold } from '../../real/model/fold';\n"),
    ).toEqual([]);
    expect(
      await errors('src/app/recording/Probe.tsx', "export { RealHosts } from '../real/RealHosts';\n"),
    ).toEqual([]);
  });

  it('holds for the whole tree as it is', async () => {
    const results = await eslint.lintFiles(['src/real', 'src/store', 'src/app/real', 'src/app/recording']);
    const broken = results.flatMap((r) =>
      r.messages
        .filter((m) => m.ruleId === 'lab/real-boundary' || m.ruleId === 'no-restricted-imports')
        .map((m) => `${r.filePath}:${m.line} ${m.message}`),
    );
    expect(broken).toEqual([]);
  });
});
