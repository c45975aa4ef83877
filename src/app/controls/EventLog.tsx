// A readable event log, and a polite live region that announces leader changes.
import { useLab } from '../../store/context';

export function EventLog() {
  const log = useLab((s) => s.log);
  const announcement = useLab((s) => s.announcement);
  const shown = log.slice(-40).reverse();
  return (
    <div className="panel event-log" aria-labelledby="log-title">
      <h2 id="log-title">Events</h2>
      <div className="visually-hidden" aria-live="polite" data-testid="announcer">
        {announcement}
      </div>
      <ol className="log-list" data-testid="event-log" tabIndex={0} aria-label="Event log, newest first">
        {shown.map((e) => (
          <li key={e.index} className={`log-${e.tone}`}>
            <span className="mono">{(e.atMs / 1000).toFixed(1)} s</span> {e.text}
          </li>
        ))}
      </ol>
    </div>
  );
}
