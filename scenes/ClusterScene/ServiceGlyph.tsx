// The algorithm's services, boxes apart from the nodes: the API server, its store's members in an outline
// named after the store. Dead: a dashed outline and a cross, not colour alone. A button, like a node.
import { memo, type ReactNode } from 'react';
import { majorityOf, type Snapshot } from '../../src/engine';
import { pressableAt } from './NodeGlyph';
import { isStandalone, MEMBER_HALF, serviceHalf, type Half, type Point } from './layout';

/** A service as the snapshot shows it, and where the stage places it. */
export type ServiceFacts = Snapshot['services'][number] & {
  /** The partition group it is placed in (its name is "group A", "B"...), or -1 if it reaches every group. */
  group: number;
};

/** A name for the store's members as a whole: "etcd", "ZooKeeper ensemble". */
export function ensembleName(members: readonly ServiceFacts[]): string {
  if (members.some((m) => m.kind === 'zkServer')) return 'ZooKeeper ensemble';
  const first = members[0]?.label ?? '';
  return first.includes(' ') ? first.slice(0, first.lastIndexOf(' ')) : 'store';
}

export function serviceLabel(s: ServiceFacts, partitioned: boolean): string {
  const parts = [`${s.label}: ${s.alive ? 'up' : 'dead'}`];
  if (s.group >= 0) parts.push(`in group ${String.fromCharCode(65 + s.group)}`);
  else if (partitioned) parts.push('reaches every group');
  return parts.join(', ');
}

interface Props {
  service: ServiceFacts;
  at: Point;
  selected: boolean;
  partitioned: boolean;
  onSelect(id: string): void;
}

export const ServiceGlyph = memo(function ServiceGlyph({
  service,
  at,
  selected,
  partitioned,
  onSelect,
}: Props) {
  const api = isStandalone(service.kind);
  const half: Half = serviceHalf(service);
  const cls = `service ${api ? 'service-api' : 'service-member'}${service.alive ? '' : ' service-dead'}${
    selected ? ' service-selected' : ''
  }`;
  return (
    <g
      className={cls}
      {...pressableAt(at, service.id, selected, onSelect)}
      aria-label={`Select ${serviceLabel(service, partitioned)}`}
      data-testid={`service-${service.id}`}
      data-alive={service.alive}
      data-group={service.group}
    >
      {/* The stylesheet sizes the API server's boxes in ems of its words: on a phone they outgrow these. */}
      <rect
        className="focus-ring"
        x={-half.w - 7}
        y={-half.h - 7}
        width={2 * half.w + 14}
        height={2 * half.h + 14}
        rx={12}
      />
      <rect className="service-box" x={-half.w} y={-half.h} width={2 * half.w} height={2 * half.h} rx={8} />
      {!service.alive && (
        <path
          className="service-x"
          d={`M ${-half.h} ${-half.h + 4} L ${half.h} ${half.h - 4} M ${half.h} ${-half.h + 4} L ${-half.h} ${half.h - 4}`}
        />
      )}
      <text className={api ? 'service-name' : 'service-name service-id'} dy="0.35em" textAnchor="middle">
        {api ? <ShortOnAPhone label={service.label} /> : service.id}
      </text>
    </g>
  );
});

/** "API server", "ZooKeeper ensemble": a phone shows the first word (CSS hides the rest), clear of nodes. */
function ShortOnAPhone({ label }: { label: string }) {
  const cut = label.indexOf(' ');
  if (cut < 0) return <>{label}</>;
  return (
    <>
      {label.slice(0, cut)}
      <tspan className="service-name-rest">{label.slice(cut)}</tspan>
    </>
  );
}

/** The outline around the store's members, its name under them, and the members (`children`). */
interface EnsembleProps {
  members: readonly ServiceFacts[];
  at: Record<string, Point>;
  children: ReactNode;
}

export function Ensemble({ members, at, children }: EnsembleProps) {
  const placed = members.filter((m) => at[m.id]);
  if (!placed.length) return null;
  const pad = 14;
  const l = Math.min(...placed.map((m) => at[m.id].x)) - MEMBER_HALF.w - pad;
  const r = Math.max(...placed.map((m) => at[m.id].x)) + MEMBER_HALF.w + pad;
  const t = Math.min(...placed.map((m) => at[m.id].y)) - MEMBER_HALF.h - pad;
  const b = Math.max(...placed.map((m) => at[m.id].y)) + MEMBER_HALF.h + pad;
  const name = ensembleName(placed);
  const majority = `majority ${majorityOf(members.length)} of ${members.length}`;
  return (
    <g className="ensemble" role="group" aria-label={`${name}, ${majority}`} data-testid="ensemble">
      <rect className="ensemble-outline" x={l} y={t} width={r - l} height={b - t} rx={16} />
      {/* Under the members (above, it ran under "Embed this"), then their quorum (on a phone: step 1's). */}
      <text className="ensemble-name" x={r - 4} y={b + 8} dy="0.8em" textAnchor="end" aria-hidden="true">
        <ShortOnAPhone label={name} />
        <tspan className="ensemble-majority" x={r - 4} dy="1.3em" data-testid="ensemble-majority">
          {majority}
        </tspan>
      </text>
      {children}
    </g>
  );
}
