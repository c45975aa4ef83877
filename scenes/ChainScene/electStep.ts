// The chain's first step in the algorithm's words: a quorum voting (Raft), a coordination service granting
// a Lease, key or znode (Kubernetes, etcd, ZooKeeper), or the highest id taking over (Bully, the Ring).
import { algorithmFor, majorityOf, missingSwitch, pageOf, type Experiment } from '../../src/engine';
import { raftElection, type Election } from './chainModel';

// One Election per experiment object, so the chain's model is not re-derived for a new one each time.
const cache = new WeakMap<Experiment, Election>();

export function electionOf(e: Experiment): Election {
  let el = cache.get(e);
  if (!el) cache.set(e, (el = electStep(e)));
  return el;
}

function electStep(e: Experiment): Election {
  const alg = algorithmFor(e.algorithm);
  if (alg.kind === 'raft') return raftElection();
  const step = pageOf(e).elect;
  // The members a coordination service needs a majority of (an API server's store, etcd, ZooKeeper).
  const members = (alg.services ?? []).filter((v) => v.kind !== 'apiServer').length;
  const quorum = members ? `; its ${members} members need a majority (${majorityOf(members)})` : '';
  return {
    title: alg.elects,
    short: step.short,
    how: alg.hasQuorum ? `${step.how}${quorum}` : step.how,
    epoch: alg.words.epoch,
    leader: alg.words.leader,
    votes: false,
    hasQuorum: alg.hasQuorum,
    fenced: pageOf(e).fenced,
    noToken: missingSwitch(e, 'fencing'),
  };
}
