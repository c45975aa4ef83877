// Bad links, in a real browser: random but seeded query strings for the lab and the embed, each
// with at least one parameter the page must refuse. Every one opens a working page (the lab's
// heading and stage, or the embed's scene) with a message naming what it ignored, and nothing
// reaches the console (the shared fixture fails the test on any error). The parsers themselves
// are fuzzed far harder, without a browser, in tests/property/fuzz.test.ts.
//
// FUZZ_SEED changes the links (each test's title shows its link, to reproduce by hand); the
// same seed always gives the same 16 links. The tests are independent, so they run in parallel.
import fc from 'fast-check';
import { encodeRun } from '../../src/shared/share';
import { expect, simMs, test } from './lab';

const SEED = Number(process.env.FUZZ_SEED ?? 20_250_214);
const PER_PAGE = 8;

const junk = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    'NaN',
    '-1',
    '1e999',
    '0x1F',
    '😀',
    'ü%',
    '<script>',
    '"',
    "'",
    '\\',
    '../',
    'null',
  ),
  fc.string({ minLength: 1, maxLength: 10 }),
);
/** Names every object inherits: a lookup with `in` or `obj[name]` takes them for real keys. */
const inherited = fc.constantFrom('constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf');
/** Not a number at all, so no numeric parameter can accept it. */
const notANumber = junk.filter((s) => s.trim() !== '' && !Number.isFinite(Number(s)));

const realRun = encodeRun({
  experiment: { seed: 11, nodes: 4 },
  commands: [
    { atMs: 9000, command: { do: 'kill', node: 'leader' } },
    { atMs: 15_000, command: { do: 'partition', groups: [['n1'], ['n2', 'n3', 'n4', 'storage']] } },
  ],
  atMs: 30_000,
});

/** One parameter the page must refuse, and how the message names it. */
type Bad = { name: string; value: string };
const badPageParam: fc.Arbitrary<Bad> = fc.oneof(
  notANumber.map((value) => ({ name: 'seed', value })),
  fc.oneof(fc.constantFrom('0', '10', '-3', '4.5'), notANumber).map((value) => ({ name: 'nodes', value })),
  fc.oneof(fc.constantFrom('-1', '2001', '3.5'), notANumber).map((value) => ({ name: 'clients', value })),
  fc
    .oneof(fc.constantFrom('0', '-2', 'fast', 'Infinity'), notANumber)
    .map((value) => ({ name: 'speed', value })),
  fc
    .oneof(
      inherited,
      junk.map((value) => `no-such-${value}`),
    )
    .map((value) => ({ name: 'scenario', value })),
  fc.integer({ min: 1, max: realRun.length - 4 }).map((n) => ({ name: 'run', value: realRun.slice(0, n) })),
  fc.tuple(fc.nat(), fc.constantFrom('*', '!', '.', '~')).map(([i, c]) => {
    const at = i % realRun.length;
    return { name: 'run', value: realRun.slice(0, at) + c + realRun.slice(at + 1) };
  }),
);
const badEmbedParam: fc.Arbitrary<Bad> = fc.oneof(
  fc
    .oneof(
      inherited,
      junk.map((value) => `pie-${value}`),
    )
    .map((value) => ({ name: 'scene', value })),
  junk.map((value) => ({ name: 'controls', value: `all${value}` })),
  junk.map((value) => ({ name: 'theme', value: `neon${value}` })),
  badPageParam,
);
/** Harmless company: valid parameters and unknown ones, which the page may ignore silently. */
const noise = fc.oneof(
  fc.constantFrom(
    'speed=8',
    'paused',
    'witness=1',
    'utm_source=newsletter',
    'fbclid=IwAR0x',
    '=',
    '&&',
    'x=%F0%9F%98%80',
  ),
  fc.tuple(junk, junk).map(([k, v]) => `zz${encodeURIComponent(k)}=${encodeURIComponent(v)}`),
);

function links(bad: fc.Arbitrary<Bad>, seed: number) {
  const arb = fc
    .tuple(
      fc.uniqueArray(bad, { minLength: 1, maxLength: 3, selector: (b) => b.name }),
      fc.array(noise, { maxLength: 3 }),
      fc.nat(),
    )
    .map(([bads, extra, at]) => {
      const pairs = bads.map((b) => `${b.name}=${encodeURIComponent(b.value)}`);
      pairs.splice(at % (pairs.length + 1), 0, ...extra);
      return { query: `?${pairs.join('&')}`, names: bads.map((b) => b.name) };
    });
  return fc.sample(arb, { seed, numRuns: PER_PAGE });
}

function named(name: string): RegExp {
  // A run's problems name the run itself or a field inside it ("run setup: ...").
  return name === 'run' ? /"run"|\brun (setup|commands|moment|scenario)\b/ : new RegExp(`"${name}"`);
}

test.describe(`bad links open a working page that names what it ignored (FUZZ_SEED=${SEED})`, () => {
  test.describe.configure({ mode: 'parallel' });

  // Numbered, so two equal links drawn by some other seed still make two tests.
  links(badPageParam, SEED).forEach(({ query, names }, i) => {
    test(`lab ${i + 1}: ${query}`, async ({ page }) => {
      await page.goto(`/${query}`);
      await expect(page.getByRole('heading', { level: 1 })).toContainText('Leader Election Lab');
      await expect(page.locator('[data-testid^="node-"][data-role]').first()).toBeVisible();
      await expect(page.getByTestId('scene-error')).toHaveCount(0);
      const message = page.getByTestId('link-problems');
      for (const name of names) await expect(message).toContainText(named(name));
      // Working, not just drawn: the run plays (unless the link asked for it paused).
      if (new URLSearchParams(query).has('paused')) {
        await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
      } else {
        const from = await simMs(page);
        await expect.poll(() => simMs(page), { message: 'the simulated clock moves' }).toBeGreaterThan(from);
      }
    });
  });

  links(badEmbedParam, SEED + 1).forEach(({ query, names }, i) => {
    test(`embed ${i + 1}: ${query}`, async ({ page }) => {
      await page.goto(`/embed.html${query}`);
      await expect(page.locator('main.embed section').first()).toBeVisible();
      await expect(page.getByTestId('scene-error')).toHaveCount(0);
      const message = page.locator('main.embed > .banner-warn[role="alert"]');
      for (const name of names) await expect(message).toContainText(named(name));
    });
  });
});
