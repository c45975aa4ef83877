// docs/embedding.md lists every URL parameter and every scene from the same tables the pages
// read (src/shared/params.ts, src/shared/scenes.ts): `npm run gen:docs` rewrites them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { embeddingDoc } from '../../src/shared/paramDocs';

describe('docs/embedding.md', () => {
  it('has the parameter and scene tables the code has (npm run gen:docs)', () => {
    const doc = readFileSync(new URL('../../docs/embedding.md', import.meta.url), 'utf8');
    expect(embeddingDoc(doc)).toBe(doc);
  });
});
