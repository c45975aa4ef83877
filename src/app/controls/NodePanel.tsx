// Controls for the selected node or service (nodeActions.ts), each shown only when the backend accepts it.
// The same panel is the menu a click on a node opens on the stage (place 'menu'); while that menu is
// open, the panel keeps the node's status and leaves its buttons to the menu.
import { useState } from 'react';
import { useLab, useLabShallow } from '../../store/context';
import { selectNodeIds, selectServiceIds } from '../../store/select';
import { nodeActions, pauseLengths, serviceActions, type NodeAction } from './nodeActions';

export function NodePanel({ place = 'panel' }: { place?: 'panel' | 'menu' }) {
  const inMenu = place === 'menu';
  const { selected, command, select, experiment, commands, menuOpen } = useLabShallow((s) => ({
    menuOpen: s.menu !== null && s.menu === s.selected,
    selected: s.selected,
    command: s.command,
    select: s.select,
    experiment: s.experiment,
    commands: s.can.commands,
  }));
  const node = useLab((s) => s.snapshot.nodes.find((n) => n.id === s.selected) ?? null);
  const service = useLab((s) => s.snapshot.services.find((v) => v.id === s.selected) ?? null);
  const actions = service
    ? serviceActions(service, commands)
    : node
      ? nodeActions(node, experiment, commands)
      : [];
  const button = (a: NodeAction) => (
    <button
      key={a.id}
      type="button"
      className={a.danger ? 'btn btn-danger' : 'btn'}
      disabled={a.disabled}
      onClick={() => command(a.command)}
      aria-label={a.name}
    >
      {a.label}
    </button>
  );
  const [custom, setCustom] = useState(20);
  const can = (c: (typeof commands)[number]) => commands.includes(c);
  const ids = useLabShallow(selectNodeIds);
  const serviceIds = useLabShallow(selectServiceIds);
  const picker = (list: readonly string[], label: string) =>
    list.length > 0 && (
      <div className="node-picker" role="group" aria-label={label}>
        {list.map((id) => (
          <button
            key={id}
            type="button"
            className="btn"
            aria-pressed={selected === id}
            onClick={() => select(selected === id ? null : id)}
            aria-label={`Select ${id}`}
          >
            {id}
          </button>
        ))}
      </div>
    );
  return (
    <div
      className={inMenu ? 'node-menu-actions' : 'panel node-panel'}
      aria-labelledby={inMenu ? undefined : 'node-panel-title'}
      data-menu-open={!inMenu && menuOpen ? '' : undefined}
    >
      {!inMenu && (
        <div className="panel-head">
          <h2 id="node-panel-title">Node</h2>
          {picker(ids, 'Select a node')}
          {picker(serviceIds, 'Select a service')}
        </div>
      )}
      {service ? (
        <ServiceStatus service={service}>{actions.map(button)}</ServiceStatus>
      ) : !node ? (
        <p className="hint">
          Select a node{serviceIds.length ? ' or a service' : ''} (click it on the stage, or use these
          buttons) to
          {/* A recording takes no commands: selecting only shows. */}
          {commands.length ? ' break it.' : ' see its state.'}
        </p>
      ) : (
        <div className="node-actions">
          {!inMenu && (
            <p className="node-status" data-testid="node-status">
              <strong>{node.id}</strong>: {node.alive ? node.role : 'dead'}, term {node.term}
              {node.votedFor ? `, voted for ${node.votedFor}` : ''}
              {node.paused ? ', GC-paused' : ''}
              {node.clockRate !== 1 ? `, clock ${node.clockRate}x` : ''}
            </p>
          )}
          {menuOpen && !inMenu && (
            <p className="hint" data-testid="node-menu-note">
              Its actions are in its menu on the stage (Esc closes it).
            </p>
          )}
          <div className="btn-row">{actions.filter((a) => a.row === 'life').map(button)}</div>
          {!node.paused && node.alive && can('pause') && (
            <div className="btn-row">
              <label>
                Pause for{' '}
                <input
                  type="number"
                  min={1}
                  max={600}
                  value={custom}
                  onChange={(e) => setCustom(Number(e.target.value))}
                  aria-label={`Pause length for ${node.id} in seconds`}
                  className="num"
                />{' '}
                s
              </label>
              <button
                type="button"
                className="btn"
                disabled={!(custom >= 1 && custom <= 600)}
                onClick={() => command({ do: 'pause', node: node.id, forMs: Math.round(custom * 1000) })}
                aria-label={`Pause ${node.id} for ${custom} s`}
              >
                Pause
              </button>
              <span className="hint" data-testid="pause-against">
                the others wait out {pauseLengths(experiment).against}
              </span>
            </div>
          )}
          <div className="btn-row">
            {actions.filter((a) => a.row === 'network').map(button)}
            {can('clockRate') && (
              <label>
                Clock{' '}
                <select
                  aria-label={`Clock rate of ${node.id}`}
                  value={node.clockRate}
                  onChange={(e) => command({ do: 'clockRate', node: node.id, rate: Number(e.target.value) })}
                >
                  {[0.25, 0.5, 0.8, 1, 1.25, 2].map((r) => (
                    <option key={r} value={r}>
                      {r}x
                    </option>
                  ))}
                </select>
              </label>
            )}
          </div>
        </div>
      )}
    </div>
  );
}

/** A service's state (and its side of a partition), over its actions. */
function ServiceStatus({
  service: { id, label, alive },
  children,
}: {
  service: { id: string; label: string; alive: boolean };
  children: React.ReactNode;
}) {
  const side = useLab((s) => {
    const g = s.snapshot.partition?.findIndex((members) => members.includes(id)) ?? -1;
    if (g >= 0) return `, in group ${String.fromCharCode(65 + g)}`;
    return s.snapshot.partition ? ', reaches every group' : '';
  });
  return (
    <div className="node-actions">
      <p className="node-status" data-testid="node-status">
        <strong>{label}</strong>: {alive ? 'up' : 'dead'}
        {side}
      </p>
      <div className="btn-row">{children}</div>
    </div>
  );
}
