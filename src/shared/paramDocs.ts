// docs/embedding.md's parameter and scene tables (npm run gen:docs writes them; a unit test checks them).
import { ALGORITHM_KINDS, ALGORITHMS, WARM_UP_PRESETS } from '../engine';
import { MAX_SPEED, MIN_SPEED } from '../store/labStore';
import { PARAMS, type ParamName, type ParamPage } from './params';
import { SCENES } from './scenes';

/** A row of the docs' table: the values a parameter accepts, and what it does. */
const words = (values: string, doc: string) => ({ values, doc });

/** Each parameter's accepted values and meaning, in the docs' words. */
export const PARAM_DOCS: Record<ParamName, { values: string; doc: string }> = {
  scene: words(SCENES.map((s) => `\`${s.id}\``).join(', '), 'which scene fills the frame'),
  scenario: words('a scenario id (see [scenarios.md](scenarios.md))', "run that game day's experiment"),
  step: words(
    "1 to the scenario's number of steps",
    'open the scenario at that step, the run played up to it',
  ),
  run: words(
    'the value of a shared run link',
    'replay a run someone shared (setup, commands, moment, and its game day if it had one)',
  ),
  algorithm: words(
    ALGORITHM_KINDS.map((k) => `\`${k}\``).join(', '),
    `the election algorithm of a setup without a scenario (${ALGORITHM_KINDS.map((k) => ALGORITHMS[k].title).join(', ')}), with its own defaults`,
  ),
  seed: words('0 to 4294967295', 'the seed of a setup without a scenario'),
  nodes: words('1 to 9', 'cluster size of a setup without a scenario'),
  clients: words('0 to 2000', 'clients writing through the leader, in a setup without a scenario'),
  warmup: words(
    `\`cold\` (${WARM_UP_PRESETS.cold} ms), \`prewarmed\` (${WARM_UP_PRESETS.prewarmed} ms) or 0 to 600000 ms`,
    'how long a new leader warms up (caches, state) before it serves, in a setup without a scenario: a cold leader, a pre-warmed standby or a duration',
  ),
  witness: words('`1` or `0`', 'add a witness (votes, never leads) to a setup without a scenario'),
  speed: words(`${MIN_SPEED} to ${MAX_SPEED}`, 'simulated seconds per real second'),
  paused: words('present, or `1` / `0`', 'open the lab paused'),
  present: words(
    'present, or `1` / `0`',
    'present mode: projector-sized type, keyboard control ([presenting.md](presenting.md))',
  ),
  autoplay: words('`1` or `0`', 'start playing at once'),
  controls: words('`minimal` or `none`', 'play/pause, restart and "Open in the lab", or nothing'),
  theme: words(
    '`light`, `dark` or `system`; the element also `inherit`',
    'colours; `inherit` follows the page around the element (its `color-scheme`, else its background), and switches with it, the run going on',
  ),
  real: words(
    'the bridge URL `npm run lab:real` prints, `http://127.0.0.1:PORT`',
    'open the lab in real mode, driving the real etcd cluster behind that bridge ([real.md](real.md)); needs `token`',
  ),
  token: words(
    'the token `npm run lab:real` prints with the URL',
    "the real run's token: its bridge takes commands only with it",
  ),
  height: words(
    'a number of pixels, or a CSS length',
    'a fixed height for the frame; otherwise it grows and shrinks with its scene',
  ),
  title: words('text', "the frame's accessible name"),
  id: words('set by the element', 'which element a frame reports its height to'),
};

const PAGE_NAMES: Record<ParamPage, string> = { lab: 'lab', embed: 'iframe', element: 'element' };

function row(cells: string[], widths: number[]): string {
  return `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
}

function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [
    row(header, widths),
    `| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
    ...rows.map((r) => row(r, widths)),
  ].join('\n');
}

export function paramsTable(): string {
  const names = (Object.keys(PARAMS) as ParamName[]).filter((n) => !PARAMS[n].internal);
  return markdownTable(
    ['parameter', 'values', 'default', 'pages', 'meaning'],
    names.map((n) => [
      `\`${n}\``,
      PARAM_DOCS[n].values,
      PARAMS[n].defaultText,
      PARAMS[n].pages.map((x) => PAGE_NAMES[x]).join(', '),
      PARAM_DOCS[n].doc,
    ]),
  );
}

export function scenesTable(): string {
  return markdownTable(
    ['`scene=`', 'scene', 'also accepted'],
    SCENES.map((s) => [
      `\`${s.id}\``,
      s.title,
      (s.aliases as readonly string[]).map((a) => `\`${a}\``).join(', ') || ' ',
    ]),
  );
}

/** Replace the text between `<!-- name:begin -->` and `<!-- name:end -->`. */
export function fillBetween(doc: string, name: string, body: string): string {
  const begin = `<!-- ${name}:begin -->`;
  const end = `<!-- ${name}:end -->`;
  const i = doc.indexOf(begin);
  const j = doc.indexOf(end);
  if (i < 0 || j < i) throw new Error(`the doc has no ${begin} ... ${end} section`);
  return `${doc.slice(0, i + begin.length)}\n\n${body}\n\n${doc.slice(j)}`;
}

export function embeddingDoc(doc: string): string {
  return fillBetween(fillBetween(doc, 'params', paramsTable()), 'scenes', scenesTable());
}
