// The line under the stage that says what to do next, a pure function of the moment shown so it is true
// whenever read, in the algorithm's own description (algorithms/pages/).
import {
  algorithmFor,
  formatSpan,
  missingSwitch,
  pageOf,
  sentenceOf,
  SPLIT_WITHOUT_QUORUM,
  type Experiment,
  type Snapshot,
} from '../engine';
import type { BackendCapabilities } from '../store/backend';
import { believers } from '../store/select';
import { electionOf } from '../../scenes/ChainScene/electStep';
import { pauseLengths } from './controls/nodeActions';

export interface HintInput {
  snapshot: Snapshot;
  selected: string | null;
  experiment: Experiment;
  can: BackendCapabilities;
}

export function nextHint({ snapshot: s, selected, experiment, can }: HintInput): string {
  const leaders = believers(s);
  const { what, keep } = pageOf(experiment).expiry(experiment);
  const alg = algorithmFor(experiment.algorithm);
  const quorum = s.safety.quorum !== false && alg.hasQuorum;
  // The leader in the algorithm's own word (coordinator, holder), and whether nodes vote (Raft).
  const role = alg.words.leader;
  const votes = electionOf(experiment).votes;
  const canPause = can.commands.includes('pause');
  const canKill = can.commands.includes('kill');
  if (leaders.length >= 2) {
    const epoch = alg.words.epoch;
    const who = leaders.map((n) => `${n.id} (${epoch} ${n.term}${n.paused ? ', paused' : ''})`).join(' and ');
    const noToken = missingSwitch(experiment, 'fencing');
    if (noToken)
      return `believed leader_count ${leaders.length}: ${who} believe they lead. ${sentenceOf(noToken)}`;
    if (!quorum)
      return `believed leader_count ${leaders.length}: ${who} believe they lead, with no quorum to stop them: storage takes every write whose token is not below the highest it has seen.`;
    return s.safety.fencing
      ? `believed leader_count ${leaders.length}: ${who} believe they lead. Watch the chain: storage rejects the older token.`
      : `believed leader_count ${leaders.length}: ${who} believe they lead, and fencing is off: storage takes both leaders' writes.`;
  }
  const leader = leaders[0];
  if (!leader) {
    const campaigning = s.nodes.find((n) => n.alive && !n.paused && (n.role === 'candidate' || n.preVoting));
    if (campaigning)
      return votes && quorum
        ? `No ${role}: ${campaigning.id} is asking for votes. A majority elects; watch the votes on the stage.`
        : `No ${role}: ${campaigning.id} is trying to become ${role}; watch its messages on the stage.`;
    if (s.startedAtMs < 0)
      return s.nowMs === 0
        ? `No ${role} yet: press Play and watch the nodes elect one.`
        : `No ${role} yet: the nodes are electing the first one. Start-up is not an outage: nothing pages.`;
    return `No ${role}: the others wait out the ${what}, then elect a new one. Watch leader_count.`;
  }
  if (leader.paused)
    return `The ${role} ${leader.id} is GC-paused: once the ${what} runs out the others elect a new ${role}. Watch what its old write does when it wakes.`;
  if (s.partition) {
    // Raft's quorum switch off: each side elects; otherwise what a split does under this algorithm.
    const split = s.safety.quorum === false ? SPLIT_WITHOUT_QUORUM : pageOf(experiment).split;
    return `The ${role} is ${leader.id}, and the network is split: ${split}. Heal ends the split.`;
  }
  // The node panel's long pause (nodeActions.ts), in its own words.
  const pause = pauseLengths(experiment);
  const long = formatSpan(pause.longMs);
  const actions = [canPause && `Pause ${long}`, canKill && 'Kill'].filter(Boolean).join(' or ');
  if (!actions) return `The ${role} is ${leader.id}: it ${keep}.`;
  if (selected === leader.id)
    return `The ${role} is ${leader.id}, selected: press ${actions}${canPause ? ` (${long} is longer than ${pause.against})` : ''}.`;
  return `The ${role} is ${leader.id}: select it (click it on the stage) and press ${actions}.`;
}
