// The cluster stage in the algorithm's words; a click on a node opens its menu (NodeMenu). Discrete state
// renders through React per snapshot; per-frame motion (dots, lease arcs) is on a canvas over the SVG
// (useMotionLayer), so playing at 64x neither re-renders the React tree nor changes the SVG per frame.
import { lazy, Suspense, useCallback, useLayoutEffect, useMemo, useRef } from 'react';
import { algorithmFor, type Snapshot } from '../../src/engine';
import { useLab, useLabEqual, useLabShallow, useLabStore, useLabUpdate } from '../../src/store/context';
import { samePartition, sameRecords, selectPartition } from '../../src/store/select';
import { setText } from '../../src/ui/domWrites';
import { useSceneHost } from '../../src/ui/sceneHost';
import { NodeGlyph, type NodeFacts } from './NodeGlyph';
import { boxAround, groupShape, nodeBox, typeScale, type GroupMember } from './groups';
import { StorageLedger } from './StorageLedger';
import {
  isStandalone,
  nodePositions,
  serviceHalf,
  storageHalf,
  VIEW_H,
  viewWidth,
  type Point,
} from './layout';
import { Ensemble, ServiceGlyph, type ServiceFacts } from './ServiceGlyph';
import { StageLegend } from './StageLegend';
import { DOT_KINDS } from './motion';
import { useMotionLayer } from './useMotionLayer';
import './clusterScene.css';

// A node's menu loads with the first click on a node: the stage draws without it (bench:load).
const NodeMenu = lazy(() => import('./NodeMenu').then((m) => ({ default: m.NodeMenu })));

/** A ref callback's keeper: each node's element by its id, while it is mounted. */
const registerIn =
  <E,>(map: Map<string, E>) =>
  (id: string, el: E | null) =>
    void (el ? map.set(id, el) : map.delete(id));

/** What a node glyph draws of each node: its facts, compared field by field (sameRecords). */
function nodeFacts(s: Snapshot): NodeFacts[] {
  return s.nodes.map((n) => ({
    id: n.id,
    role: n.role,
    term: n.term,
    votedFor: n.votedFor,
    alive: n.alive,
    paused: n.paused,
    clockRate: n.clockRate,
    witness: n.witness,
    ready: n.ready,
    preVoting: n.preVoting,
    votes: n.votes.join('+'),
  }));
}

/** The services' facts (they change only when one dies, returns or changes side). */
function serviceFacts(s: Snapshot): ServiceFacts[] {
  const group = (id: string) => s.partition?.findIndex((g) => g.includes(id)) ?? -1;
  return s.services.map((v) => ({ ...v, group: group(v.id) }));
}

export function ClusterScene() {
  const nodes = useLabEqual((s) => nodeFacts(s.snapshot), sameRecords);
  const groups = useLabEqual(selectPartition, samePartition);
  const { selected, select, menu, openMenu, commands, clients, algorithm, live } = useLabShallow((s) => ({
    selected: s.selected,
    select: s.select,
    menu: s.menu,
    openMenu: s.openMenu,
    commands: s.can.commands.length,
    clients: s.snapshot.clients.count,
    algorithm: s.experiment.algorithm,
    live: s.backendKind === 'live',
  }));
  const alg = algorithmFor(algorithm);
  const services = useLabEqual((s) => serviceFacts(s.snapshot), sameRecords);
  const ids = useMemo(() => nodes.map((n) => n.id), [nodes]);
  const pos = useMemo(() => nodePositions(ids, services), [ids, services]);
  const width = viewWidth(services);
  const api = services.filter((v) => isStandalone(v.kind));
  const members = services.filter((v) => !isStandalone(v.kind));

  const arcs = useRef(new Map<string, SVGPathElement>());
  const pauses = useRef(new Map<string, SVGTextElement>());
  const svg = useRef<SVGSVGElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const dotLayer = useRef<SVGGElement>(null);
  const motion = useMemo(() => ({ svg, canvas, arcs, dotLayer }), []);
  const registerArc = useMemo(() => registerIn(arcs.current), []);
  const registerPause = useMemo(() => registerIn(pauses.current), []);
  const onSelect = useCallback((id: string) => select(selected === id ? null : id), [select, selected]);
  const { controls, density, NodeActions } = useSceneHost();
  // A run that takes commands shows a node's actions in a menu on it; a recording only selects.
  const withMenu = NodeActions !== undefined && commands > 0;
  const onNode = useCallback(
    (id: string) => (menu === id ? select(null) : openMenu(id)),
    [menu, select, openMenu],
  );
  const closeMenu = useCallback(
    (refocus: boolean) => {
      const node = svg.current?.querySelector<SVGGElement>(`[data-testid="node-${menu}"]`);
      openMenu(null);
      if (refocus) node?.focus();
    },
    [menu, openMenu],
  );
  const menuAnchor = menu && withMenu ? svg.current?.querySelector(`[data-testid="node-${menu}"]`) : null;

  const { canvasKey, unit } = useMotionLayer(motion, nodes, width);
  // A paused node's timer is written straight to its text per snapshot (and after renders, for a new one).
  const store = useLabStore();
  const writePauses = (snap: Snapshot) => {
    for (const n of snap.nodes) {
      const p = pauses.current.get(n.id);
      if (p && n.paused) setText(p, `GC pause ${((snap.nowMs - n.pausedAtMs) / 1000).toFixed(1)} s`);
    }
  };
  useLabUpdate((s) => writePauses(s.snapshot));
  useLayoutEffect(() => writePauses(store.getState().snapshot));

  const k = typeScale(unit);
  const half = storageHalf(services);
  const storageBox = { w: half, h: half };
  // A group's name clears every node, the storage's box and the services' boxes.
  const avoid = [
    ...nodes.map((n) => nodeBox({ at: pos[n.id], paused: n.paused }, k)),
    boxAround(pos.storage, storageBox, 6),
    ...services.map((v) => boxAround(pos[v.id], serviceHalf(v), 6)),
  ];
  const groupShapes = groups?.flatMap((g, i) => {
    const inGroup = g
      .filter((id) => pos[id])
      .map((id): GroupMember => {
        if (id === 'storage') return { at: pos[id], paused: false, box: storageBox };
        const service = services.find((v) => v.id === id);
        if (service) return { at: pos[id], paused: false, box: serviceHalf(service) };
        return { at: pos[id], paused: nodes.find((n) => n.id === id)?.paused ?? false };
      });
    const shape = groupShape(inGroup, avoid, width, k);
    return shape ? [{ i, ...shape, name: `group ${String.fromCharCode(65 + i)}` }] : [];
  });
  const serviceGlyph = (v: ServiceFacts) => (
    <ServiceGlyph
      key={v.id}
      service={v}
      at={pos[v.id]}
      selected={selected === v.id}
      partitioned={groups !== null}
      onSelect={onSelect}
    />
  );

  return (
    <section className="cluster-scene" aria-labelledby="cluster-title">
      <h2 id="cluster-title" className="visually-hidden">
        Cluster
      </h2>
      <div className="cluster-stage">
        <svg
          ref={svg}
          viewBox={`0 0 ${width} ${VIEW_H}`}
          className="cluster-svg"
          role="group"
          aria-label="Cluster stage"
          // Drawn so small that its words outgrow their places: the lines the chain also says go.
          data-small={k > 0.9 ? '' : undefined}
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
              <text x={g.label.x} y={g.label.y} textAnchor="middle">
                {g.name}
              </text>
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
          <StorageBox at={pos.storage} half={half} />
          {api.map(serviceGlyph)}
          {members.length > 0 && (
            <Ensemble members={members} at={pos}>
              {members.map(serviceGlyph)}
            </Ensemble>
          )}
          {nodes.map((n) => (
            <NodeGlyph
              key={n.id}
              node={n}
              words={alg.words}
              at={pos[n.id]}
              selected={selected === n.id}
              onSelect={withMenu ? onNode : onSelect}
              hasMenu={withMenu}
              registerArc={registerArc}
              registerPause={registerPause}
            />
          ))}
          {/* Styled by the stylesheet, drawn on the canvas; filled in only for an export. */}
          <g ref={dotLayer} className="dots" aria-hidden="true">
            {DOT_KINDS.map((kind) => (
              <path key={kind} className={`dot dot-${kind} msg-${kind}`} data-testid={`dots-${kind}`} />
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
      {menu && NodeActions && menuAnchor && (
        <Suspense fallback={null}>
          <NodeMenu id={menu} anchor={menuAnchor} onClose={closeMenu}>
            <NodeActions />
          </NodeMenu>
        </Suspense>
      )}
      {/* On a laptop's first screen the lab shows the key in its side column (KeyPanel). */}
      {/* A real run's traffic is etcd's own and is not drawn, so there is no key to it. */}
      {!(controls && density === 'compact') && !live && <StageLegend alg={alg} />}
      {/* A page with controls (the lab) shows the ledger with its event log, not under the stage. */}
      {!controls && <StorageLedger />}
    </section>
  );
}

/** Storage's max token and latest verdict; a rejection is a new element, so each zombie's bounce shows. */
function StorageBox({ at, half }: { at: Point; half: number }) {
  const maxToken = useLab((s) => s.snapshot.storage.maxTokenSeen);
  const last = useLab((s) => s.snapshot.storage.recent.at(-1));
  const rejected = last?.result === 'rejected';
  return (
    <g className="storage" transform={`translate(${at.x} ${at.y})`} data-testid="storage">
      <path d={`M ${-half} ${-half} h ${2 * half} v ${2 * half} h ${-2 * half} Z`} />
      <text y={-half / 2} dy="0.35em" textAnchor="middle" className="small storage-word">
        storage
      </text>
      <text y={0} dy="0.35em" textAnchor="middle" className="mono storage-max">
        max {maxToken}
      </text>
      {last && (
        <text
          y={half / 2}
          dy="0.35em"
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
