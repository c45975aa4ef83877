// Renders a ChartModel as SVG. Colours are theme variables; bands carry a hatch and the two lines differ in
// dash and width, so nothing relies on colour alone. The legend is in the SVG, so an export names each line.
import { WATCH_SWATCH, type ChartModel, type Panel, type Tick, type WatchBarKind } from './chartModel';
import type { LegendLayout } from './leaderLines';

interface Props {
  chart: ChartModel;
  uid: string;
  label: string;
}

function XAxis({ y, ticks, plotW }: { y: number; ticks: Tick[]; plotW: number }) {
  return (
    <g className="metric-axis">
      <line x1={0} x2={plotW} y1={y} y2={y} />
      {ticks.map((t) => (
        <g key={t.label} transform={`translate(${t.pos},${y})`}>
          <line y2={5} />
          <text x={t.labelDx} y={17} textAnchor="middle">
            {t.label}
          </text>
        </g>
      ))}
    </g>
  );
}

function YLabels({ ticks }: { ticks: Tick[] }) {
  return (
    <g className="metric-axis">
      {ticks.map((t) => (
        <text key={t.label} x={-8} y={t.pos} dy="0.32em" textAnchor="end">
          {t.label}
        </text>
      ))}
    </g>
  );
}

const SWATCH_KIND = new Map(
  (Object.entries(WATCH_SWATCH) as [WatchBarKind, string][]).map(([kind, glyph]) => [glyph, kind]),
);

/** A panel's title, its key glyphs (the watch panel's filled and outlined squares) in their bars' colours. */
function Title({ text }: { text: string }) {
  return text
    .split(/([\u25A0\u25A1])/)
    .filter(Boolean)
    .map((part, i) => {
      const kind = SWATCH_KIND.get(part);
      return kind ? (
        <tspan key={i} className={`metric-swatch metric-swatch-${kind}`}>
          {part}
        </tspan>
      ) : (
        part
      );
    });
}

const rectOf = ({ x, y, w, h }: Record<'x' | 'y' | 'w' | 'h', number>) => ({ x, y, width: w, height: h });

function SmallMultiple({ panel, plotW, clip }: { panel: Panel; plotW: number; clip: string }) {
  const base = panel.top + panel.height;
  return (
    <g className={`metric-panel metric-panel-${panel.key}`}>
      <text className="metric-panel-title" x={0} y={panel.top - 7}>
        <Title text={panel.title} />
      </text>
      <line className="metric-baseline" x1={0} x2={plotW} y1={base} y2={base} />
      <YLabels ticks={panel.yTicks} />
      {panel.refLine && (
        <g className="metric-deadline">
          <line x1={0} x2={plotW} y1={panel.refLine.y} y2={panel.refLine.y} />
          <text className="svg-halo" x={plotW - 2} y={panel.refLine.y + 14} textAnchor="end">
            {panel.refLine.label}
          </text>
        </g>
      )}
      <g clipPath={`url(#${clip})`}>
        {panel.bars.map((b) => (
          <rect
            key={`${b.kind ?? ''}${b.startMs}`}
            className={b.kind ? `metric-bar metric-bar-${b.kind}` : 'metric-bar'}
            data-start-ms={b.kind ? b.startMs : undefined}
            {...rectOf(b)}
          />
        ))}
        {panel.lineD && <path className={`metric-line ${panel.lineClass}`} d={panel.lineD} />}
      </g>
    </g>
  );
}

function Legend({ legend }: { legend: LegendLayout }) {
  return (
    // Inset a little: an exported image is cut at the SVG's edge, and the first glyph sat on it.
    <g className="metric-legend" transform="translate(2,0)">
      {legend.keys.map((k) => (
        <g key={k.key} className={`metric-key metric-key-${k.key}`}>
          <line
            className={`metric-line metric-line-${k.key}`}
            x1={k.x}
            x2={k.textX - 5}
            y1={k.y - 4}
            y2={k.y - 4}
          />
          <text x={k.textX} y={k.y}>
            {k.label}
          </text>
        </g>
      ))}
      {legend.lesson.map((l) => (
        <text key={l.y} className="metric-lesson" x={0} y={l.y}>
          {l.text}
        </text>
      ))}
    </g>
  );
}

export function ChartSvg({ chart, uid, label }: Props) {
  const { main, plotW } = chart;
  const clip = `${uid}-clip`;
  const hatch = `${uid}-hatch`;
  const mainBottom = main.top + main.height;
  return (
    <svg
      className="metric-svg"
      role="img"
      aria-label={label}
      width={chart.width}
      height={chart.height}
      viewBox={`0 0 ${chart.width} ${chart.height}`}
    >
      <defs>
        <clipPath id={clip}>
          <rect x={0} y={0} width={plotW} height={chart.height} />
        </clipPath>
        <pattern id={hatch} width={6} height={6} patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
          <line className="metric-hatch-line" x1={0} y1={0} x2={0} y2={6} />
        </pattern>
      </defs>
      <Legend legend={chart.legend} />
      <g transform={`translate(${chart.marginLeft},0)`}>
        {[main.splitBrainBand, main.noLeaderBand].map((b, i) => (
          <g key={i} className="metric-band">
            <rect className="metric-band-fill" x={0} y={b.y} width={plotW} height={b.h} />
            <rect x={0} y={b.y} width={plotW} height={b.h} fill={`url(#${hatch})`} />
          </g>
        ))}
        {main.starting && (
          <g
            className="metric-starting"
            data-testid="chart-starting"
            data-start-ms={main.starting.startMs}
            data-end-ms={main.starting.endMs}
          >
            <title>starting: the cluster electing its first leader (no page, no time without a leader)</title>
            <rect x={main.starting.x} y={main.top} width={main.starting.w} height={main.height} />
            {/* Only where it has room: a start-up of a second or two is a sliver on a long window. */}
            {main.starting.w >= 56 && (
              <text x={main.starting.x + 4} y={main.top + main.height / 2}>
                starting
              </text>
            )}
          </g>
        )}
        {main.firing.map((f) => (
          <rect
            key={`${f.kind}:${f.startMs}`}
            className={`metric-firing metric-firing-${f.kind}`}
            data-start-ms={f.startMs}
            data-end-ms={f.endMs}
            {...rectOf(f)}
          />
        ))}
        <g className="metric-healthy">
          <line x1={0} x2={plotW} y1={main.healthyY} y2={main.healthyY} />
          <text className="svg-halo" x={plotW - 2} y={main.healthyY - 6} textAnchor="end">
            healthy
          </text>
        </g>
        <YLabels ticks={main.yTicks} />
        <g className="metric-fault-rules">
          {chart.faults.map((f, i) => (
            <line key={`${f.atMs}:${i}`} x1={f.x} x2={f.x} y1={main.top} y2={chart.bottomAxisY} />
          ))}
        </g>
        <g clipPath={`url(#${clip})`}>
          <path className="metric-line metric-line-observed" d={main.observedD} />
          <path className="metric-line metric-line-believed" d={main.believedD} />
        </g>
        {/* After the line, so the haloed labels stay legible where the line crosses them. */}
        <text
          className="metric-band-label svg-halo"
          x={6}
          y={main.splitBrainBand.y + main.splitBrainBand.h - 7}
        >
          page: split brain
        </text>
        <text className="metric-band-label svg-halo" x={6} y={main.noLeaderBand.y + 16}>
          page: no leader
        </text>
        <line className="metric-baseline" x1={0} x2={plotW} y1={mainBottom} y2={mainBottom} />
        <XAxis y={chart.axisY} ticks={chart.xTicks} plotW={plotW} />
        <g className="metric-faults">
          {chart.faults.map((f, i) => (
            <g key={`${f.atMs}:${i}`} className="metric-fault" data-at-ms={f.atMs}>
              <line
                className="metric-fault-mark"
                x1={f.x}
                x2={f.x}
                y1={chart.axisY - 6}
                y2={chart.axisY + 6}
              />
              {f.shown && (
                <text x={f.anchor === 'start' ? f.x + 3 : f.x - 3} y={f.labelY} textAnchor={f.anchor}>
                  {f.label}
                </text>
              )}
            </g>
          ))}
        </g>
        {chart.panels.map((p) => (
          <SmallMultiple key={p.key} panel={p} plotW={plotW} clip={clip} />
        ))}
        {!chart.compact && <XAxis y={chart.bottomAxisY} ticks={chart.xTicks} plotW={plotW} />}
      </g>
    </svg>
  );
}
