// The cluster stage: nodes on a ring, the storage, the client population, partition groups,
// and the messages in flight. Discrete state (roles, terms, groups) renders through React;
// per-frame motion (message dots, lease arcs, pause timers) is written straight to the DOM
// from the store subscription, so playing at 64x does not re-render the React tree per frame.
import { useCallback, useMemo, useRef } from 'react';
import { polygonHull } from 'd3';
import type { MessageView, Snapshot } from '../../src/engine';
import { useLab, useLabFrame, useLabShallow } from '../../src/store/context';
import { setAttr, setText } from '../../src/ui/domWrites';
import { NodeGlyph, type NodeFacts } from './NodeGlyph';
import { arcPath, circlePath, messagePoint, nodePositions, NODE_R, VIEW_H, VIEW_W, type Point } from './layout';
import './clusterScene.css';

const MAX_DOTS = 160;
const DROP_SHOW_MS = 900;

function factsKey(s: Snapshot): string {
  return s.nodes
    .map((n) =>
      [n.id, n.role, n.term, n.votedFor, n.alive, n.paused, n.clockRate, n.witness, n.ready, n.preVoting, n.votes.join('+')].join(
        ':',
      ),
    )
    .join('|');
}

function parseFacts(key: string): NodeFacts[] {
  return key.split('|').map((row) => {
    const [id, role, term, votedFor, alive, paused, clockRate, witness, ready, preVoting, votes] = row.split(':');
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

/** Kinds of message dot, in drawing order (later ones on top). */
const DOT_KINDS = ['heartbeat', 'vote', 'write', 'reject', 'dropped'] as const;
type DotKind = (typeof DOT_KINDS)[number];

function dotKind(m: MessageView): DotKind {
  if (m.type === 'write') return 'write';
  if (m.type === 'writeRejected') return 'reject';
  if (m.type === 'heartbeat' || m.type === 'ack') return 'heartbeat';
  return 'vote';
}

export function ClusterScene() {
  const key = useLab((s) => factsKey(s.snapshot));
  const nodes = useMemo(() => parseFacts(key), [key]);
  const { partition, selected, select, clients, maxToken } = useLabShallow((s) => ({
    partition: JSON.stringify(s.snapshot.partition),
    selected: s.selected,
    select: s.select,
    clients: s.snapshot.clients.count,
    maxToken: s.snapshot.storage.maxTokenSeen,
  }));
  const recent = useLab((s) => s.snapshot.storage.recent);
  const lastWrite = recent[recent.length - 1];
  const ids = useMemo(() => nodes.map((n) => n.id), [nodes]);
  const pos = useMemo(() => nodePositions(ids), [ids]);
  const groups: string[][] | null = JSON.parse(partition);

  const arcs = useRef(new Map<string, SVGPathElement>());
  const pauses = useRef(new Map<string, SVGTextElement>());
  const dotLayer = useRef<SVGGElement>(null);
  const registerArc = useCallback((id: string, el: SVGPathElement | null) => {
    if (el) arcs.current.set(id, el);
    else arcs.current.delete(id);
  }, []);
  const registerPause = useCallback((id: string, el: SVGTextElement | null) => {
    if (el) pauses.current.set(id, el);
    else pauses.current.delete(id);
  }, []);
  const onSelect = useCallback((id: string) => select(selected === id ? null : id), [select, selected]);

  // Dots, arcs and pause timers move every frame: they read the per-frame snapshot.
  useLabFrame((s) => {
    const snap = s.frame;
    const now = snap.nowMs;
    const lease = s.experiment.lease;
    for (const n of snap.nodes) {
      const arc = arcs.current.get(n.id);
      if (arc) {
        let d = '';
        if (n.alive && n.deadlineAtMs >= 0) {
          const total = n.role === 'leader' ? lease.renewDeadlineMs : Math.max(1, n.deadlineAtMs - Math.max(0, n.lastRenewAtMs));
          d = arcPath(0, 0, NODE_R + 7, (n.deadlineAtMs - now) / total);
        }
        setAttr(arc, 'd', d);
      }
      const p = pauses.current.get(n.id);
      if (p && n.paused) setText(p, `GC pause ${((now - n.pausedAtMs) / 1000).toFixed(1)} s`);
    }
    const layer = dotLayer.current;
    if (!layer) return;
    // One path per kind of message, each a run of circles: a handful of attribute writes per
    // frame instead of three per dot, and a handful of shapes for the browser to lay out.
    const rings: Record<DotKind, string[]> = { heartbeat: [], vote: [], write: [], reject: [], dropped: [] };
    const at = nodePositions(snap.nodes.map((n) => n.id));
    let count = 0;
    for (const m of snap.messages) {
      if (count >= MAX_DOTS) break;
      const dropped = m.droppedAtMs !== undefined;
      if (dropped && now - (m.droppedAtMs as number) >= DROP_SHOW_MS) continue;
      const from = at[m.from];
      const to = at[m.to];
      if (!from || !to) continue;
      const pt = messagePoint(from, to, m.sentAtMs, m.deliverAtMs, dropped ? (m.droppedAtMs as number) : now);
      const kind = dropped ? 'dropped' : dotKind(m);
      rings[kind].push(circlePath(pt.x, pt.y, dropped || kind === 'write' || kind === 'reject' ? 7 : 5));
      count++;
    }
    // The layer's children are the paths, in DOT_KINDS order (rendered below).
    DOT_KINDS.forEach((kind, i) => {
      const el = layer.children[i];
      if (el) setAttr(el, 'd', rings[kind].join(' '));
    });
  });

  const groupShapes = groups?.map((g, i) => {
    const pts = g.map((id) => pos[id]).filter(Boolean);
    return { i, d: groupHull(pts, NODE_R + 22), label: `group ${String.fromCharCode(65 + i)}`, at: pts[0] };
  });

  return (
    <section className="cluster-scene" aria-labelledby="cluster-title">
      <h2 id="cluster-title" className="visually-hidden">
        Cluster
      </h2>
      <svg viewBox={`0 0 ${VIEW_W} ${VIEW_H}`} className="cluster-svg" role="group" aria-label="Cluster stage">
        <defs>
          <pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
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
          <g className="clients" transform={`translate(${pos.clients.x} ${pos.clients.y})`} data-testid="clients">
            <rect x={-34} y={-34} width={68} height={68} rx={12} />
            <text y={-4} textAnchor="middle">
              {clients}
            </text>
            <text y={14} textAnchor="middle" className="small">
              clients
            </text>
          </g>
        )}
        <g className="storage" transform={`translate(${pos.storage.x} ${pos.storage.y})`} data-testid="storage">
          <path d="M -40 -44 h 80 v 88 h -80 Z" />
          <text y={-24} textAnchor="middle" className="small">
            storage
          </text>
          <text y={-4} textAnchor="middle" className="mono">
            max {maxToken}
          </text>
          {lastWrite && (
            <text
              y={20}
              textAnchor="middle"
              key={lastWrite.atMs + lastWrite.node}
              className={`write-result ${lastWrite.result === 'rejected' ? 'bounce' : lastWrite.stale ? 'stale' : ''}`}
            >
              {lastWrite.result === 'rejected' ? `✕ ${lastWrite.token}` : `✓ ${lastWrite.token}`}
            </text>
          )}
        </g>
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
        <g ref={dotLayer} className="dots" aria-hidden="true">
          {DOT_KINDS.map((kind) => (
            <path key={kind} className={`dot dot-${kind}`} data-testid={`dots-${kind}`} />
          ))}
        </g>
      </svg>
      <StorageLedger />
    </section>
  );
}

function StorageLedger() {
  const recent = useLab((s) => s.snapshot.storage.recent);
  const total = useLab((s) => s.snapshot.storage.accepted + s.snapshot.storage.rejected);
  // Each write's number among all the storage has judged: a key that stays with its row, so a new
  // write adds one row and drops one instead of rebuilding the list.
  const first = total - recent.length;
  return (
    <div className="ledger">
      <ol aria-label="Latest writes at the storage">
        {recent
          .map((w, i) => ({ w, key: first + i }))
          .slice(-6)
          .reverse()
          .map(({ w, key }) => (
            <li key={key} className={`ledger-${w.result}${w.stale ? ' ledger-stale' : ''}`}>
              <span className="mono">{(w.atMs / 1000).toFixed(1)} s</span> {w.node} token {w.token}{' '}
              <strong>
                {w.result === 'rejected' ? '✕ rejected (zombie)' : w.stale ? '⚠ accepted STALE' : '✓ accepted'}
              </strong>
            </li>
          ))}
      </ol>
    </div>
  );
}
