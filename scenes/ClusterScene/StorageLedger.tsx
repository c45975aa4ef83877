// The storage's latest writes, newest first: under a lone stage (an embed), and in the lab's Events tab.
import { useLab } from '../../src/store/context';
import './clusterScene.css';

export function StorageLedger() {
  const recent = useLab((s) => s.snapshot.storage.recent);
  // Rows are keyed by place, newest first, so a new write changes their words in place: with many clients
  // every row is new each snapshot, and making and dropping rows (or more text nodes) cost a layout.
  return (
    <div className="ledger">
      <ol className="plain-list" aria-label="Latest writes at the storage">
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
