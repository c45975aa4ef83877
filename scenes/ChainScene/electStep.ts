// The chain's first step, in the words of the run's algorithm: a quorum of nodes voting (Raft),
// a coordination service granting a Lease, a key or a znode (Kubernetes, etcd, ZooKeeper), or
// the highest id taking over with no quorum at all (Bully, the Ring).
import { algorithmFor, type Experiment } from '../../src/engine';
import { RAFT_ELECTION, type Election } from './chainModel';

const SERVICE_STEP: Record<string, Pick<Election, 'title' | 'short' | 'how'>> = {
  'k8s-lease': {
    title: 'The API server grants one Lease',
    short: 'Lease acquired',
    how: 'one Lease object, updated by compare-and-swap',
  },
  'etcd-election': {
    title: 'The lowest key revision leads',
    short: 'Lowest revision',
    how: 'keys under election/, the lowest create revision leads',
  },
  zookeeper: {
    title: 'The lowest znode leads',
    short: 'Lowest znode',
    how: 'ephemeral sequential znodes, the lowest sequence leads',
  },
  'redis-sentinel': {
    title: 'Sentinels promote one primary',
    short: 'Sentinels promote',
    how: 'a quorum of sentinels agrees the primary is down, a majority of them picks who promotes; nothing fences the old one',
  },
  pacemaker: {
    title: 'Fenced first, then promoted',
    short: 'STONITH',
    how: 'a replica is promoted only once the fence device confirms the old primary is off',
  },
  bully: {
    title: 'The highest id takes over',
    short: 'Highest id',
    how: 'no quorum: each side of a partition elects its own',
  },
  ring: {
    title: 'The ring elects the highest id',
    short: 'Ring elects',
    how: 'no quorum: each side of a partition elects its own',
  },
};

// One Election per experiment object, so the chain's model is not re-derived for a new one each time.
const cache = new WeakMap<Experiment, Election>();

export function electionOf(e: Experiment): Election {
  let el = cache.get(e);
  if (!el) cache.set(e, (el = electStep(e)));
  return el;
}

function electStep(e: Experiment): Election {
  const alg = algorithmFor(e.algorithm);
  if (alg.kind === 'raft') return RAFT_ELECTION;
  // The members a coordination service needs a majority of (an API server's store, etcd, ZooKeeper).
  const members = (alg.services ?? []).filter((v) => v.kind !== 'apiServer').length;
  const quorum = members ? `; its ${members} members need a majority (${Math.floor(members / 2) + 1})` : '';
  const step = SERVICE_STEP[alg.kind] ?? {
    title: `${alg.title} elects one ${alg.words.leader}`,
    short: 'Elects',
    how: alg.hasQuorum ? 'a majority must agree' : 'no quorum: each side of a partition elects its own',
  };
  return {
    ...step,
    how: alg.hasQuorum ? `${step.how}${quorum}` : step.how,
    epoch: alg.words.epoch,
    leader: alg.words.leader,
    votes: false,
    hasQuorum: alg.hasQuorum,
  };
}
