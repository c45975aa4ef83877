// @vitest-environment jsdom
// The fencing chain, in two layers: the pure model over hand-made snapshots (every sentence the
// scene can say), and the scene rendered over a real lab store driven deterministically.
import { Profiler } from 'react';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  leaderOf as snapshotLeader,
  parseExperiment,
  type Experiment,
  type NodeView,
  type SimEvent,
  type Snapshot,
  type StorageWrite,
} from '../../src/engine';
import { createLabStore, type LabStore } from '../../src/store/labStore';
import { LabProvider } from '../../src/store/context';
import { ChainScene } from '../../scenes/ChainScene/ChainScene';
import { EMPTY_MEMORY, foldEvents } from '../../scenes/ChainScene/chainMemory';
import { activeStep, deriveChain, deriveQuorum, CASCADE_MS } from '../../scenes/ChainScene/chainModel';
import { compareWrite, maxBefore } from '../../scenes/ChainScene/writesModel';
import { leaseDial } from '../../scenes/ChainScene/leaseDial';
import { electionOf } from '../../scenes/ChainScene/electStep';

function experiment(algorithm: string): Experiment {
  const r = parseExperiment({ algorithm });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.experiment;
}

const LEASE = { durationMs: 15000, renewDeadlineMs: 10000, retryPeriodMs: 2000 };

function node(id: string, over: Partial<NodeView> = {}): NodeView {
  return {
    id,
    witness: false,
    role: 'follower',
    term: 7,
    votedFor: null,
    alive: true,
    paused: false,
    pausedAtMs: -1,
    clockRate: 1,
    localNowMs: 0,
    knownLeader: null,
    ready: true,
    deadlineAtMs: -1,
    lastRenewAtMs: -1,
    votes: [],
    preVoting: false,
    ...over,
  };
}

function snap(
  over: Partial<Snapshot> = {},
  nodes: NodeView[] = ['n1', 'n2', 'n3', 'n4', 'n5'].map((id) => node(id)),
): Snapshot {
  const counters = {
    leaderTransitions: 0,
    fencingRejections: 0,
    staleWritesAccepted: 0,
    divergentWrites: 0,
    clientRedirects: 0,
    maxLeaderCount: 1,
    msWithoutLeader: 0,
  };
  return {
    nowMs: 50_000,
    seed: 1,
    nodes,
    messages: [],
    storage: { maxTokenSeen: 0, accepted: 0, rejected: 0, recent: [] },
    partition: null,
    safety: { quorum: true, fencing: true, followersReject: true, preVote: true },
    clients: { count: 0, byTarget: {}, unresolved: 0 },
    leaderCount: nodes.filter((n) => n.role === 'leader').length,
    leaderCountObserved: nodes.filter((n) => n.role === 'leader' && !n.paused).length,
    leader: snapshotLeader(nodes),
    startedAtMs: 1000,
    services: [],
    highestTokenIssued: 7,
    counters,
    violations: [],
    failovers: [],
    eventCount: 0,
    ...over,
  };
}

function write(over: Partial<StorageWrite>): StorageWrite {
  return {
    atMs: 1000,
    node: 'n1',
    token: 4,
    result: 'accepted',
    maxTokenSeen: 4,
    stale: false,
    kind: 'leader',
    ...over,
  };
}

const leaderN3 = (over: Partial<NodeView> = {}) =>
  node('n3', {
    role: 'leader',
    lastRenewAtMs: 49_200,
    deadlineAtMs: 59_200,
    votes: ['n3', 'n1', 'n4'],
    ...over,
  });

describe('chain model', () => {
  it('counts the winning votes of the current election against the configured cluster', () => {
    const memory = foldEvents(EMPTY_MEMORY, [
      { atMs: 40_000, type: 'elected', node: 'n3', term: 7, votes: ['n3', 'n4', 'n5'] },
    ]);
    const s = snap({}, [node('n1'), node('n2'), leaderN3(), node('n4'), node('n5')]);
    const q = deriveQuorum(s, memory, s.nodes[2]);
    expect(q.state).toBe('leader');
    expect(q.headline).toBe('n3 leads term 7');
    expect(q.votesText).toBe('3 of 5 votes, term 7');
    expect(q.majorityText).toBe('majority: 3 of 5');
    expect(q.voters.filter((v) => v.voted).map((v) => v.id)).toEqual(['n3', 'n4', 'n5']);
    expect(q.voters.find((v) => v.leader)?.id).toBe('n3');
  });

  it('shows a running campaign with its votes so far, and no leader on a split without a majority', () => {
    const campaigning = snap({}, [
      node('n1', { role: 'candidate', term: 8, votes: ['n1', 'n2'] }),
      ...['n2', 'n3', 'n4', 'n5'].map((id) => node(id)),
    ]);
    const c = deriveQuorum(campaigning, EMPTY_MEMORY, null);
    expect(c.headline).toBe('n1 campaigns for term 8');
    expect(c.votesText).toBe('2 of 5 votes so far, needs 3');

    const split = snap(
      {
        partition: [
          ['n1', 'n2'],
          ['n3', 'n4', 'storage'],
        ],
      },
      [...['n1', 'n2', 'n3', 'n4'].map((id) => node(id)), node('n5', { alive: false })],
    );
    const hopeless = deriveQuorum(
      { ...split, nodes: [node('n1', { preVoting: true, votes: ['n1', 'n2'] }), ...split.nodes.slice(1)] },
      EMPTY_MEMORY,
      null,
    );
    expect(hopeless.headline).toBe('n1 asks for pre-votes for term 8');
    expect(hopeless.notes).toEqual(['no side of the partition holds a majority (3 of 5)']);
    const none = deriveQuorum(split, EMPTY_MEMORY, null);
    expect(none.state).toBe('none');
    expect(none.headline).toBe('No leader');
    expect(none.notes[0]).toMatch(/no side of the partition holds a majority \(3 of 5\)/);
  });

  it('names a zombie leader of an older term and a split brain when quorum is off', () => {
    const zombie = node('n1', { role: 'leader', term: 6, paused: true });
    const s = snap({}, [zombie, node('n2'), leaderN3(), node('n4'), node('n5')]);
    expect(deriveChain(s, EMPTY_MEMORY, LEASE).quorum.notes).toContain(
      'n1 still believes it leads term 6 (paused)',
    );
    const off = deriveQuorum({ ...s, safety: { ...s.safety, quorum: false } }, EMPTY_MEMORY, s.nodes[2]);
    expect(off.state).toBe('split');
    expect(off.headline).toBe('2 leaders at once: split brain');
  });

  it("speaks the run's algorithm: a Lease holder, a paused zombie, Bully's split brain without a quorum", () => {
    const k8s = electionOf(experiment('k8s-lease'));
    // Whose quorum commits the Lease: etcd's majority, through the API server.
    expect(k8s.title).toBe("etcd's quorum commits one Lease");
    const zombie = node('n1', { role: 'leader', term: 0, paused: true });
    const holder = node('n2', { role: 'leader', term: 1 });
    // Kubernetes has no quorum switch: a second holder is the paused one, never a split brain.
    const s = snap({ safety: { quorum: false, fencing: true, followersReject: true, preVote: false } }, [
      zombie,
      holder,
      node('n3'),
    ]);
    const q = deriveQuorum(s, EMPTY_MEMORY, holder, k8s);
    expect(q.state).toBe('leader');
    expect(q.headline).toBe('n2 is holder, leaderTransitions 1');
    expect(q.notes).toEqual(['n1 still believes it is holder, leaderTransitions 0 (paused)']);
    expect(q.voters).toEqual([]);
    expect(q.majorityText).toBe(
      'the API server writes one Lease object to etcd by compare-and-swap; its 3 members need a majority (2)',
    );
    expect(deriveQuorum(snap({}, [node('n1'), node('n2')]), EMPTY_MEMORY, null, k8s).headline).toBe(
      'No holder',
    );

    const bully = electionOf(experiment('bully'));
    const sides = snap({}, [
      node('n2', { role: 'leader', term: 2 }),
      node('n5', { role: 'leader', term: 2 }),
    ]);
    const split = deriveQuorum(sides, EMPTY_MEMORY, sides.nodes[1], bully);
    expect(split.state).toBe('split');
    expect(split.headline).toBe('2 coordinators at once: split brain');
    expect(split.notes).toEqual(['no quorum: n2 (epoch 2), n5 (epoch 2) each act as coordinator']);
  });

  it('compares each write against the max seen before it', () => {
    const recent = [
      write({ token: 3, maxTokenSeen: 3 }),
      write({ token: 4, maxTokenSeen: 4 }),
      write({ token: 3, result: 'rejected', maxTokenSeen: 4 }),
    ];
    expect(maxBefore(recent, 1, 3)).toBe(3);
    expect(maxBefore(recent, 0, 3)).toBe(0);
    expect(compareWrite(recent[1], 3, true).text).toBe('token 4 >= 3? yes');
    expect(compareWrite(recent[2], 4, true).text).toBe('token 3 >= 4? no');
    expect(compareWrite(write({ token: 3, maxTokenSeen: 4, stale: true }), 4, false).text).toBe(
      'token 3 < 4: accepted unchecked (stale)',
    );
  });

  it('turns the last rejected write into a zombie alert and a stale one into a lost-update alert', () => {
    const events: SimEvent[] = [
      { atMs: 100, type: 'elected', node: 'n3', term: 4, votes: ['n3', 'n4', 'n5'] },
      { type: 'write', ...write({ atMs: 200, node: 'n1', token: 3, result: 'rejected', maxTokenSeen: 4 }) },
      { type: 'write', ...write({ atMs: 300, node: 'n2', token: 2, maxTokenSeen: 4, stale: true }) },
    ];
    const memory = foldEvents(EMPTY_MEMORY, events);
    const s = snap({ storage: { maxTokenSeen: 4, accepted: 1, rejected: 1, recent: [] } }, [
      leaderN3({ term: 4 }),
    ]);
    const { outcome } = deriveChain(s, memory, LEASE);
    expect(outcome.zombie?.headline).toBe('ZOMBIE WRITE REJECTED: n1 token 3 < 4');
    expect(outcome.stale?.headline).toBe('STALE WRITE ACCEPTED: lost update');
    expect(outcome.stale?.detail).toMatch(/^n2 token 2 < 4 accepted at 0.3 s because fencing is off/);
  });

  it('highlights the step of the latest activity, cascading a write through steps 3, 4 and 5', () => {
    const memory = foldEvents(EMPTY_MEMORY, [{ type: 'write', ...write({ atMs: 49_500 }) }]);
    const at = (nowMs: number) => {
      const s = snap({ nowMs }, [leaderN3()]);
      return activeStep(s, memory, s.nodes[0], LEASE);
    };
    expect(at(49_400)).toBe(2);
    expect(at(49_500)).toBe(3);
    expect(at(49_500 + CASCADE_MS)).toBe(4);
    expect(at(49_500 + 2 * CASCADE_MS)).toBe(5);
    const paused = snap({}, [leaderN3({ paused: true })]);
    expect(activeStep(paused, memory, paused.nodes[0], LEASE)).toBe(2);
    expect(activeStep(snap(), memory, null, LEASE)).toBe(1);
  });

  it("reads the lease ring as client-go's renewal round: RetryPeriod after a renewal, then RenewDeadline", () => {
    const dial = (nowMs: number, over: Partial<NodeView> = {}) =>
      leaseDial(snap({ nowMs }), leaderN3(over), LEASE);
    // A round under way since 2.4 s after the last renewal (RetryPeriod and the renewal's own
    // 0.4 s): it fails RenewDeadline after it began, 12.4 s after the renewal, not 10 s.
    const round = dial(52_000, { deadlineAtMs: 49_200 + 12_400 });
    expect(round.text).toBe(
      'renewed 2.8 s ago; round fails at 12.4 s: began 2.4 s after, + RenewDeadline 10 s',
    );
    expect(round.deadlineFraction).toBeCloseTo(12.4 / 15);
    // Between rounds: the earliest a silent holder stops.
    const between = dial(50_000, { deadlineAtMs: -1 });
    expect(between.text).toBe(
      'renewed 0.8 s ago; stops at 12 s unless renewed: RetryPeriod 2 s + RenewDeadline 10 s',
    );
    expect(between.fraction).toBeCloseTo(800 / 15000);
    expect(between.deadlineFraction).toBeCloseTo(12 / 15);
    // Past the deadline the engine reports it clamped to now; the ring still places it at 12 s.
    const late = leaseDial(snap({ nowMs: 62_000 }), leaderN3({ deadlineAtMs: 62_000, paused: true }), LEASE);
    expect(late.state).toBe('late');
    expect(late.text).toBe("renewed 12.8 s ago: past its renewal round's deadline (12 s) (n3 paused)");
    expect(late.deadlineFraction).toBeCloseTo(12 / 15);
    expect(dial(65_000).state).toBe('expired');
    expect(leaseDial(snap(), null, LEASE).text).toBe('no lease holder');
    // The compact strip starts at the deadline: the lead-in is the time its ring's centre shows.
    expect([round.lead, between.lead, late.lead]).toEqual([
      'renewed 2.8 s ago; ',
      'renewed 0.8 s ago; ',
      'renewed 12.8 s ago: ',
    ]);
    expect(leaseDial(snap(), null, LEASE).lead).toBe('');
  });
});

// ------------------------------------------------------------------ the scene over a live lab

afterEach(cleanup);

function lab(experiment = {}): LabStore {
  return createLabStore({ experiment, playing: false });
}

function mount(store: LabStore) {
  return render(
    <LabProvider store={store}>
      <ChainScene />
    </LabProvider>,
  );
}

const drive = (fn: () => void) => act(fn);
const leaderOf = (store: LabStore) =>
  store.getState().snapshot.nodes.find((n) => n.role === 'leader' && !n.paused)!;
const text = (id: string) => screen.getByTestId(id).textContent;

function electedEvent(store: LabStore, nodeId: string) {
  const events = store.backend().eventsSince(0);
  return events
    .filter((e): e is Extract<SimEvent, { type: 'elected' }> => e.type === 'elected' && e.node === nodeId)
    .pop()!;
}

/** Boot, let the leader settle, then freeze it for 30 s: longer than the 15 s lease. */
function longPause(store: LabStore) {
  drive(() => store.getState().advanceBy(5000));
  const old = leaderOf(store);
  drive(() => void store.getState().command({ do: 'pause', node: 'leader', forMs: 30_000 }));
  drive(() => store.getState().advanceBy(31_000));
  return old;
}

describe('ChainScene', () => {
  it('is a labelled region with the five steps as an ordered list and one current step', () => {
    const store = lab();
    mount(store);
    drive(() => store.getState().advanceBy(5000));
    const region = screen.getByRole('region', { name: 'Fencing chain' });
    const steps = within(region)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement?.tagName === 'OL');
    const titles = steps.map((li) => li.querySelector('h3')?.textContent ?? '');
    expect(steps).toHaveLength(5);
    [
      'Quorum elects one leader',
      'Leader heartbeats',
      'Every write carries a fencing token',
      'incoming token >= max seen?',
      'Committed once, or rejected',
    ].forEach((title, i) => expect(titles[i]).toContain(title));
    expect(region.querySelectorAll('[aria-current="step"]')).toHaveLength(1);
  });

  it("names the second step in the algorithm's words", () => {
    const second = (experiment: object) => {
      const store = lab(experiment);
      const view = mount(store);
      drive(() => store.getState().advanceBy(5000));
      const step = view.container.querySelectorAll('ol > li')[1];
      const out = step.textContent ?? '';
      view.unmount();
      return out;
    };
    expect(second({})).toContain('every 0.1 s; followers wait 1 s-2 s');
    expect(second({ algorithm: 'k8s-lease' })).toContain('Leader holds a lease');
    expect(second({ algorithm: 'k8s-lease' })).toContain('TTL 15 s, renew every 2 s');
    expect(second({ algorithm: 'etcd-election' })).toContain('lease TTL 10 s');
    expect(second({ algorithm: 'zookeeper' })).toContain('timeout 10 s');
    expect(second({ algorithm: 'bully', nodes: 5 })).toContain('nothing expires');
  });

  it('shows the elected leader, its votes and term, and the current token after boot', () => {
    const store = lab();
    mount(store);
    drive(() => store.getState().advanceBy(5000));
    const leader = leaderOf(store);
    const won = electedEvent(store, leader.id);
    expect(text('quorum-headline')).toContain(`${leader.id} leads term ${leader.term}`);
    expect(text('quorum-votes')).toBe(`${won.votes.length} of 5 votes, term ${leader.term}`);
    expect(won.votes.length).toBe(3);
    const voted = screen.getByRole('list', { name: 'votes' }).querySelectorAll('[data-voted]');
    expect([...voted].map((li) => li.textContent?.slice(0, 2)).sort()).toEqual([...won.votes].sort());
    expect(text('current-token')).toBe(`current token ${leader.term}`);
    expect(text('latest-comparison')).toMatch(
      new RegExp(`^${leader.id}: token ${leader.term} >= ${leader.term}\\? yes$`),
    );
  });

  it('moves the lease ring with every snapshot without re-rendering the chain', () => {
    const store = lab({ algorithm: 'k8s-lease' });
    let commits = 0;
    render(
      <LabProvider store={store}>
        <Profiler id="chain" onRender={() => commits++}>
          <ChainScene />
        </Profiler>
      </LabProvider>,
    );
    drive(() => store.getState().advanceBy(5000));
    const arc = document.querySelector('.chain-ring-arc')!;
    const captions = new Set<string>();
    const arcs = new Set<string>();
    const before = commits;
    for (let i = 0; i < 30; i++) {
      drive(() => store.getState().advanceBy(16));
      captions.add(text('lease-caption') ?? '');
      arcs.add(arc.getAttribute('stroke-dasharray') ?? '');
    }
    expect(text('lease-caption')).toMatch(/^renewed \d+\.\d s ago; .*RenewDeadline 10 s$/);
    expect(arcs.size).toBeGreaterThan(20);
    expect(captions.size).toBeGreaterThan(2);
    // A write lands about once a second, so a few commits are expected, never one per frame.
    expect(commits - before).toBeLessThan(8);
  });

  it('rejects the zombie write after a 30 s GC pause with fencing on', () => {
    const store = lab();
    mount(store);
    const old = longPause(store);
    const now = leaderOf(store);
    expect(now.term).toBeGreaterThan(old.term);
    expect(text('quorum-headline')).toContain(`${now.id} leads term ${now.term}`);
    expect(Number(text('rejected-count'))).toBeGreaterThanOrEqual(1);
    expect(text('zombie-alert')).toContain(
      `ZOMBIE WRITE REJECTED: ${old.id} token ${old.term} < ${now.term}`,
    );
    expect(screen.getByRole('list', { name: 'earlier comparisons' }).textContent).toContain(
      `${old.id}: token ${old.term} >= ${now.term}? no`,
    );
    expect(screen.queryByTestId('stale-alert')).toBeNull();
  });

  it('accepts the stale write in red with fencing off', () => {
    const store = lab({ safety: { fencing: false } });
    mount(store);
    const old = longPause(store);
    const now = leaderOf(store);
    expect(text('fencing-off')).toBe('fencing off: storage accepts every write');
    expect(text('stale-alert')).toContain('STALE WRITE ACCEPTED: lost update');
    expect(text('stale-alert')).toContain(`${old.id} token ${old.term} < ${now.term}`);
    expect(text('rejected-count')).toBe('0');
    expect(screen.queryByTestId('zombie-alert')).toBeNull();
  });

  it('highlights the election while a candidate campaigns', () => {
    const store = lab();
    mount(store);
    drive(() => store.getState().advanceBy(5000));
    drive(() => void store.getState().command({ do: 'kill', node: 'leader' }));
    const campaigning = () =>
      store.getState().snapshot.nodes.some((n) => n.alive && (n.role === 'candidate' || n.preVoting));
    for (let i = 0; i < 500 && !campaigning(); i++) drive(() => store.getState().stepEvent());
    expect(campaigning()).toBe(true);
    expect(text('quorum-headline')).toMatch(/(campaigns for|asks for pre-votes for) term 2/);
    expect(document.querySelector('[aria-current="step"]')?.classList.contains('chain-step-1')).toBe(true);
  });

  it('keeps two labs on one page apart, and forgets a zombie when the timeline seeks back', () => {
    const calm = lab();
    const paused = lab();
    render(
      <>
        <LabProvider store={calm}>
          <ChainScene />
        </LabProvider>
        <LabProvider store={paused}>
          <ChainScene />
        </LabProvider>
      </>,
    );
    drive(() => calm.getState().advanceBy(36_000));
    longPause(paused);
    const [first, second] = screen.getAllByRole('region', { name: 'Fencing chain' });
    expect(within(first).queryByTestId('zombie-alert')).toBeNull();
    expect(within(second).getByTestId('zombie-alert').textContent).toContain('ZOMBIE WRITE REJECTED');
    drive(() => paused.getState().seek(10_000));
    expect(within(second).queryByTestId('zombie-alert')).toBeNull();
    expect(within(second).getByTestId('rejected-count').textContent).toBe('0');
  });
});
