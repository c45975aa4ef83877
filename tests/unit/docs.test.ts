// docs/embedding.md lists every URL parameter and every scene from the same tables the pages
// read (src/shared/params.ts, src/shared/scenes.ts): `npm run gen:docs` rewrites them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { embeddingDoc } from '../../src/shared/paramDocs';
import { catalog, loadAllScenarios } from '../../src/scenario/catalog';
import { scenariosDoc } from '../../src/scenario/stepsDoc';

describe('docs/embedding.md', () => {
  it('has the parameter and scene tables the code has (npm run gen:docs)', () => {
    const doc = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
    expect(embeddingDoc(doc)).toBe(doc);
  });
});

describe('docs/scenarios.md', () => {
  it("has each game day's steps as its run pauses on them (npm run gen:docs)", async () => {
    await loadAllScenarios();
    const doc = readFileSync(new URL('../../docs/scenarios.md', import.meta.url), 'utf8');
    expect(scenariosDoc(doc, catalog.scenarios)).toBe(doc);
  });
});
