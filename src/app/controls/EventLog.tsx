// A readable event log, and a polite live region announcing leader changes. The list follows the lab only
// while on screen; the announcer sits outside the tabs, so a hidden tab does not silence it.
import { useRef } from 'react';
import { useLab } from '../../store/context';
import { LabGate } from '../../store/LabGate';
import { StorageLedger } from '../../../scenes/ClusterScene/StorageLedger';

function EventList() {
  const log = useLab((s) => s.log);
  const shown = log.slice(-40).reverse();
  if (shown.length === 0)
    return (
      <p className="hint" data-testid="event-log">
        No events yet.
      </p>
    );
  // The list scrolls, so it is a Tab stop (for the arrows) while it has lines, never an empty box.
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

export function Announcer() {
  const announcement = useLab((s) => s.announcement);
  return (
    <div className="visually-hidden" aria-live="polite" data-testid="announcer">
      {announcement}
    </div>
  );
}

export function EventLog() {
  const panel = useRef<HTMLDivElement>(null);
  return (
    <div className="panel event-log" aria-labelledby="log-title" ref={panel}>
      <h2 id="log-title">Events</h2>
      {/* Just under the first screen: it follows the lab only once it is in view, not while it
          waits within the usual margin under the fold (a busy log and ledger cost frames there). */}
      <LabGate watch={panel} margin="0px">
        <h3 className="log-subtitle">Latest writes at the storage</h3>
        <StorageLedger />
        <h3 className="log-subtitle">Event log</h3>
        <EventList />
      </LabGate>
    </div>
  );
}
