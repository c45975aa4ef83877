// A monkey in Chromium: seeded random clicks on every control and on the stage's nodes, drags on
// the timeline and speed sliders, typing into fields, choices in selects, and the lab's keyboard
// shortcuts, for MONKEY_MS of wall time. It fails at the first console error, uncaught exception
// or failed request (naming the act that caused it), at the first safe-mode violation the banner
// shows, and whenever a run it is about to leave (a link, "Reset with this setup") or the run it
// ends on holds a violation that no switched-off defence allows. For that last check the run is
// read back from the page's own "Copy link" and replayed headless, with the page's engine.
//
// The monkey leaves the Quorum and Fencing switches alone; the "f" shortcut may still turn
// fencing off, which the check accounts for. Clock rates stay within 2.5x of each other: with
// wilder skew the engine reports out-of-order terms even in safe mode (docs/model.md, "Elections
// end in order"), which is that scenario's lesson rather than a bug.
//
// Duration: MONKEY_MS, default 20 s so `npm test` stays quick; `npm run test:long` runs 60 s.
// Seed: MONKEY_SEED (in the test's title and in every failure) replays the same choices; the
// page's timing still varies run to run, so a replay is close, not exact.
import { decodeRun } from '../../src/shared/share';
import { createLabStore } from '../../src/store/labStore';
import type { Page } from '@playwright/test';
import { expect, test } from './lab';

const MONKEY_MS = Number(process.env.MONKEY_MS ?? 20_000);
const SEED = Number(process.env.MONKEY_SEED ?? 20_250_214) >>> 0;

/** mulberry32: small, seeded, and the same in every runtime. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = [' ', 'ArrowLeft', 'ArrowRight', 'k', 'p', 's', 'h', 'f', 'c', '?', 'Escape', 'Tab', 'Enter'];
const SAFE_RATES = ['0.5', '0.8', '1', '1.25'];
const TEXT = ['', '0', '1', '3', '7', '42', '150', '999', '2000', '15000', '-5', '1e3', '4294967296'];

type Target = {
  kind: 'click' | 'drag' | 'select' | 'type';
  x: number;
  y: number;
  w: number;
  label: string;
  /** A link (which loads a page) or the setup's reset: either ends the run on screen. */
  leaves: boolean;
  link: boolean;
};

/**
 * What the page looks like before an act: one round trip instead of several. A page the last act
 * sent elsewhere (a key on a link it had just focused) is read once it has loaded.
 */
async function pageState(page: Page): Promise<ReturnType<typeof readState>> {
  try {
    return await readState(page);
  } catch (e) {
    if (!String(e).includes('Execution context was destroyed')) throw e;
    await page.waitForLoadState('load');
    return readState(page);
  }
}

async function readState(page: Page) {
  return page.evaluate(() => {
    const focus = document.activeElement as HTMLElement | null;
    const link = focus instanceof HTMLAnchorElement && !!focus.href;
    const reset =
      focus instanceof HTMLButtonElement && /^\s*Reset with this setup/.test(focus.textContent ?? '');
    const banner = document.querySelector('[data-testid="safety-banner"]')?.textContent ?? '';
    return {
      dialogOpen: !!document.querySelector('dialog[open]'),
      // Space or Enter would flip a Quorum / Fencing switch; keys on a clock-rate select could
      // pick a rate outside the safe range.
      focusGuarded:
        focus?.getAttribute('role') === 'switch' ||
        (focus?.getAttribute('aria-label') ?? '').startsWith('Clock rate'),
      focusLink: link,
      focusLeaves: link || reset,
      bug: banner.includes('bug:') ? banner : null,
    };
  });
}

/**
 * Every control the monkey may touch, with where it is on screen (scrolled into view first).
 * Left out: the Quorum and Fencing switches, file pickers, and links that leave the site; the
 * lab's own links only when `links` is true, so loading pages does not take most of the time.
 */
async function pickTarget(page: Page, r: number, links: boolean): Promise<Target | null> {
  return page.evaluate(
    ([r, links]) => {
      document.querySelectorAll('[data-monkey]').forEach((el) => el.removeAttribute('data-monkey'));
      // A modal dialog makes the rest of the page inert: only what is inside it can be touched.
      const scope = document.querySelector('dialog:modal') ?? document;
      const all = [
        ...scope.querySelectorAll<HTMLElement>(
          'button, a[href], input, select, textarea, summary, [data-testid^="node-"][data-role]',
        ),
      ];
      const usable = all.filter((el) => {
        // checkVisibility also sees through a closed <details>, whose content keeps its size.
        if (!el.checkVisibility({ visibilityProperty: true }) || el.closest('[inert]')) return false;
        if ((el as HTMLButtonElement).disabled) return false;
        if (el instanceof HTMLInputElement && el.type === 'file') return false;
        if (
          el instanceof HTMLInputElement &&
          el.getAttribute('role') === 'switch' &&
          /^\s*(Quorum|Fencing)\b/.test(el.parentElement?.textContent ?? '')
        )
          return false;
        if (
          el instanceof HTMLAnchorElement &&
          (!links || el.target === '_blank' || new URL(el.href, location.href).origin !== location.origin)
        )
          return false;
        return true;
      });
      if (!usable.length) return null;
      const el = usable[Math.floor(r * usable.length)];
      el.setAttribute('data-monkey', '');
      el.scrollIntoView({ block: 'center', inline: 'center' });
      const box = el.getBoundingClientRect();
      const input = el instanceof HTMLInputElement ? el.type : '';
      const editable = (el instanceof HTMLTextAreaElement || el instanceof HTMLInputElement) && !el.readOnly;
      const kind =
        input === 'range'
          ? 'drag'
          : el instanceof HTMLSelectElement
            ? 'select'
            : editable && (el instanceof HTMLTextAreaElement || ['number', 'text', 'search'].includes(input))
              ? 'type'
              : 'click';
      const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim();
      const label = `${el.tagName.toLowerCase()}${input ? `[${input}]` : ''} "${text.slice(0, 40)}"`;
      const link = el instanceof HTMLAnchorElement;
      const leaves = link || (el instanceof HTMLButtonElement && text.startsWith('Reset with this setup'));
      return {
        kind,
        x: box.x + box.width / 2,
        y: box.y + box.height / 2,
        w: box.width,
        label,
        leaves,
        link,
      } as const;
    },
    [r, links] as const,
  );
}

/**
 * The run on screen, as the page would share it, replayed headless: every violation in it must
 * be allowed by a defence that the setup or a command switched off.
 */
async function checkRun(page: Page, context: () => string) {
  // A click by script: the button works the same when controls are hidden or a dialog is open.
  const href = await page.evaluate(async () => {
    const button = document.querySelector<HTMLButtonElement>('[data-testid="copy-link"]');
    if (!button) return null;
    button.click();
    // The link appears once the link codec is loaded (fetched on the first link the page makes,
    // behind whatever else the page is fetching then, such as the game days the picker lists).
    for (let wait = 0; wait < 300; wait++) {
      await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
      const field = document.querySelector<HTMLInputElement>('[data-testid="share-link"]');
      if (field) return field.value;
    }
    return null;
  });
  if (!href) throw new Error(`the page offers no link to its run\n${context()}`);
  const run = decodeRun(new URL(href).searchParams.get('run') ?? '');
  if (!run.ok)
    throw new Error(`the page's own link does not decode: ${run.problems.join('; ')}\n${context()}`);
  const lab = createLabStore({ experiment: run.run.experiment, commands: run.run.commands, playing: false });
  lab.getState().seek(run.run.atMs);
  const s = lab.getState();
  const switchedOff = (k: 'quorum' | 'fencing' | 'algorithm') =>
    k === 'algorithm' ||
    s.experiment.safety[k] === false ||
    run.run.commands.some((c) => c.command.do === 'safety' && c.command[k] === false);
  for (const v of s.snapshot.violations) {
    const why = `${v.invariant} at ${v.atMs} ms: ${v.detail}\n${context()}`;
    expect(v.allowedBy, `a violation in safe mode: ${why}`).not.toBeNull();
    expect(switchedOff(v.allowedBy!), `allowed by ${v.allowedBy}, which was never off: ${why}`).toBe(true);
  }
  const { nowMs, violations } = s.snapshot;
  const summary = `${nowMs} ms simulated, ${run.run.commands.length} commands, ${violations.length} violations (all allowed)`;
  return { nowMs, violations: violations.length, summary };
}

test(`a monkey for ${MONKEY_MS / 1000} s leaves the lab working and its invariants intact (MONKEY_SEED=${SEED})`, async ({
  page,
  problems,
}) => {
  test.setTimeout(MONKEY_MS + 180_000);
  const random = rng(SEED);
  const done: string[] = [];
  const replay = () =>
    `replay with MONKEY_SEED=${SEED} MONKEY_MS=${MONKEY_MS}; last acts:\n  ${done.slice(-25).join('\n  ')}`;
  const origin = new URL(test.info().project.use.baseURL!).origin;
  const runsLeft: string[] = [];
  /** Before a run is left behind, check it: the final check only sees the last one. */
  const leaving = async () => runsLeft.push((await checkRun(page, replay)).summary);
  /**
   * Follow a link the way a person does, and let the next page load rather than abort it with
   * the next touch. Leaving a page cancels what it was still fetching (a lazily loaded panel):
   * those cancelled requests are the monkey's doing, not the page's, so they are not problems.
   */
  const followLink = async (go: () => Promise<void>) => {
    const before = problems.length;
    const loaded = page.waitForEvent('load', { timeout: 8000 }).catch(() => undefined);
    await go();
    await loaded;
    const aborted = (p: string) =>
      p.startsWith(`request failed: ${origin}/`) && p.endsWith(' (net::ERR_ABORTED)');
    problems.splice(before, problems.length - before, ...problems.slice(before).filter((p) => !aborted(p)));
  };

  /** One random act; returns what it did, for the log a failure prints. */
  async function act(): Promise<string> {
    const state = await pageState(page);
    if (state.bug) throw new Error(`the banner shows a violation in safe mode: ${state.bug}\n${replay()}`);
    // A person closes a dialog sooner or later; without this the monkey would spend its time in one.
    if (state.dialogOpen && random() < 0.3) {
      await page.keyboard.press('Escape');
      return 'key "Escape" (a dialog was open)';
    }
    if (random() < 0.3) {
      // Keys go to whatever has focus, as a person's would.
      let key = KEYS[Math.floor(random() * KEYS.length)];
      const activates = key === ' ' || key === 'Enter';
      if (state.focusGuarded && (activates || key.startsWith('Arrow'))) key = 'Tab';
      if (activates && state.focusLeaves) await leaving();
      const press = () => page.keyboard.press(key);
      await (key === 'Enter' && state.focusLink ? followLink(press) : press());
      return `key ${JSON.stringify(key)}`;
    }
    const target = await pickTarget(page, random(), random() < 0.2);
    if (!target) return 'nothing to touch';
    const el = page.locator('[data-monkey]');
    const quick = { timeout: 1500 };
    try {
      switch (target.kind) {
        case 'click': {
          if (target.leaves) await leaving();
          const click = () => page.mouse.click(target.x, target.y);
          // A link loads a page, the same one too.
          await (target.link ? followLink(click) : click());
          break;
        }
        case 'drag': {
          const from = target.x - target.w / 2 + random() * target.w;
          const to = target.x - target.w / 2 + random() * target.w;
          await page.mouse.move(from, target.y);
          await page.mouse.down();
          await page.mouse.move(to, target.y, { steps: 1 + Math.floor(random() * 8) });
          await page.mouse.up();
          break;
        }
        case 'select': {
          const options = await el
            .locator('option')
            .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
          const clock = /Clock rate/.test(target.label);
          const allowed = clock ? options.filter((v) => SAFE_RATES.includes(v)) : options;
          if (allowed.length) await el.selectOption(allowed[Math.floor(random() * allowed.length)], quick);
          break;
        }
        case 'type':
          await el.fill(TEXT[Math.floor(random() * TEXT.length)], quick);
          if (random() < 0.5) await el.press('Enter', quick);
          break;
      }
    } catch (e) {
      // The page moved on under the monkey (re-rendered, closed a dialog): a missed touch, not a bug.
      if (
        !(e instanceof Error) ||
        !/Timeout|detached|not attached|not an? (HTMLInputElement|<input>)|Cannot type|Element is not/.test(
          e.message,
        )
      )
        throw e;
      return `${target.kind} ${target.label} (missed)`;
    }
    return `${target.kind} ${target.label}`;
  }

  // Requests on their way, and when the last one began or ended (see the end of the test).
  const net = { inFlight: 0, changedMs: Date.now() };
  const netChanged = (by: number) => () => void ((net.inFlight += by), (net.changedMs = Date.now()));
  page.on('request', netChanged(1));
  page.on('requestfinished', netChanged(-1));
  page.on('requestfailed', netChanged(-1));

  await page.goto('/?speed=16&clients=20');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Leader Election Lab');
  const started = Date.now();
  while (Date.now() - started < MONKEY_MS) {
    const actStarted = Date.now();
    const what = await act();
    done.push(
      `${what} [${((actStarted - started) / 1000).toFixed(1)} s, took ${Date.now() - actStarted} ms]`,
    );
    // Fail at the act that caused a problem, not only when the fixture looks at the end.
    if (problems.length) throw new Error(`${problems.join('\n')}\n${replay()}`);
    // Links may lead to another of the lab's pages (a scenario, present mode): keep going there.
    if (new URL(page.url()).origin !== origin) throw new Error(`left the site: ${page.url()}\n${replay()}`);
  }

  // Let the last acts finish what they began: a click on an algorithm resets the run once that
  // algorithm's code has come, which could land after the link below was copied (a link to the old
  // run beside a page showing the new one). Until nothing is on its way for 300 ms, up to 10 s.
  await page.waitForLoadState('load');
  for (const until = Date.now() + 10_000; Date.now() < until; await page.waitForTimeout(50))
    if (net.inFlight <= 0 && Date.now() - net.changedMs > 300) break;
  // Close whatever is open, show hidden controls, and stop the clock so the page holds still.
  for (let i = 0; i < 3 && (await page.locator('dialog[open]').count()); i++)
    await page.keyboard.press('Escape');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  if (await page.evaluate(() => document.documentElement.classList.contains('controls-hidden')))
    await page.keyboard.press('c');
  await expect(page.locator('dialog[open]'), `no dialog is left open; ${replay()}`).toHaveCount(0);
  // By script: the button may be out of sight (present mode), and a paused clock stays paused.
  await page
    .getByTestId('play')
    .evaluate((b) => b.getAttribute('aria-label') === 'Pause' && (b as HTMLButtonElement).click());
  await expect(page.getByTestId('play'), `the clock is paused; ${replay()}`).toHaveAttribute(
    'aria-label',
    'Play',
  );

  await expect(page.getByRole('heading', { level: 1 }), `the lab's heading; ${replay()}`).toContainText(
    'Leader Election Lab',
  );
  await expect(
    page.locator('[data-testid^="node-"][data-role]').first(),
    `a node; ${replay()}`,
  ).toBeVisible();
  await expect(page.getByTestId('scene-error'), `no scene failed; ${replay()}`).toHaveCount(0);
  const banner = page.getByTestId('safety-banner');
  await expect(banner, `no bug in the banner; ${replay()}`).not.toContainText('bug:');
  const state = await banner.getAttribute('data-state');

  const last = await checkRun(page, replay);
  // And the replay is the run the page shows: same moment, same banner.
  await expect(page.getByTestId('sim-time'), `the clock shows the link's moment; ${replay()}`).toHaveText(
    `${(last.nowMs / 1000).toFixed(1)} s`,
  );
  expect(state, `the banner's state is the replay's; ${replay()}`).toBe(
    last.violations ? 'violated' : 'safe',
  );

  const missed = done.filter((d) => d.includes('(missed)')).length;
  test.info().annotations.push({
    type: 'monkey',
    description: `${done.length} acts (${missed} missed); ${runsLeft.length} runs checked on the way; the last run: ${last.summary}`,
  });
});
