// The space-time diagram's window as a Mermaid sequence diagram (the export panel saves it): the
// lanes as participants, each message an arrow in the order it was sent (replies dotted, lost
// ones ending in a cross), dense routine traffic as one note per band, and the lanes' faults,
// elections and storage's verdicts as notes, all at their moments.
import type { Spacetime } from './spacetimeModel';
import { formatSeconds as sec } from '../../src/store/format';

const REPLY = new Set(['grant', 'ack', 'reject']);
/** Mermaid reads `;` and `#` as syntax in a message. */
const clean = (text: string) => text.replace(/[;#]/g, ' ');

export function toMermaid(m: Spacetime): string {
  const items: { atMs: number; order: number; line: string }[] = [];
  m.arrows.forEach((a, i) => {
    const line = REPLY.has(a.family) ? (a.dropped ? '--x' : '-->>') : a.dropped ? '-x' : '->>';
    const token = a.token !== undefined ? ` token ${a.token}` : '';
    const granted = a.granted === undefined ? '' : a.granted ? ' granted' : ' refused';
    const fate = a.inFlight ? 'in flight' : a.dropped ? `lost ${sec(a.doneAtMs)}` : sec(a.doneAtMs);
    items.push({
      atMs: a.sentAtMs,
      order: i,
      line: `${a.from}${line}${a.to}: ${clean(`${a.label}${token}${granted} (${sec(a.sentAtMs)} to ${fate})`)}`,
    });
  });
  m.bands.forEach((b, i) =>
    items.push({
      atMs: b.firstSentAtMs,
      order: i,
      line: `Note over ${b.from},${b.to}: ${clean(`${b.count} ${b.label}${b.dropped ? ' lost' : ''}, ${sec(b.firstSentAtMs)} to ${sec(b.lastDoneAtMs)}`)}`,
    }),
  );
  m.marks.forEach((k, i) =>
    items.push({
      atMs: k.atMs,
      order: i,
      line: `Note over ${k.lane}: ${clean(`${k.text} (${sec(k.atMs)})`)}`,
    }),
  );
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
