// One node on the stage. Its role is told by shape and by a word, never by colour alone:
// leader = hexagon, candidate = diamond, follower = circle, witness = square.
import { memo } from 'react';
import type { NodeView } from '../../src/engine';
import { NODE_R, type Point } from './layout';

export type NodeFacts = Pick<
  NodeView,
  'id' | 'role' | 'term' | 'votedFor' | 'alive' | 'paused' | 'clockRate' | 'witness' | 'ready' | 'preVoting'
> & { votes: string };

function shapePath(kind: string, r: number): string {
  if (kind === 'leader') {
    const pts = Array.from({ length: 6 }, (_, i) => {
      const a = Math.PI / 6 + (i * Math.PI) / 3;
      return `${(r * 1.08 * Math.cos(a)).toFixed(1)},${(r * 1.08 * Math.sin(a)).toFixed(1)}`;
    });
    return `M ${pts.join(' L ')} Z`;
  }
  if (kind === 'candidate') return `M 0 ${-r * 1.15} L ${r * 1.15} 0 L 0 ${r * 1.15} L ${-r * 1.15} 0 Z`;
  if (kind === 'witness') return `M ${-r * 0.85} ${-r * 0.85} H ${r * 0.85} V ${r * 0.85} H ${-r * 0.85} Z`;
  return `M ${-r} 0 A ${r} ${r} 0 1 0 ${r} 0 A ${r} ${r} 0 1 0 ${-r} 0 Z`;
}

export function roleWord(n: NodeFacts): string {
  if (!n.alive) return 'dead';
  if (n.witness) return 'witness';
  if (n.role === 'leader') return n.ready ? 'leader' : 'leader (warming up)';
  if (n.preVoting) return 'pre-candidate';
  return n.role;
}

export function nodeLabel(n: NodeFacts): string {
  const parts = [`${n.id}: ${roleWord(n)}`, `term ${n.term}`];
  if (n.votedFor) parts.push(`voted for ${n.votedFor}`);
  if (n.paused) parts.push('GC-paused');
  if (n.clockRate !== 1) parts.push(`clock at ${n.clockRate}x`);
  return parts.join(', ');
}

interface Props {
  node: NodeFacts;
  at: Point;
  selected: boolean;
  onSelect(id: string): void;
  registerArc(id: string, el: SVGPathElement | null): void;
  registerPause(id: string, el: SVGTextElement | null): void;
}

export const NodeGlyph = memo(function NodeGlyph({
  node,
  at,
  selected,
  onSelect,
  registerArc,
  registerPause,
}: Props) {
  const kind = !node.alive
    ? 'dead'
    : node.witness
      ? 'witness'
      : node.role === 'follower' && node.preVoting
        ? 'candidate'
        : node.role;
  const cls = `node node-${kind}${node.paused ? ' node-paused' : ''}${selected ? ' node-selected' : ''}`;
  return (
    <g
      className={cls}
      transform={`translate(${at.x.toFixed(1)} ${at.y.toFixed(1)})`}
      role="button"
      tabIndex={0}
      aria-pressed={selected}
      aria-label={`Select ${nodeLabel(node)}`}
      data-testid={`node-${node.id}`}
      data-role={node.alive ? node.role : 'dead'}
      data-term={node.term}
      onClick={() => onSelect(node.id)}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onSelect(node.id);
        }
      }}
    >
      <circle className="focus-ring" r={NODE_R + 14} />
      <path className="lease-arc" ref={(el) => registerArc(node.id, el)} />
      <path className="node-shape" d={shapePath(kind === 'dead' ? 'follower' : kind, NODE_R)} />
      {/* Drawn large and faint behind the labels, so a dead node's id and term stay readable. */}
      {!node.alive && <path className="node-x" d={`M -22 -22 L 22 22 M 22 -22 L -22 22`} />}
      <text className="node-id" y={-4} textAnchor="middle">
        {node.id}
      </text>
      <text className="node-term" y={16} textAnchor="middle">
        t{node.term}
      </text>
      <text className="node-role" y={NODE_R + 24} textAnchor="middle">
        {roleWord(node)}
        {node.votedFor && node.alive && node.role !== 'leader' && (
          <tspan className="node-vote"> · voted {node.votedFor}</tspan>
        )}
      </text>
      {node.paused && (
        <text
          className="node-paused-label"
          y={-NODE_R - 12}
          textAnchor="middle"
          ref={(el) => registerPause(node.id, el)}
        >
          GC pause
        </text>
      )}
      {node.clockRate !== 1 && node.alive && (
        <g className="clock-badge" transform={`translate(${NODE_R - 2} ${-NODE_R + 2})`}>
          <rect x={-4} y={-11} width={40} height={18} rx={9} />
          <text x={16} y={2} textAnchor="middle">
            {node.clockRate}x
          </text>
        </g>
      )}
    </g>
  );
});
