// The schemas' English messages (src/engine/zodErrors.ts) say exactly what zod's own English
// locale says, for every kind of issue the lab's schemas raise: each issue met below is put to
// both and the two sentences compared.
import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { ALGORITHM_KINDS, experimentSchemas } from '../../src/engine';
import { schemaMessage } from '../../src/engine/zodErrors';

describe("the schemas' messages", () => {
  const seen: z.core.$ZodRawIssue[] = [];
  const english = en().localeError as (issue: z.core.$ZodRawIssue) => string;
  z.config({
    localeError: (issue) => {
      seen.push(issue);
      return schemaMessage(issue);
    },
  });
  afterAll(() => z.config({ localeError: schemaMessage }));

  it('match the English locale for every issue a bad experiment or value raises', () => {
    const bad: unknown[] = [
      { seed: 'x' },
      { seed: -1 },
      { seed: 1.5 },
      { nodes: 99 },
      { nodes: 0 },
      { nodes: null },
      { nodes: [3] },
      { nodes: Number.NaN },
      { algorithm: 'paxos' },
      { safety: { fencing: 'yes' } },
      { network: { delayMsMin: -3 } },
      { faults: [{ atMs: 0, do: 'explode' }] },
      { faults: [{ atMs: 'soon', do: 'kill', node: 'n1' }] },
      { faults: 'none' },
      { surprise: 1, other: 2 },
    ];
    // The experiment's schema as zod builds it (the page runs the same one on the lab's own
    // validator, which tests/unit/schemaKit.test.ts holds to zod's issues).
    const { experimentSchema } = experimentSchemas(z, ALGORITHM_KINDS);
    for (const input of bad) void experimentSchema.safeParse(input).error?.issues;
    const more = [
      [z.string().check(z.minLength(3)), 'ab'],
      [z.array(z.number()).check(z.maxLength(1)), [1, 2]],
      [z.number().check(z.multipleOf(5)), 7],
      [z.literal('one'), 'two'],
      [z.string().check(z.regex(/^a/)), 'b'],
      [z.strictObject({ a: z.number() }), { a: 1, b: 2 }],
      [z.number().check(z.gt(3)), 3],
      [z.number().check(z.lt(3)), 3],
    ] as const;
    // Messages are made when a failed parse's issues are read.
    for (const [schema, value] of more) void (schema as z.ZodMiniType).safeParse(value).error?.issues;
    const codes = new Set(seen.map((i) => i.code));
    for (const code of [
      'invalid_union',
      'invalid_type',
      'invalid_value',
      'too_big',
      'too_small',
      'not_multiple_of',
      'unrecognized_keys',
      'invalid_format',
    ])
      expect(codes, code).toContain(code);
    for (const issue of seen) expect(schemaMessage(issue)).toBe(english(issue));
  });
});
