// The znode queue (queueModel.ts): ZooKeeper's recipe, or etcd's election keys by create revision. Rows have
// a fixed height so the arrows' gutter (SVG) lines up with the rows (HTML) at any width.
import { useLab, useLabShallow } from '../../src/store/context';
import { useSceneHost } from '../../src/ui/sceneHost';
import { sceneById, sceneTitle } from '../../src/shared/scenes';
import { queueModel, type QueueArrow } from './queueModel';
import { formatSeconds as sec } from '../../src/store/format';
import './znodeQueue.css';

/** Each row's height in px: the arrows' gutter is drawn to it. */
export const ROW_PX = 38;
const STEP_PX = 7;

function Arrows({ arrows, rows }: { arrows: QueueArrow[]; rows: number }) {
  const reach = Math.max(1, ...arrows.map((a) => a.from - a.to));
  const width = 14 + reach * STEP_PX;
  return (
    <svg
      className="zq-arrows"
      width={width}
      height={rows * ROW_PX}
      viewBox={`0 0 ${width} ${rows * ROW_PX}`}
      aria-hidden="true"
    >
      <defs>
        <marker
          id="zq-head"
          viewBox="0 0 8 8"
          refX="7"
          refY="4"
          markerWidth="7"
          markerHeight="7"
          orient="auto"
        >
          <path d="M0,0 L8,4 L0,8 z" className="zq-head" />
        </marker>
      </defs>
      {arrows.map((a) => {
        // Longer arrows swing further out, so a herd of arrows to one row fans out instead of overlapping.
        const x = width - 4 - (a.from - a.to) * STEP_PX;
        // Out above the watcher's middle, in below the watched's: a column of arrows reads as separate.
        const y1 = a.from * ROW_PX + ROW_PX / 2 - 3;
        const y2 = a.to * ROW_PX + ROW_PX / 2 + 6;
        return (
          <path
            key={`${a.from}-${a.to}`}
            className="zq-arrow"
            d={`M${width} ${y1} H${x + 4} Q${x} ${y1} ${x} ${y1 - 4} V${y2 + 4} Q${x} ${y2} ${x + 4} ${y2} H${width - 1}`}
            markerEnd="url(#zq-head)"
            data-from={a.from}
            data-to={a.to}
          />
        );
      })}
    </svg>
  );
}

export function ZnodeQueueScene() {
  const queue = useLab((s) => s.snapshot.queue);
  const { nodes, messages, nowMs } = useLabShallow((s) => ({
    nodes: s.snapshot.nodes,
    messages: s.snapshot.messages,
    nowMs: s.snapshot.nowMs,
  }));
  const sessionMs = useLab((s) => s.experiment.zookeeper?.sessionTimeoutMs ?? s.experiment.etcd?.ttlMs ?? 0);
  const zk = useLab((s) => s.experiment.algorithm === 'zookeeper');
  const title = useLab((s) => sceneTitle(sceneById('znodes'), s.experiment));
  const { controls } = useSceneHost();
  if (!queue) {
    return (
      <section className="znode-queue" aria-labelledby="zq-title" data-testid="znode-queue">
        <h2 id="zq-title">{title}</h2>
        <p className="hint" data-testid="zq-switch">
          This scene shows the election queue of ZooKeeper&apos;s recipe (sequence numbers, watches, session
          timers) and of etcd&apos;s Campaign;{' '}
          {controls
            ? 'choose the ZooKeeper or etcd election algorithm under Setup, or open the game day “ZooKeeper’s recipe: watch the predecessor”.'
            : 'open it with algorithm=zookeeper (or etcd-election), or scenario=zookeeper-watch-predecessor.'}
        </p>
      </section>
    );
  }
  const m = queueModel(queue, nodes, messages, nowMs);
  const session = zk ? 'session' : 'lease';
  return (
    <section className="znode-queue" aria-labelledby="zq-title" data-testid="znode-queue">
      <h2 id="zq-title">{title}</h2>
      <p className="zq-facts" data-testid="zq-facts">
        <span className="mono">{queue.path}</span>: lowest {queue.numberName} leads; each other candidate
        watches {queue.watch === 'leader' ? 'the leader (the herd effect)' : 'its predecessor'}. Watch
        notifications: <strong data-testid="zq-notifications">{queue.watchNotifications}</strong>
        {queue.watchReads !== null && (
          <>
            , reads they triggered: <strong data-testid="zq-reads">{queue.watchReads}</strong>
          </>
        )}
        .
      </p>
      {m.rows.length === 0 ? (
        <p className="hint">No candidate is in the queue yet.</p>
      ) : (
        <div className="zq-body">
          <Arrows arrows={m.arrows} rows={m.rows.length} />
          <ol className="zq-rows" aria-label={`${queue.path} children, lowest ${queue.numberName} first`}>
            {m.rows.map((r) => (
              <li
                key={r.number}
                className="zq-row"
                style={{ height: ROW_PX }}
                data-testid="zq-row"
                data-owner={r.owner}
                data-leads={r.leads ? '' : undefined}
                data-notified={r.notified ? '' : undefined}
              >
                <span className="zq-number mono" title={r.name}>
                  #{r.number}
                </span>
                <span className="zq-owner">
                  <strong>{r.owner}</strong>
                  {r.leads ? ' leads' : r.watchesRow >= 0 ? ` watches #${m.rows[r.watchesRow].number}` : ''}
                  {r.ownerDown && <span className="zq-down"> ({r.ownerDown})</span>}
                  {r.notified && (
                    <span className="zq-notified" data-testid="zq-notified">
                      {' notified'}
                    </span>
                  )}
                </span>
                <span className="zq-name mono">{r.name}</span>
                <span className="zq-timer" data-testid="zq-timer">
                  {r.sessionLeftMs >= 0 && sessionMs > 0 && (
                    <>
                      <span
                        className="zq-bar"
                        role="img"
                        aria-label={`${session} expires in ${sec(r.sessionLeftMs)}`}
                      >
                        <span
                          className={`zq-fill${r.sessionLeftMs < sessionMs / 3 ? ' zq-low' : ''}`}
                          style={{ width: `${Math.min(100, (100 * r.sessionLeftMs) / sessionMs)}%` }}
                        />
                      </span>{' '}
                      <span className="mono">{sec(r.sessionLeftMs)}</span>
                    </>
                  )}
                </span>
              </li>
            ))}
          </ol>
        </div>
      )}
      <p className="zq-legend">
        Bars: time left before the {zk ? 'ensemble' : 'store'} expires each {session} if it hears nothing more
        (refilled by every {zk ? 'ping' : 'keep-alive'}). Arrows: who watches whom.
        {m.outside.length > 0 && <> Not in the queue now: {m.outside.join(', ')}.</>}
      </p>
    </section>
  );
}
