// Partitions: drag nodes, storage and services into groups (or pick a chip's group, by keyboard), or split
// as the S key does. Each control shows only when the backend accepts it.
import { useMemo, useState } from 'react';
import { useLabEqual, useLabShallow } from '../../store/context';
import {
  samePartition,
  selectLeaderId,
  selectNodeIds,
  selectPartition,
  selectServiceIds,
  selectWitnessIds,
} from '../../store/select';
import { splitLabel, splitMinority } from '../../shared/split';

const GROUPS = ['A', 'B', 'C'];
/** The drop zone for what reaches every group (only the shared: the storage, a service). */
const ALL = { gi: -1, title: 'Reaches all', testId: undefined };

export function PartitionPanel() {
  const { command, leader, commands } = useLabShallow((s) => ({
    command: s.command,
    leader: selectLeaderId(s),
    commands: s.can.commands,
  }));
  const ids = useLabShallow(selectNodeIds);
  const services = useLabShallow(selectServiceIds);
  const witnesses = useLabShallow(selectWitnessIds);
  const partition = useLabEqual(selectPartition, samePartition);
  const preset = useMemo(
    () => splitMinority(ids.map((id) => ({ id, witness: witnesses.includes(id) }))),
    [ids, witnesses],
  );
  // What reaches every group unless placed in one: the storage and the services.
  const shared = ['storage', ...services];
  const members = [...ids, ...shared];
  const [draft, setDraft] = useState<Record<string, number>>({});
  const groupOf = (id: string) => draft[id] ?? (shared.includes(id) ? -1 : 0);
  const move = (id: string, g: number) => setDraft((d) => ({ ...d, [id]: g }));

  const apply = () => {
    const groups = GROUPS.map((_, gi) => members.filter((m) => groupOf(m) === gi)).filter(
      (g) => g.length > 0,
    );
    if (groups.length < 2 && !shared.some((m) => groupOf(m) >= 0)) {
      command({ do: 'heal' });
      return;
    }
    command({ do: 'partition', groups });
  };
  const split = () => {
    if (preset) command({ do: 'partition', groups: [preset.minority, preset.majority] });
  };
  if (!commands.includes('partition') && !commands.includes('heal') && !commands.includes('isolate'))
    return null;

  return (
    <div className="panel partition-panel" aria-labelledby="partition-title">
      <h2 id="partition-title">Network</h2>
      <div className="btn-row">
        {commands.includes('isolate') && (
          <button
            type="button"
            className="btn"
            disabled={!leader}
            onClick={() => command({ do: 'isolate', node: 'leader' })}
            aria-label="Isolate the leader"
          >
            Isolate leader
          </button>
        )}
        {commands.includes('partition') && (
          <button
            type="button"
            className="btn"
            disabled={!preset}
            onClick={split}
            aria-label={preset ? `Split ${splitLabel(preset)}` : 'Split'}
          >
            Split {preset ? splitLabel(preset).replace(/ /g, '') : ''}
          </button>
        )}
        {commands.includes('heal') && (
          <button
            type="button"
            className="btn"
            disabled={!partition}
            onClick={() => command({ do: 'heal' })}
            aria-label="Heal the network"
          >
            Heal
          </button>
        )}
      </div>
      <p className="hint">
        {partition ? `Now: ${partition.map((g) => g.join(' ')).join(' | ')}` : 'No partition.'}
      </p>
      {commands.includes('partition') && (
        <details>
          <summary>Build a partition</summary>
          <div className="groups">
            {[...GROUPS.map((g, gi) => ({ gi, title: `Group ${g}`, testId: `group-${g}` })), ALL].map((d) => (
              <div
                key={d.gi}
                className="group-drop"
                data-testid={d.testId}
                onDragOver={(e) => e.preventDefault()}
                onDrop={(e) => {
                  e.preventDefault();
                  move(e.dataTransfer.getData('text/plain'), d.gi);
                }}
              >
                <strong>{d.title}</strong>
                {members
                  .filter((m) => groupOf(m) === d.gi)
                  .map((m) => (
                    <Chip key={m} id={m} group={d.gi} shared={d.gi < 0 || shared.includes(m)} onMove={move} />
                  ))}
              </div>
            ))}
          </div>
          <button type="button" className="btn" onClick={apply} aria-label="Partition">
            Apply partition
          </button>
        </details>
      )}
    </div>
  );
}

function Chip({
  id,
  group,
  shared,
  onMove,
}: {
  id: string;
  group: number;
  /** It may reach every group (the storage, a service), rather than only one. */
  shared: boolean;
  onMove(id: string, g: number): void;
}) {
  return (
    <span
      className="chip"
      draggable
      onDragStart={(e) => e.dataTransfer.setData('text/plain', id)}
      data-testid={`chip-${id}`}
    >
      {id}
      <select
        aria-label={`Group of ${id}`}
        value={group}
        onChange={(e) => onMove(id, Number(e.target.value))}
      >
        {GROUPS.map((g, gi) => (
          <option key={g} value={gi}>
            {g}
          </option>
        ))}
        {shared && <option value={-1}>all</option>}
      </select>
    </span>
  );
}
