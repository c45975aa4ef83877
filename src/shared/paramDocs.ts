// The parameter and scene tables of docs/embedding.md, generated from the parameter table and
// the scene registry (npm run gen:docs writes them; a unit test fails when the doc is behind).
import { PARAMS, type ParamName, type ParamPage } from './params';
import { SCENES } from './scenes';

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
  const names = (Object.keys(PARAMS) as ParamName[]).filter((n) => !('internal' in PARAMS[n]));
  return markdownTable(
    ['parameter', 'values', 'default', 'pages', 'meaning'],
    names.map((n) => {
      const p = PARAMS[n];
      return [`\`${n}\``, p.values, p.defaultText, p.pages.map((x) => PAGE_NAMES[x]).join(', '), p.doc];
    }),
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
