// What the page can do with a real run: the bridge serves this list, so the page fakes no control.
import { NOT_FOR_REAL, VERBS } from './commands';
import type { RunSettings } from './settings';

export function capabilities(settings: RunSettings) {
  return {
    backend: 'real',
    commands: [...VERBS],
    targets: ['n1..n' + settings.nodes, 'leader', 'raftLeader'],
    parts: {
      kill: ['candidate', 'member', 'host'],
      restart: ['candidate', 'member', 'host'],
      pause: ['candidate', 'member', 'host'],
      resume: ['candidate', 'member', 'host'],
      isolate: ['host', 'candidate'],
    },
    defaults: { kill: 'candidate', restart: 'host', pause: 'candidate', resume: 'host', isolate: 'host' },
    safety: {
      fencing: 'switchable',
      preVote: settings.preVote ? 'on from start' : 'off from start',
      quorum: 'always on',
    },
    notForReal: {
      ...NOT_FOR_REAL,
      clockRateOfTime: 'time runs at wall speed: a real cluster cannot be slowed down or sped up',
      seekForward: 'a real run cannot jump ahead; scrubbing goes back within its recording only',
    },
    settings,
  };
}
