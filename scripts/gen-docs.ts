// Regenerate the tables in docs/embedding.md from the parameter table and the scene registry
// (src/shared/params.ts, src/shared/scenes.ts). tests/unit/docs.test.ts fails when they differ.
// Every algorithm's rules: this runs in Node (or a worker), with no page to load them on demand.
import '../src/engine/algorithms/all';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { embeddingDoc } from '../src/shared/paramDocs';

const path = fileURLToPath(new URL('../docs/embedding.md', import.meta.url));
const before = readFileSync(path, 'utf8');
const after = embeddingDoc(before);
if (after !== before) writeFileSync(path, after);
console.log(after === before ? 'docs/embedding.md is up to date' : 'docs/embedding.md updated');
