// The hosts of a real run, each an etcd member beside a candidate: the candidates' role and token, and
// what the stage cannot show of the members (raft role, term and leader), from their own logs.
import { useLab } from '../../store/context';
import type { LiveRecording } from '../../store/backends/liveRecording';

interface HostLine {
  id: string;
  candidate: string;
  member: string;
}

function hostLines(recording: LiveRecording): string {
  const lines: HostLine[] = recording.hosts().map((h) => {
    const k = h.id.slice(1);
    const candidate = !h.candidateAlive
      ? 'dead'
      : `${h.candidatePaused ? 'stopped, ' : ''}${h.role}${h.token ? `, token ${h.token}` : ''}`;
    const member = !h.memberAlive
      ? 'dead'
      : `${h.memberPaused ? 'stopped, ' : ''}${h.memberRole === 'down' ? 'starting' : h.memberRole}, term ${h.memberTerm}` +
        (h.memberRole !== 'leader' && h.memberLeader ? `, follows m${h.memberLeader.slice(1)}` : '');
    return { id: h.id, candidate: `c${k} ${candidate}`, member: `etcd m${k} ${member}` };
  });
  return JSON.stringify(lines);
}

/** `recording`: the live run's backend's, or an opened recording's (both fold the run into one). */
export function RealHosts({ recording }: { recording: LiveRecording }) {
  // A string, so the list re-renders only when a host changed.
  const key = useLab(() => hostLines(recording));
  const hosts = JSON.parse(key) as HostLine[];
  return (
    <ul className="real-hosts plain-list" aria-label="Hosts" data-testid="real-hosts">
      {hosts.map((h) => (
        <li key={h.id} data-testid={`real-host-${h.id}`}>
          <strong>host {h.id}</strong>
          <span>{h.candidate}</span>
          <span>{h.member}</span>
        </li>
      ))}
    </ul>
  );
}
