// Partitions: drag nodes (and the storage) into groups, or use a preset. Each chip also has a
// group picker, so the same thing can be done with the keyboard alone.
import { useState } from 'react';
import { useLab, useLabShallow } from '../../store/context';

const GROUPS = ['A', 'B', 'C'];

export function PartitionPanel() {
  const { command, ids, partition, leader } = useLabShallow((s) => ({
    command: s.command,
    ids: s.snapshot.nodes.map((n) => n.id).join(','),
    partition: s.snapshot.partition ? JSON.stringify(s.snapshot.partition) : '',
    leader: s.snapshot.nodes.find((n) => n.alive && n.role === 'leader')?.id ?? '',
  }));
  const size = useLab((s) => s.snapshot.nodes.filter((n) => !n.witness).length);
  const members = [...ids.split(','), 'storage'];
  const [draft, setDraft] = useState<Record<string, number>>({});
  const groupOf = (id: string) => draft[id] ?? (id === 'storage' ? -1 : 0);
  const move = (id: string, g: number) => setDraft((d) => ({ ...d, [id]: g }));

  const apply = () => {
    const groups = GROUPS.map((_, gi) => members.filter((m) => groupOf(m) === gi)).filter(
      (g) => g.length > 0,
    );
    if (groups.length < 2 && !members.some((m) => m === 'storage' && groupOf(m) >= 0)) {
      command({ do: 'heal' });
      return;
    }
    command({ do: 'partition', groups });
  };
  const split = () => {
    const minority = Math.floor(size / 2);
    const all = ids.split(',');
    command({ do: 'partition', groups: [all.slice(0, minority), all.slice(minority)] });
  };

  return (
    <div className="panel partition-panel" aria-labelledby="partition-title">
      <h2 id="partition-title">Network</h2>
      <div className="btn-row">
        <button
          type="button"
          className="btn"
          disabled={!leader}
          onClick={() => command({ do: 'isolate', node: 'leader' })}
          aria-label="Isolate the leader"
        >
          Isolate leader
        </button>
        <button
          type="button"
          className="btn"
          disabled={size < 2}
          onClick={split}
          aria-label={`Split ${Math.floor(size / 2)} | ${size - Math.floor(size / 2)}`}
        >
          Split {Math.floor(size / 2)}|{size - Math.floor(size / 2)}
        </button>
        <button
          type="button"
          className="btn"
          disabled={!partition}
          onClick={() => command({ do: 'heal' })}
          aria-label="Heal the network"
        >
          Heal
        </button>
      </div>
      <p className="hint">
        {partition
          ? `Now: ${JSON.parse(partition)
              .map((g: string[]) => g.join(' '))
              .join(' | ')}`
          : 'No partition.'}
      </p>
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
                  <Chip key={m} id={m} group={gi} onMove={move} />
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
                <Chip key={m} id={m} group={-1} onMove={move} />
              ))}
          </div>
        </div>
        <button type="button" className="btn" onClick={apply} aria-label="Partition">
          Apply partition
        </button>
      </details>
    </div>
  );
}

function Chip({ id, group, onMove }: { id: string; group: number; onMove(id: string, g: number): void }) {
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
        {id === 'storage' && <option value={-1}>all</option>}
      </select>
    </span>
  );
}
