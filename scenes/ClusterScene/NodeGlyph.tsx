// One node: its role told by shape and word, never colour alone (leader hexagon, candidate diamond,
// follower circle, witness square), in the algorithm's words (a Bully coordinator, a Raft leader of a term).
import { memo, type KeyboardEvent } from 'react';
import type { AlgorithmWords, NodeView } from '../../src/engine';
import { epochShort } from './words';
import { NODE_R, PAUSE_LABEL_Y, RING_SEL_R, ROLE_LINE, ROLE_Y, type Point } from './layout';

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

/** A glyph on the stage (a node, a service) as a toggle button at its place. */
export function pressableAt(at: Point, id: string, selected: boolean, onSelect: (id: string) => void) {
  return {
    transform: `translate(${at.x.toFixed(1)} ${at.y.toFixed(1)})`,
    role: 'button' as const,
    tabIndex: 0,
    'aria-pressed': selected,
    onClick: () => onSelect(id),
    onKeyDown: (e: KeyboardEvent) => {
      if (e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        onSelect(id);
      }
    },
  };
}

export function roleWord(n: NodeFacts, words: AlgorithmWords): string {
  if (!n.alive) return 'dead';
  if (n.witness) return 'witness';
  if (n.role === 'leader') return n.ready ? words.leader : `${words.leader} (warming up)`;
  if (n.preVoting) return 'pre-candidate';
  return n.role;
}

/** The role label as two lines, the role then its qualifier: one long line ran under storage's box. */
export function roleLines(n: NodeFacts, words: AlgorithmWords): [string, string] {
  if (n.alive && n.role === 'leader' && !n.witness) return [words.leader, n.ready ? '' : 'warming up'];
  return [roleWord(n, words), n.votedFor && n.alive ? `voted ${n.votedFor}` : ''];
}

export function nodeLabel(n: NodeFacts, words: AlgorithmWords): string {
  const parts = [`${n.id}: ${roleWord(n, words)}`, `${words.epoch} ${n.term}`];
  if (n.votedFor) parts.push(`voted for ${n.votedFor}`);
  if (n.paused) parts.push('GC-paused');
  if (n.clockRate !== 1) parts.push(`clock at ${n.clockRate}x`);
  return parts.join(', ');
}

interface Props {
  node: NodeFacts;
  words: AlgorithmWords;
  at: Point;
  selected: boolean;
  onSelect(id: string): void;
  /** A click opens a menu of the node's actions. */
  hasMenu?: boolean;
  registerArc(id: string, el: SVGPathElement | null): void;
  registerPause(id: string, el: SVGTextElement | null): void;
}

export const NodeGlyph = memo(function NodeGlyph({
  node,
  words,
  at,
  selected,
  onSelect,
  hasMenu = false,
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
  const lines = roleLines(node, words);
  const leading = node.alive && node.role === 'leader' && !node.witness;
  const cls = `node node-${kind}${node.paused ? ' node-paused' : ''}${selected ? ' node-selected' : ''}`;
  return (
    <g
      className={cls}
      {...pressableAt(at, node.id, selected, onSelect)}
      aria-haspopup={hasMenu ? 'dialog' : undefined}
      aria-label={`Select ${nodeLabel(node, words)}`}
      data-testid={`node-${node.id}`}
      data-role={node.alive ? node.role : 'dead'}
      data-term={node.term}
    >
      <circle className="focus-ring" r={RING_SEL_R} />
      <path className="lease-arc" ref={(el) => registerArc(node.id, el)} />
      <path className="node-shape" d={shapePath(kind === 'dead' ? 'follower' : kind, NODE_R)} />
      {/* Drawn large and faint behind the labels, so a dead node's id and term stay readable. */}
      {!node.alive && <path className="node-x" d={`M -22 -22 L 22 22 M 22 -22 L -22 22`} />}
      <text className="node-id" y={-4} textAnchor="middle">
        {node.id}
      </text>
      <text className="node-term" y={16} textAnchor="middle">
        {epochShort(words)}
        {node.term}
      </text>
      <text className="node-role" y={ROLE_Y} textAnchor="middle">
        {lines[0]}
        {lines[1] && (
          <tspan className={leading ? 'node-role-2' : 'node-role-2 node-vote'} x={0} dy={`${ROLE_LINE}em`}>
            {lines[1]}
          </tspan>
        )}
      </text>
      {node.paused && (
        <text
          className="node-paused-label"
          y={PAUSE_LABEL_Y}
          textAnchor="middle"
          ref={(el) => registerPause(node.id, el)}
        >
          GC pause
        </text>
      )}
      {node.clockRate !== 1 && node.alive && (
        <g className="clock-badge" transform={`translate(${NODE_R + 14} ${-NODE_R + 2})`}>
          {/* Sized by the stylesheet, in ems of its text (these are the sizes at 12 px). */}
          <rect x={-19} y={-9} width={38} height={18} rx={9} />
          <text y={0} dy="0.35em" textAnchor="middle">
            {node.clockRate}x
          </text>
        </g>
      )}
    </g>
  );
});
