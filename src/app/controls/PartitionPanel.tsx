// Partitions: drag nodes (and the storage, and the services: an API server, a store's members)
// into groups, or use a preset. Each chip also has a
// group picker, so the same thing can be done with the keyboard alone. The presets split as the
// S key does (splitMinority), and each control shows only when the run's backend accepts it.
import { useMemo, useState } from 'react';
import { useLabShallow } from '../../store/context';
import { splitLabel, splitMinority } from '../../shared/split';

const GROUPS = ['A', 'B', 'C'];

export function PartitionPanel() {
  const { command, ids, services, witnesses, partition, leader, commands } = useLabShallow((s) => ({
    command: s.command,
    ids: s.snapshot.nodes.map((n) => n.id).join(','),
    services: s.snapshot.services.map((v) => v.id).join(','),
    witnesses: s.snapshot.nodes
      .filter((n) => n.witness)
      .map((n) => n.id)
      .join(','),
    partition: s.snapshot.partition ? JSON.stringify(s.snapshot.partition) : '',
    leader: s.snapshot.nodes.find((n) => n.alive && n.role === 'leader')?.id ?? '',
    commands: s.can.commands,
  }));
  const preset = useMemo(() => {
    const w = witnesses.split(',');
    return splitMinority(ids.split(',').map((id) => ({ id, witness: w.includes(id) })));
  }, [ids, witnesses]);
  // What reaches every group unless placed in one: the storage and the services.
  const shared = ['storage', ...(services ? services.split(',') : [])];
  const members = [...ids.split(','), ...shared];
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
        {partition
          ? `Now: ${JSON.parse(partition)
              .map((g: string[]) => g.join(' '))
              .join(' | ')}`
          : 'No partition.'}
      </p>
      {commands.includes('partition') && (
        <details>
          <summary>Build a partition</summary>
          <div className="groups">
            {GROUPS.map((g, gi) => (
              <div
                key={g}
                className="group-drop"
                data-testid={`group-${g}`}
                onDragOver={(e) => e.preventDefault()}
                onDrop={(e) => {
                  e.preventDefault();
                  move(e.dataTransfer.getData('text/plain'), gi);
                }}
              >
                <strong>Group {g}</strong>
                {members
                  .filter((m) => groupOf(m) === gi)
                  .map((m) => (
                    <Chip key={m} id={m} group={gi} shared={shared.includes(m)} onMove={move} />
                  ))}
              </div>
            ))}
            <div
              className="group-drop"
              onDragOver={(e) => e.preventDefault()}
              onDrop={(e) => {
                e.preventDefault();
                move(e.dataTransfer.getData('text/plain'), -1);
              }}
            >
              <strong>Reaches all</strong>
              {members
                .filter((m) => groupOf(m) === -1)
                .map((m) => (
                  <Chip key={m} id={m} group={-1} shared onMove={move} />
                ))}
            </div>
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
