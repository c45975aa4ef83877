// Controls for the selected node: kill / restart, GC-pause (short, long, chosen) / resume,
// isolate, clock rate and force an election. Every button names what it does to which node.
import { useState } from 'react';
import { useLab, useLabShallow } from '../../store/context';

export function NodePanel() {
  const { selected, command, select, ids, lease } = useLabShallow((s) => ({
    selected: s.selected,
    command: s.command,
    select: s.select,
    ids: s.snapshot.nodes.map((n) => n.id).join(','),
    lease: s.experiment.lease,
  }));
  const node = useLab((s) => s.snapshot.nodes.find((n) => n.id === s.selected) ?? null);
  const [custom, setCustom] = useState(20);
  return (
    <div className="panel node-panel" aria-labelledby="node-panel-title">
      <h2 id="node-panel-title">Node</h2>
      <div className="node-picker" role="group" aria-label="Select a node">
        {ids.split(',').map((id) => (
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
      {!node ? (
        <p className="hint">Pick a node (click it on the stage, or use the buttons above) to break it.</p>
      ) : (
        <div className="node-actions">
          <p className="node-status" data-testid="node-status">
            <strong>{node.id}</strong>: {node.alive ? node.role : 'dead'}, term {node.term}
            {node.votedFor ? `, voted for ${node.votedFor}` : ''}
            {node.paused ? ', GC-paused' : ''}
            {node.clockRate !== 1 ? `, clock ${node.clockRate}x` : ''}
          </p>
          <div className="btn-row">
            {node.alive ? (
              <button
                type="button"
                className="btn btn-danger"
                onClick={() => command({ do: 'kill', node: node.id })}
                aria-label={`Kill ${node.id}`}
              >
                Kill
              </button>
            ) : (
              <button
                type="button"
                className="btn"
                onClick={() => command({ do: 'restart', node: node.id })}
                aria-label={`Restart ${node.id}`}
              >
                Restart
              </button>
            )}
            {node.paused ? (
              <button
                type="button"
                className="btn"
                onClick={() => command({ do: 'resume', node: node.id })}
                aria-label={`Resume ${node.id}`}
              >
                Resume
              </button>
            ) : (
              <>
                <button
                  type="button"
                  className="btn"
                  disabled={!node.alive}
                  onClick={() => command({ do: 'pause', node: node.id, forMs: 5000 })}
                  aria-label={`Pause ${node.id} for 5 s (shorter than the lease)`}
                >
                  Pause 5 s
                </button>
                <button
                  type="button"
                  className="btn"
                  disabled={!node.alive}
                  onClick={() => command({ do: 'pause', node: node.id, forMs: 30000 })}
                  aria-label={`Pause ${node.id} for 30 s (longer than the lease)`}
                >
                  Pause 30 s
                </button>
              </>
            )}
          </div>
          {!node.paused && node.alive && (
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
              {lease && <span className="hint">lease {lease.durationMs / 1000} s</span>}
            </div>
          )}
          <div className="btn-row">
            <button
              type="button"
              className="btn"
              onClick={() => command({ do: 'isolate', node: node.id })}
              aria-label={`Isolate ${node.id}`}
            >
              Isolate
            </button>
            <button
              type="button"
              className="btn"
              disabled={!node.alive || node.paused || node.witness}
              onClick={() => command({ do: 'campaign', node: node.id })}
              aria-label={`Force ${node.id} to campaign`}
            >
              Force election
            </button>
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
          </div>
        </div>
      )}
    </div>
  );
}
