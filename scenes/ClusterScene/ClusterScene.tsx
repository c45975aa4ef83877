// The cluster stage: nodes on a ring, the storage, the client population, partition groups,
// and the messages in flight. Discrete state (roles, terms, groups) renders through React, from
// the snapshot the store publishes up to ten times a second; the per-frame motion (message dots,
// lease arcs) is drawn on a canvas over the SVG (useMotionLayer), so playing at 64x neither
// re-renders the React tree nor changes the SVG per frame.
import { useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { polygonHull } from 'd3';
import type { Snapshot } from '../../src/engine';
import { useLab, useLabShallow, useLabStore, useLabUpdate } from '../../src/store/context';
import { setText } from '../../src/ui/domWrites';
import { NodeGlyph, type NodeFacts } from './NodeGlyph';
import { nodePositions, NODE_R, VIEW_H, VIEW_W, type Point } from './layout';
import { DOT_KINDS } from './motion';
import { useMotionLayer } from './useMotionLayer';
import './clusterScene.css';

function factsKey(s: Snapshot): string {
  return s.nodes
    .map((n) =>
      [
        n.id,
        n.role,
        n.term,
        n.votedFor,
        n.alive,
        n.paused,
        n.clockRate,
        n.witness,
        n.ready,
        n.preVoting,
        n.votes.join('+'),
      ].join(':'),
    )
    .join('|');
}

function parseFacts(key: string): NodeFacts[] {
  return key.split('|').map((row) => {
    const [id, role, term, votedFor, alive, paused, clockRate, witness, ready, preVoting, votes] =
      row.split(':');
    return {
      id,
      role: role as NodeFacts['role'],
      term: Number(term),
      votedFor: votedFor || null,
      alive: alive === 'true',
      paused: paused === 'true',
      clockRate: Number(clockRate),
      witness: witness === 'true',
      ready: ready === 'true',
      preVoting: preVoting === 'true',
      votes,
    };
  });
}

function groupHull(points: Point[], pad: number): string {
  const ring: [number, number][] = [];
  for (const p of points) {
    for (let i = 0; i < 12; i++) {
      const a = (i / 12) * Math.PI * 2;
      ring.push([p.x + pad * Math.cos(a), p.y + pad * Math.sin(a)]);
    }
  }
  const hull = polygonHull(ring);
  if (!hull) return '';
  return `M ${hull.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' L ')} Z`;
}

export function ClusterScene() {
  const key = useLab((s) => factsKey(s.snapshot));
  const nodes = useMemo(() => parseFacts(key), [key]);
  const { partition, selected, select, clients } = useLabShallow((s) => ({
    partition: JSON.stringify(s.snapshot.partition),
    selected: s.selected,
    select: s.select,
    clients: s.snapshot.clients.count,
  }));
  const ids = useMemo(() => nodes.map((n) => n.id), [nodes]);
  const pos = useMemo(() => nodePositions(ids), [ids]);
  const groups: string[][] | null = JSON.parse(partition);

  const arcs = useRef(new Map<string, SVGPathElement>());
  const pauses = useRef(new Map<string, SVGTextElement>());
  const svg = useRef<SVGSVGElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const dotLayer = useRef<SVGGElement>(null);
  const motion = useMemo(() => ({ svg, canvas, arcs, dotLayer }), []);
  const registerArc = useCallback((id: string, el: SVGPathElement | null) => {
    if (el) arcs.current.set(id, el);
    else arcs.current.delete(id);
  }, []);
  const registerPause = useCallback((id: string, el: SVGTextElement | null) => {
    if (el) pauses.current.set(id, el);
    else pauses.current.delete(id);
  }, []);
  const onSelect = useCallback((id: string) => select(selected === id ? null : id), [select, selected]);

  // Lease arcs and message dots move every frame: drawn on the canvas over the SVG.
  const canvasKey = useMotionLayer(motion, key);
  // A paused node's timer follows the snapshot (ten times a second while playing), written
  // straight to its text rather than re-rendering the stage; and after every render, for a
  // timer that has just appeared.
  const store = useLabStore();
  const writePauses = (snap: Snapshot) => {
    for (const n of snap.nodes) {
      const p = pauses.current.get(n.id);
      if (p && n.paused) setText(p, `GC pause ${((snap.nowMs - n.pausedAtMs) / 1000).toFixed(1)} s`);
    }
  };
  useLabUpdate((s) => writePauses(s.snapshot));
  useLayoutEffect(() => writePauses(store.getState().snapshot));

  const groupShapes = groups?.map((g, i) => {
    const pts = g.map((id) => pos[id]).filter(Boolean);
    return { i, d: groupHull(pts, NODE_R + 22), label: `group ${String.fromCharCode(65 + i)}`, at: pts[0] };
  });

  return (
    <section className="cluster-scene" aria-labelledby="cluster-title">
      <h2 id="cluster-title" className="visually-hidden">
        Cluster
      </h2>
      <div className="cluster-stage">
        <svg
          ref={svg}
          viewBox={`0 0 ${VIEW_W} ${VIEW_H}`}
          className="cluster-svg"
          role="group"
          aria-label="Cluster stage"
        >
          <defs>
            <pattern
              id="hatch"
              width="6"
              height="6"
              patternUnits="userSpaceOnUse"
              patternTransform="rotate(45)"
            >
              <line x1="0" y1="0" x2="0" y2="6" className="hatch-line" />
            </pattern>
          </defs>
          {groupShapes?.map((g) => (
            <g key={g.i} className={`partition-group partition-${g.i % 4}`} data-testid="partition-group">
              <path d={g.d} />
              {g.at && (
                <text x={g.at.x} y={g.at.y - NODE_R - 30} textAnchor="middle">
                  {g.label}
                </text>
              )}
            </g>
          ))}
          {clients > 0 && (
            <g
              className="clients"
              transform={`translate(${pos.clients.x} ${pos.clients.y})`}
              data-testid="clients"
            >
              <rect x={-34} y={-34} width={68} height={68} rx={12} />
              <text y={-4} textAnchor="middle">
                {clients}
              </text>
              <text y={14} textAnchor="middle" className="small">
                clients
              </text>
            </g>
          )}
          <StorageBox at={pos.storage} />
          {nodes.map((n) => (
            <NodeGlyph
              key={n.id}
              node={n}
              at={pos[n.id]}
              selected={selected === n.id}
              onSelect={onSelect}
              registerArc={registerArc}
              registerPause={registerPause}
            />
          ))}
          {/* Styled by the stylesheet, drawn on the canvas; filled in only for an export. */}
          <g ref={dotLayer} className="dots" aria-hidden="true">
            {DOT_KINDS.map((kind) => (
              <path key={kind} className={`dot dot-${kind}`} data-testid={`dots-${kind}`} />
            ))}
          </g>
        </svg>
        <canvas
          key={canvasKey}
          ref={canvas}
          className="cluster-motion"
          aria-hidden="true"
          data-testid="stage-motion"
        />
      </div>
      <StorageLedger />
    </section>
  );
}

/**
 * The storage: the highest token it has seen and its verdict on the latest write. A rejected
 * write's verdict is a new element each time, so its bounce plays for every zombie write.
 */
function StorageBox({ at }: { at: Point }) {
  const maxToken = useLab((s) => s.snapshot.storage.maxTokenSeen);
  const last = useLab((s) => {
    const r = s.snapshot.storage.recent;
    return r[r.length - 1];
  });
  const rejected = last?.result === 'rejected';
  return (
    <g className="storage" transform={`translate(${at.x} ${at.y})`} data-testid="storage">
      <path d="M -40 -44 h 80 v 88 h -80 Z" />
      <text y={-24} textAnchor="middle" className="small">
        storage
      </text>
      <text y={-4} textAnchor="middle" className="mono">
        max {maxToken}
      </text>
      {last && (
        <text
          y={20}
          textAnchor="middle"
          key={rejected ? `${last.atMs}${last.node}` : 'verdict'}
          className={`write-result ${rejected ? 'bounce' : last.stale ? 'stale' : ''}`}
        >
          {rejected ? `✕ ${last.token}` : `✓ ${last.token}`}
        </text>
      )}
    </g>
  );
}

function StorageLedger() {
  const recent = useLab((s) => s.snapshot.storage.recent);
  // Rows are keyed by their place in the list, newest first, so a new write changes the rows'
  // words in place rather than removing and adding rows: with many clients every row is new at
  // every snapshot, and making and dropping rows is what cost that frame its layout. Each row
  // keeps to three text nodes for the same reason.
  return (
    <div className="ledger">
      <ol aria-label="Latest writes at the storage">
        {recent
          .slice(-6)
          .reverse()
          .map((w, slot) => (
            <li key={slot} className={`ledger-${w.result}${w.stale ? ' ledger-stale' : ''}`}>
              <span className="mono">{`${(w.atMs / 1000).toFixed(1)} s`}</span>
              {` ${w.node} token ${w.token} `}
              <strong>
                {w.result === 'rejected'
                  ? '✕ rejected (zombie)'
                  : w.stale
                    ? '⚠ accepted STALE'
                    : '✓ accepted'}
              </strong>
            </li>
          ))}
      </ol>
    </div>
  );
}
