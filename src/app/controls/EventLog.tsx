// A readable event log, and a polite live region that announces leader changes. The list
// follows the lab only while it is on screen; the announcements never stop.
import { useRef } from 'react';
import { LabGate, useLab } from '../../store/context';

function EventList() {
  const log = useLab((s) => s.log);
  const shown = log.slice(-40).reverse();
  return (
    <ol className="log-list" data-testid="event-log" tabIndex={0} aria-label="Event log, newest first">
      {shown.map((e) => (
        <li key={e.index} className={`log-${e.tone}`}>
          <span className="mono">{(e.atMs / 1000).toFixed(1)} s</span> {e.text}
        </li>
      ))}
    </ol>
  );
}

export function EventLog() {
  const announcement = useLab((s) => s.announcement);
  const panel = useRef<HTMLDivElement>(null);
  return (
    <div className="panel event-log" aria-labelledby="log-title" ref={panel}>
      <h2 id="log-title">Events</h2>
      <div className="visually-hidden" aria-live="polite" data-testid="announcer">
        {announcement}
      </div>
      <LabGate watch={panel}>
        <EventList />
      </LabGate>
    </div>
  );
}
