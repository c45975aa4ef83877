// The registry of algorithms: each kind described in info.ts has its rules under its own kind,
// both where Node loads every one at once (all.ts) and where the page loads one when a run needs
// it (loadAlgorithm), and the rules carry the description they were registered with.
import { describe, expect, it } from 'vitest';
import { ALGORITHM_KINDS, algorithmFor } from '../../../src/engine';
import { loadAlgorithm, rulesFor } from '../../../src/engine/algorithms/index';

describe('the algorithm registry', () => {
  it.each(ALGORITHM_KINDS)(
    '%s: its rules are registered under its kind, with its description',
    async (kind) => {
      await loadAlgorithm(kind);
      const rules = rulesFor(kind);
      expect(rules.kind).toBe(kind);
      expect(rules.title).toBe(algorithmFor(kind).title);
      expect(rules.messages).toEqual(algorithmFor(kind).messages);
    },
  );
});
