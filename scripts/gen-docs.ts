// Regenerate the tables in docs/embedding.md from the parameter table and the scene registry
// (src/shared/params.ts, src/shared/scenes.ts), and docs/scenarios.md's step-by-step section from
// the game days' runs (src/scenario/stepsDoc.ts). tests/unit/docs.test.ts fails when they differ.
// Every algorithm's rules: this runs in Node (or a worker), with no page to load them on demand.
import '../src/engine/algorithms/all';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { embeddingDoc } from '../src/shared/paramDocs';
import { parseScenario } from '../src/scenario/schema';
import { scenariosDoc } from '../src/scenario/stepsDoc';

const path = fileURLToPath(new URL('../docs/embedding.md', import.meta.url));
const before = readFileSync(path, 'utf8');
const after = embeddingDoc(before);
if (after !== before) writeFileSync(path, after);
console.log(after === before ? 'docs/embedding.md is up to date' : 'docs/embedding.md updated');

// The game days in the picker's order (file name), each validated as the page validates it.
const dir = new URL('../scenes/scenarios/', import.meta.url);
const scenarios = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => {
    const r = parseScenario(JSON.parse(readFileSync(new URL(f, dir), 'utf8')));
    if (!r.ok) throw new Error(`${f}: ${r.errors.map((e) => `${e.field}: ${e.message}`).join('; ')}`);
    return r.scenario;
  });
const stepsPath = fileURLToPath(new URL('../docs/scenarios.md', import.meta.url));
const stepsBefore = readFileSync(stepsPath, 'utf8');
const stepsAfter = scenariosDoc(stepsBefore, scenarios);
if (stepsAfter !== stepsBefore) writeFileSync(stepsPath, stepsAfter);
console.log(stepsAfter === stepsBefore ? 'docs/scenarios.md is up to date' : 'docs/scenarios.md updated');
