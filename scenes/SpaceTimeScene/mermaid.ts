// The diagram's window as a Mermaid sequence diagram (the export panel saves it): messages in send order
// (replies dotted, lost ones crossed), a note per band of routine traffic, and the lanes' events as notes.
import type { Spacetime } from './spacetimeModel';
import { formatSeconds as sec } from '../../src/store/format';

const REPLY = new Set(['grant', 'ack', 'reject']);
/** Mermaid reads `;` and `#` as syntax in a message. */
const clean = (text: string) => text.replace(/[;#]/g, ' ');

export function toMermaid(m: Spacetime): string {
  const items: { atMs: number; order: number; line: string }[] = [];
  /** A line of the diagram at its moment: `head` is Mermaid's syntax, `text` the words. */
  const add = (atMs: number, order: number, head: string, text: string) =>
    items.push({ atMs, order, line: `${head}: ${clean(text)}` });
  m.arrows.forEach((a, i) => {
    const line = REPLY.has(a.family) ? (a.dropped ? '--x' : '-->>') : a.dropped ? '-x' : '->>';
    const token = a.token !== undefined ? ` token ${a.token}` : '';
    const granted = a.granted === undefined ? '' : a.granted ? ' granted' : ' refused';
    const fate = a.inFlight ? 'in flight' : a.dropped ? `lost ${sec(a.doneAtMs)}` : sec(a.doneAtMs);
    const text = `${a.label}${token}${granted} (${sec(a.sentAtMs)} to ${fate})`;
    add(a.sentAtMs, i, `${a.from}${line}${a.to}`, text);
  });
  m.bands.forEach((b, i) => {
    const text = `${b.count} ${b.label}${b.dropped ? ' lost' : ''}, ${sec(b.firstSentAtMs)} to ${sec(b.lastDoneAtMs)}`;
    add(b.firstSentAtMs, i, `Note over ${b.from},${b.to}`, text);
  });
  m.marks.forEach((k, i) => add(k.atMs, i, `Note over ${k.lane}`, `${k.text} (${sec(k.atMs)})`));
  items.sort((a, b) => a.atMs - b.atMs || a.order - b.order);
  return [
    'sequenceDiagram',
    `  %% ${sec(m.fromMs)} to ${sec(m.nowMs)}`,
    ...m.lanes.map((l) =>
      l.label === l.id ? `  participant ${l.id}` : `  participant ${l.id} as ${clean(l.label)}`,
    ),
    ...items.map((x) => `  ${x.line}`),
  ].join('\n');
}
