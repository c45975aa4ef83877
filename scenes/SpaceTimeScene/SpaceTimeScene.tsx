// The space-time (Lamport) diagram (its data: spacetimeModel.ts), lost messages ending in a cross. It
// follows the lab's time cursor (the last minute up to it), and scrubbing or clicking it moves the lab.
import {
  memo,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type Dispatch,
  type SetStateAction,
  type KeyboardEvent,
  type PointerEvent,
} from 'react';
import { algorithmFor, type AlgorithmWords } from '../../src/engine';
import { useLab, useLabStore } from '../../src/store/context';
import { FAMILIES, kindTable, type Arrow, type Family, type Spacetime } from './spacetimeModel';
import { PLOT_H, PX_PER_MS, useSpacetime } from './useSpacetime';
import {
  labelKey,
  LANE_LABEL_PX,
  laneLabels,
  markLabel,
  partitionLabel,
  spanLabel,
  SPLIT_KEY,
  TOKEN_KEY,
} from './labels';
import { useSceneHost } from '../../src/ui/sceneHost';
import { formatSeconds as sec } from '../../src/store/format';
import './spacetimeScene.css';

const LEFT = 44;
/** Lanes share the scene's width, within these bounds (narrower, the diagram scales down). */
const LANE_MIN_W = 60;
const LANE_MAX_W = 150;
/** A long span repeats its role and epoch this often along the lane. */
const SPAN_LABEL_EVERY_PX = 120;
/** A lost message is drawn this far towards its receiver, where the cross is. */
const LOST_AT = 0.82;
/** The table lists at most this many messages, the latest. */
const MAX_ROWS = 200;

/** About how wide a character of a label is (10 px type): a label longer than its lane is cut. */
const CHAR_PX = 6;
/** Labels on one lane closer than this overlap. */
const LABEL_GAP_PX = 12;
/** The labels' size in the diagram's units (spacetimeScene.css), and their least size on screen. */
const LABEL_PX = 10;
const MIN_LABEL_PX = 11;

export function SpaceTimeScene() {
  const store = useLabStore();
  const algorithm = useLab((s) => s.experiment.algorithm);
  const canSeek = useLab((s) => s.can.seek);
  const alg = algorithmFor(algorithm);
  const kinds = useMemo(() => kindTable(alg.messages), [alg]);
  const [hiddenFamilies, setHiddenFamilies] = useState<ReadonlySet<Family>>(() => new Set());
  const [hiddenLanes, setHiddenLanes] = useState<ReadonlySet<string>>(() => new Set());
  // A game day's step filters the diagram to its families and lanes (the reader's ticks win until the next).
  const { spacetime: stepFilter } = useSceneHost();
  const model = useSpacetime({ pxPerMs: PX_PER_MS, hiddenFamilies, hiddenLanes });
  const nodes = useLab((s) => s.snapshot.nodes.map((n) => n.id).join(' '));
  const services = useLab((s) => s.snapshot.services.map((x) => x.id).join(' '));
  const [focus, setFocus] = useState(-1);
  const svg = useRef<SVGSVGElement>(null);
  const clipId = `spacetime-clip-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  const scrubbing = useRef(false);
  const section = useRef<HTMLElement>(null);
  const [roomPx, setRoomPx] = useState(640);
  useEffect(() => {
    const el = section.current;
    if (!el || typeof ResizeObserver !== 'function') return;
    const ro = new ResizeObserver(([entry]) => setRoomPx(Math.round(entry.contentRect.width)));
    ro.observe(el);
    return () => ro.disconnect();
  }, [model === null]);

  const laneIds = `${nodes} storage ${services}`.trim();
  useEffect(() => {
    const lanes = stepFilter?.lanes;
    const families = stepFilter?.families;
    setHiddenFamilies(new Set(families ? FAMILIES.filter((f) => !families.includes(f)) : []));
    setHiddenLanes(new Set(lanes ? laneIds.split(' ').filter((id) => !lanes.includes(id)) : []));
  }, [stepFilter, laneIds]);

  /** Select a moment everywhere: the lab holds still at it (stage, chain and chart follow). */
  const selectMoment = (ms: number) => {
    if (!canSeek) return;
    store.getState().pause();
    store.getState().seek(Math.round(ms));
  };

  if (!model) return <p className="hint">Drawing the space-time diagram…</p>;
  const laneW = Math.min(
    LANE_MAX_W,
    Math.max(LANE_MIN_W, (roomPx - LEFT - 8) / Math.max(1, model.lanes.length)),
  );
  const lanesW = model.lanes.length * laneW + 8;
  // Scales down to its room; the lanes' names keep their screen size, taking two rows rather than overlap.
  const fitScale = (left: number) => (roomPx > 0 ? Math.min(1, roomPx / (left + lanesW)) : 1); // 0: not laid out (an export's copy)
  // Scaled down (a phone's is drawn at half size), lane words grow by `k` in its units so none is drawn
  // below MIN_LABEL_PX on screen, and the time axis's margin grows with its figures.
  const growth = (s: number) => Math.max(1, MIN_LABEL_PX / (LABEL_PX * s));
  const left = Math.round(LEFT * growth(fitScale(LEFT)));
  const width = Math.round(left + lanesW);
  const scale = fitScale(left);
  const k = growth(scale);
  const names = laneLabels(model.lanes, laneW * scale);
  const top = names.topPx / scale;
  const nameSize = LANE_LABEL_PX / scale;
  const height = Math.round(top + PLOT_H + 14);
  const timeAt = (e: PointerEvent<SVGElement>): number | null => {
    const el = svg.current;
    const ctm = el?.getScreenCTM();
    if (!el || !ctm || !model) return null;
    const p = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    const t = model.fromMs + (p.y - top) / PX_PER_MS;
    return Math.min(model.toMs, Math.max(model.fromMs, t));
  };
  const x = new Map(model.lanes.map((l, i) => [l.id, left + laneW * (i + 0.5)]));
  // Drawn at absolute moments under one sliding transform: a scroll changes only what enters or leaves.
  const y = (ms: number) => ms * PX_PER_MS;
  const nodeLanes = new Set(model.lanes.filter((l) => l.kind === 'node').map((l) => l.id));
  const visible = model.arrows.filter((a) => x.has(a.from) && x.has(a.to));
  const onKey = (e: KeyboardEvent<SVGSVGElement>) => {
    if (!visible.length) return;
    let i = focus < 0 || focus >= visible.length ? visible.length : focus;
    if (e.key === 'ArrowUp' || e.key === 'ArrowLeft') i = Math.max(0, i - 1);
    else if (e.key === 'ArrowDown' || e.key === 'ArrowRight') i = Math.min(visible.length - 1, i + 1);
    else if (e.key === 'Home') i = 0;
    else if (e.key === 'End') i = visible.length - 1;
    else if (e.key === 'Enter' || e.key === ' ') {
      if (focus >= 0 && visible[focus]) selectMoment(visible[focus].doneAtMs);
    } else return;
    e.preventDefault();
    setFocus(i);
  };
  const focused = visible[focus];
  // A mark's words go where they clear every other word on its lane (a zombie's rejections, 8 px apart;
  // a span's role and epoch), cut to the lane's width; every mark is still drawn, and titled in full.
  const taken = new Map<string, number[]>();
  for (const s of model.spans)
    if (nodeLanes.has(s.lane))
      taken.set(s.lane, [...(taken.get(s.lane) ?? []), ...spanLabelsAt(y(s.startMs), y(s.endMs))]);
  const labelShown = new Set<string>();
  for (const m of model.marks) {
    if (!m.labelled) continue;
    const at = y(m.atMs);
    const lane = taken.get(m.lane) ?? [];
    if (lane.some((ly) => Math.abs(ly - at) < LABEL_GAP_PX * k)) continue;
    taken.set(m.lane, [...lane, at]);
    labelShown.add(m.key);
  }
  const fit = (text: string) => {
    const most = Math.max(2, Math.floor((laneW - 10) / (CHAR_PX * k)));
    return text.length <= most ? text : `${text.slice(0, most - 1)}…`;
  };
  const ticks: number[] = [];
  for (let t = Math.ceil(model.fromMs / 10_000) * 10_000; t <= model.toMs; t += 10_000)
    // The cursor's own label says the time where it passes a tick.
    if (Math.abs(t - model.nowMs) * PX_PER_MS > 12 * k) ticks.push(t);

  return (
    <section
      ref={section}
      className="spacetime-scene"
      aria-labelledby="spacetime-title"
      data-testid="spacetime"
    >
      <h2 id="spacetime-title">Space-time diagram</h2>
      <p className="hint spacetime-window" data-testid="spacetime-window">
        {sec(model.fromMs)} to {sec(model.toMs)}, the lab at <span className="mono">{sec(model.nowMs)}</span>
        {model.logFromMs > model.fromMs && ` (messages recorded from ${sec(model.logFromMs)} on)`}
        {model.logFromMs < 0 && ' (this run records no messages: lanes and events only)'}.{' '}
        {canSeek ? 'Drag along it to move the lab, click a message to go to its moment.' : ''}
      </p>
      <Filter
        kinds={kinds}
        laneIds={laneIds}
        hiddenFamilies={hiddenFamilies}
        hiddenLanes={hiddenLanes}
        onFamilies={setHiddenFamilies}
        onLanes={setHiddenLanes}
      />
      {stepFilter && (
        <p className="hint" data-testid="spacetime-step-filter">
          Filtered to this step:{' '}
          {stepFilter.families
            ? stepFilter.families.map((f) => familyName(f, kinds)).join(', ')
            : 'every message'}
          {stepFilter.lanes ? ` on ${stepFilter.lanes.join(', ')}` : ''}. Tick a box to show more.
        </p>
      )}
      <LabelKey words={alg.words} />
      <svg
        ref={svg}
        className="spacetime-svg"
        viewBox={`0 0 ${width} ${height}`}
        style={{ '--st-k': k.toFixed(3) } as CSSProperties}
        width={width}
        role="group"
        aria-label={`Space-time diagram, ${sec(model.fromMs)} to ${sec(model.toMs)}: arrow keys move between messages, Enter goes to one's moment`}
        aria-describedby="spacetime-table-caption"
        tabIndex={0}
        onKeyDown={onKey}
        data-from-ms={model.fromMs}
        data-now-ms={model.nowMs}
      >
        <rect
          className="st-plot"
          x={left - 30}
          y={top}
          width={width - left + 30}
          height={PLOT_H}
          onPointerDown={(e) => {
            const t = timeAt(e);
            if (t === null || !canSeek) return;
            scrubbing.current = true;
            e.currentTarget.setPointerCapture(e.pointerId);
            selectMoment(t);
          }}
          onPointerMove={(e) => {
            const t = scrubbing.current ? timeAt(e) : null;
            if (t !== null) store.getState().seek(Math.round(t));
          }}
          onPointerUp={() => (scrubbing.current = false)}
          onPointerCancel={() => (scrubbing.current = false)}
        />
        {model.lanes.map((l, i) => (
          <g key={l.id} className={`st-lane st-lane-${l.kind}`} data-lane={l.id}>
            <text
              x={x.get(l.id)}
              y={top - names.labels[i].abovePx / scale}
              textAnchor="middle"
              className="st-lane-label"
              fontSize={nameSize}
            >
              {names.labels[i].text !== l.label && <title>{l.label}</title>}
              {names.labels[i].text}
            </text>
            <line x1={x.get(l.id)} x2={x.get(l.id)} y1={top} y2={top + PLOT_H} />
          </g>
        ))}
        <defs>
          <clipPath id={clipId}>
            <rect x={0} y={top - 8} width={width} height={PLOT_H + 16} />
          </clipPath>
        </defs>
        <g clipPath={`url(#${clipId})`}>
          <g transform={`translate(0,${top - y(model.fromMs)})`} data-testid="spacetime-time">
            {model.partitions.map((p) => (
              <g key={p.startMs === model.fromMs ? 'start' : p.startMs} className="st-partition">
                <rect x={left} y={y(p.startMs)} width={width - left - 8} height={y(p.endMs) - y(p.startMs)} />
                <text
                  className="svg-halo"
                  x={width - 10}
                  y={y(p.startMs) + 11 * k}
                  textAnchor="end"
                  data-key={SPLIT_KEY}
                >
                  {partitionLabel(p.groups)}
                </text>
              </g>
            ))}
            {ticks.map((t) => (
              <g key={t} className="st-tick">
                <line x1={left - 4} x2={width - 8} y1={y(t)} y2={y(t)} />
                <text x={left - 6} y={y(t) + 4 * k} textAnchor="end">
                  {t / 1000}s
                </text>
              </g>
            ))}
            {model.spans.map((s) => (
              <g
                key={`${s.lane}@${s.startMs === model.fromMs ? 'start' : s.startMs}`}
                className={`st-span st-${s.state}`}
                data-lane={s.lane}
              >
                <rect
                  x={(x.get(s.lane) as number) - 3}
                  y={y(s.startMs)}
                  width={6}
                  height={Math.max(1, y(s.endMs) - y(s.startMs))}
                />
                {nodeLanes.has(s.lane) &&
                  spanLabelsAt(y(s.startMs), y(s.endMs)).map((ly) => (
                    <text
                      key={ly}
                      x={(x.get(s.lane) as number) + 5}
                      y={ly}
                      className="st-span-label svg-halo"
                      data-key={spanLabel(s).key}
                    >
                      {spanLabel(s).text}
                    </text>
                  ))}
              </g>
            ))}
            {model.bands.map((b) => {
              const xs = x.get(b.from) as number;
              const xr = x.get(b.to) as number;
              const x2 = xs + (xr - xs) * (b.dropped ? LOST_AT : 1);
              // What is still in flight ends at the cursor.
              const yd = (ms: number) => y(Math.min(model.nowMs, ms));
              const inSide = xr > xs ? -1 : 1;
              // A band: a faint sheet between lanes, strips on each; they do not hide arrows drawn over.
              return (
                <g
                  key={b.key}
                  className={`st-band st-${b.family} msg-${b.family}${b.dropped ? ' st-lost' : ''}`}
                  data-count={b.count}
                  data-from={b.from}
                  data-to={b.to}
                >
                  <polygon
                    points={`${xs},${y(b.firstSentAtMs)} ${xs},${y(b.lastSentAtMs)} ${x2},${yd(b.lastDoneAtMs)} ${x2},${yd(b.firstDoneAtMs)}`}
                  />
                  {bandStrip(xs - inSide * 4, y(b.firstSentAtMs), y(b.lastSentAtMs))}
                  {bandStrip(x2 + inSide * 4, yd(b.firstDoneAtMs), yd(b.lastDoneAtMs))}
                  <title>
                    {b.count} {b.label} {b.from} → {b.to}
                    {b.dropped ? ' (lost)' : ''}, {sec(b.firstSentAtMs)} to {sec(b.lastDoneAtMs)}
                    {b.inFlight ? `, ${b.inFlight} still in flight` : ''}
                  </title>
                </g>
              );
            })}
            {visible.map((a, i) => (
              <ArrowLine
                key={a.id}
                a={a}
                x1={x.get(a.from) as number}
                x2={x.get(a.to) as number}
                y={y}
                nowMs={model.nowMs}
                focused={i === focus}
                onSelect={() => {
                  setFocus(i);
                  selectMoment(a.inFlight ? model.nowMs : a.doneAtMs);
                }}
              />
            ))}
            {model.marks.map((m) => (
              <g
                key={m.key}
                className={`st-mark st-mark-${m.kind}`}
                data-kind={m.kind}
                data-at-ms={m.atMs}
                transform={`translate(${x.get(m.lane)},${y(m.atMs)})`}
                onClick={() => selectMoment(m.atMs)}
              >
                {m.kind === 'fault' ? (
                  <path d="M-5,-5 L5,5 M-5,5 L5,-5" />
                ) : (
                  <circle r={m.kind === 'rejected' ? 4.5 : 3} />
                )}
                {labelShown.has(m.key) ? (
                  <text x={7} y={4} className="st-mark-label svg-halo" data-key={markLabel(m).key}>
                    {fit(markLabel(m).text)}
                  </text>
                ) : null}
                <title>
                  {m.lane} {m.text} at {sec(m.atMs)}
                </title>
              </g>
            ))}
            <g className="st-cursor" data-testid="spacetime-cursor">
              <line x1={left - 30 * k} x2={width - 8} y1={y(model.nowMs)} y2={y(model.nowMs)} />
              <text x={left - 30 * k} y={y(model.nowMs) - 3}>
                {sec(model.nowMs)}
              </text>
            </g>
          </g>
        </g>
      </svg>
      {focused && (
        <p className="hint" aria-live="polite" data-testid="spacetime-focus">
          {describe(focused)}
        </p>
      )}
      <MessageTable
        model={model}
        arrows={visible}
        onSelect={(a) => selectMoment(a.inFlight ? model.nowMs : a.doneAtMs)}
      />
    </section>
  );
}

const toggle = <T,>(set: ReadonlySet<T>, v: T): ReadonlySet<T> => {
  const next = new Set(set);
  if (!next.delete(v)) next.add(v);
  return next;
};

const checkbox = (checked: boolean, onChange: () => void) => (
  <input type="checkbox" checked={checked} onChange={onChange} />
);

/** The filter, apart and memoised: re-rendering a checkbox rewrites its attributes, ten times a second. */
const Filter = memo(function Filter({
  kinds,
  laneIds,
  hiddenFamilies,
  hiddenLanes,
  onFamilies,
  onLanes,
}: {
  kinds: ReturnType<typeof kindTable>;
  /** Lane ids, space-separated (a string, so that an equal list is equal). */
  laneIds: string;
  hiddenFamilies: ReadonlySet<Family>;
  hiddenLanes: ReadonlySet<string>;
  onFamilies: Dispatch<SetStateAction<ReadonlySet<Family>>>;
  onLanes: Dispatch<SetStateAction<ReadonlySet<string>>>;
}) {
  const families = FAMILIES.filter((f) => [...kinds.values()].some((k) => k.family === f));
  return (
    <fieldset className="spacetime-filter">
      <legend>Show</legend>
      {families.map((f) => (
        <label key={f} className={`st-chip st-${f} msg-${f}`}>
          {checkbox(!hiddenFamilies.has(f), () => onFamilies((h) => toggle(h, f)))}
          <span className="st-swatch" aria-hidden="true" />
          {familyName(f, kinds)}
        </label>
      ))}
      {laneIds.split(' ').map((id) => (
        <label key={id} className="st-chip">
          {checkbox(!hiddenLanes.has(id), () => onLanes((h) => toggle(h, id)))}
          {id}
        </label>
      ))}
    </fieldset>
  );
});

/** What every label the diagram writes means (labels.ts: the same functions write them). */
const LabelKey = memo(function LabelKey({ words }: { words: AlgorithmWords }) {
  return (
    <details className="spacetime-key" open>
      <summary>Key to the labels</summary>
      <dl data-testid="spacetime-key">
        {labelKey(words).map((e) => (
          <div key={e.key} data-key={e.key}>
            <dt className="mono">{e.sample}</dt>
            <dd>{e.meaning}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
});

/** Where a span's role and epoch go: a fixed grid (they stay put as it scrolls), or a short span's start. */
function spanLabelsAt(y1: number, y2: number): number[] {
  const at: number[] = [];
  for (
    let ly = Math.ceil((y1 + 10) / SPAN_LABEL_EVERY_PX) * SPAN_LABEL_EVERY_PX;
    ly <= y2 - 2;
    ly += SPAN_LABEL_EVERY_PX
  )
    at.push(ly);
  if (at.length === 0 && y2 - y1 >= 14) at.push(y1 + 10);
  return at;
}

function bandStrip(x: number, y1: number, y2: number) {
  return <rect className="st-band-strip" x={x - 1.5} y={y1} width={3} height={Math.max(1, y2 - y1)} />;
}

function familyName(f: Family, kinds: ReturnType<typeof kindTable>): string {
  const labels = [...kinds.values()].filter((k) => k.family === f).map((k) => k.label);
  return [...new Set(labels)].join(' / ');
}

function describe(a: Arrow): string {
  const fate = a.inFlight ? 'in flight, due' : a.dropped ? 'lost at' : 'delivered at';
  const token = a.token !== undefined ? ` token ${a.token}` : '';
  const granted = a.granted === undefined ? '' : a.granted ? ' granted' : ' refused';
  return `${a.label}${token}${granted} ${a.from} → ${a.to}, sent at ${sec(a.sentAtMs)}, ${fate} ${sec(a.doneAtMs)}`;
}

interface ArrowLineProps {
  a: Arrow;
  x1: number;
  x2: number;
  y: (ms: number) => number;
  nowMs: number;
  focused: boolean;
  onSelect(): void;
}

function ArrowLine({ a, x1, x2, y, nowMs, focused, onSelect }: ArrowLineProps) {
  const y1 = y(a.sentAtMs);
  let ex = x2;
  let ey = y(a.doneAtMs);
  if (a.inFlight) {
    const f = a.doneAtMs > a.sentAtMs ? Math.min(1, (nowMs - a.sentAtMs) / (a.doneAtMs - a.sentAtMs)) : 1;
    ex = x1 + (x2 - x1) * f;
    ey = y(Math.min(nowMs, a.doneAtMs));
  } else if (a.dropped) {
    ex = x1 + (x2 - x1) * LOST_AT;
  }
  const cls = `st-arrow st-${a.family} msg-${a.family}${a.dropped ? ' st-lost' : ''}${a.inFlight ? ' st-inflight' : ''}${focused ? ' st-focused' : ''}`;
  return (
    <g
      className={cls}
      data-msg-id={a.id}
      data-type={a.type}
      data-dropped={a.dropped ? '' : undefined}
      data-done-ms={a.doneAtMs}
      onClick={onSelect}
    >
      <line className="st-hit" x1={x1} y1={y1} x2={ex} y2={ey} />
      <line x1={x1} y1={y1} x2={ex} y2={ey} />
      {a.dropped ? (
        <path
          className="st-cross"
          d={`M${ex - 4},${ey - 4} L${ex + 4},${ey + 4} M${ex - 4},${ey + 4} L${ex + 4},${ey - 4}`}
        />
      ) : (
        !a.inFlight && <circle className="st-head" cx={ex} cy={ey} r={2.2} />
      )}
      {a.token !== undefined && a.kind !== 'leader' && a.kind !== 'client' && (
        <text x={(x1 + ex) / 2 + 3} y={(y1 + ey) / 2 - 2} className="st-arrow-label" data-key={TOKEN_KEY}>
          {a.token}
        </text>
      )}
      <title>{describe(a)}</title>
    </g>
  );
}

interface MessageTableProps {
  model: Spacetime;
  arrows: readonly Arrow[];
  onSelect(a: Arrow): void;
}

function MessageTable({ model, arrows, onSelect }: MessageTableProps) {
  const rows = arrows.slice(-MAX_ROWS);
  const banded = model.bands.reduce((n, b) => n + b.count, 0);
  return (
    <details className="spacetime-table">
      <summary>Messages as a table ({arrows.length})</summary>
      <table>
        <caption id="spacetime-table-caption">
          Messages between {sec(model.fromMs)} and {sec(model.nowMs)}
          {rows.length < arrows.length ? `, the latest ${rows.length} of ${arrows.length}` : ''}
          {banded ? `; ${banded} routine messages drawn as ${model.bands.length} bands` : ''}.
        </caption>
        <thead>
          <tr>
            <th scope="col">Sent</th>
            <th scope="col">Kind</th>
            <th scope="col">From</th>
            <th scope="col">To</th>
            <th scope="col">Fate</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((a) => (
            <tr key={a.id} data-msg-id={a.id}>
              <td className="mono">{sec(a.sentAtMs)}</td>
              <td>
                {a.label}
                {a.token !== undefined ? ` ${a.token}` : ''}
                {a.granted === undefined ? '' : a.granted ? ' (granted)' : ' (refused)'}
              </td>
              <td>{a.from}</td>
              <td>{a.to}</td>
              <td>
                <button type="button" className="st-go" onClick={() => onSelect(a)}>
                  {a.inFlight ? 'in flight' : a.dropped ? 'lost' : 'delivered'} {sec(a.doneAtMs)}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
