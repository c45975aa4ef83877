// @vitest-environment jsdom
// The setup's algorithm picker, the safety switches and the banner speak the run's algorithm:
// only its own settings and switches are offered, a bad number is named as the parser names it,
// and a split that an algorithm without a quorum allows is blamed on the algorithm.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { createLabStore, type LabStore } from '../../src/store/labStore';
import { LabProvider } from '../../src/store/context';
import { SetupPanel } from '../../src/app/controls/SetupPanel';
import { SafetyPanel } from '../../src/app/controls/SafetyPanel';
import { SafetyBanner } from '../../src/app/controls/SafetyBanner';
import { ALGORITHM_KINDS, RAFT_PRESETS, algorithmFor } from '../../src/engine';
import { pickerLine } from '../../src/engine/algorithms/picker';

afterEach(cleanup);

const mount = (store: LabStore) =>
  render(
    <LabProvider store={store}>
      <SetupPanel />
      <SafetyPanel />
      <SafetyBanner />
    </LabProvider>,
  );

/** Each switch's visible label (its reason is read out after it, hidden). */
const switches = () =>
  screen
    .getAllByRole('switch')
    .map((s) =>
      s.parentElement!.textContent!.replace(
        s.parentElement!.querySelector('.visually-hidden')!.textContent!,
        '',
      ),
    );

/** The picker's choice for an algorithm, by its title. */
const choice = (title: string) =>
  within(screen.getByRole('list', { name: 'Election algorithms' })).getByRole('button', {
    name: new RegExp(`^${title}\\b`),
  });
/** The algorithm the picker shows as the run's. */
const picked = () =>
  within(screen.getByRole('list', { name: 'Election algorithms' }))
    .getAllByRole('button')
    .filter((b) => b.getAttribute('aria-pressed') === 'true')
    .map((b) => b.getAttribute('data-algorithm'))
    .join();

describe('the algorithm picker', () => {
  it('says in one line what elects under each algorithm and whether a partition is safe', () => {
    mount(createLabStore({ experiment: { algorithm: 'k8s-lease' }, playing: false }));
    const lines = within(screen.getByRole('list', { name: 'Election algorithms' }))
      .getAllByRole('button')
      .map((b) => b.textContent);
    expect(lines).toEqual(
      ALGORITHM_KINDS.map((k) => {
        const line = pickerLine(k);
        return `${algorithmFor(k).title} ${line.what}. ${line.partition}.`;
      }),
    );
    expect(lines[0]).toBe(
      'Raft Quorum elects one leader. Safe under a partition: only a side with a majority of the nodes elects.',
    );
    expect(lines.filter((l) => l!.includes('Not safe under a partition')).length).toBe(3);
    expect(picked()).toBe('k8s-lease');
  });
});

describe('setup and safety under each algorithm', () => {
  it("offers Raft's timing, its presets, the witness and its three switches", () => {
    const store = createLabStore({ experiment: { raft: RAFT_PRESETS.teaching }, playing: false });
    mount(store);
    expect(picked()).toBe('raft');
    expect(screen.getByText('Election timeout')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Teaching/ }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText('Witness')).toBeTruthy();
    expect(switches()).toEqual(['Quorum', 'Fencing', 'Followers reject', 'Pre-vote', 'CheckQuorum']);
    // The switches the lesson does not introduce fold under Advanced, each saying what it shows.
    const advanced = screen.getByTestId('safety-advanced');
    expect(within(advanced).getAllByRole('switch')).toHaveLength(3);
    expect(advanced.textContent).toContain(
      'The lesson’s Try it 2 (isolate the leader, then reconnect it) needs it off.',
    );
    expect(screen.queryByTestId('no-switch-quorum')).toBeNull();
  });

  it('under Kubernetes, offers no Quorum, Pre-vote or CheckQuorum switch, and says why of each', () => {
    const store = createLabStore({ experiment: { algorithm: 'k8s-lease' }, playing: false });
    mount(store);
    expect(switches()).toEqual(['Fencing', 'Followers reject']);
    expect(screen.getByTestId('no-switch-quorum').textContent).toBe(
      'Quorum: not offered. Replicas do not vote: the API server commits the Lease in etcd by a majority, always.',
    );
    expect(
      within(screen.getByTestId('safety-advanced')).getByTestId('no-switch-checkQuorum').textContent,
    ).toMatch(/^CheckQuorum: not offered\. Raft's own/);
  });

  it('switches to Bully: its own fields, no witness, and a reset that runs Bully', () => {
    const store = createLabStore({ experiment: {}, playing: false });
    mount(store);
    // One click on the picker runs Bully.
    fireEvent.click(choice('Bully'));
    expect(store.getState().experiment.algorithm).toBe('bully');
    expect(picked()).toBe('bully');
    expect(screen.queryByText('Election timeout')).toBeNull();
    expect(screen.queryByText('Witness')).toBeNull();
    expect(screen.getByText('Answer timeout')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reset with this setup' }));
    expect(store.getState().experiment.algorithm).toBe('bully');
    expect(store.getState().experiment.raft).toBeUndefined();
    expect(switches()).toEqual(['Fencing', 'Followers reject']);
  });

  it('names a bad number as the parser does and will not reset with it', () => {
    const store = createLabStore({ experiment: { algorithm: 'k8s-lease' }, playing: false });
    mount(store);
    const duration = within(screen.getByText('Lease duration').parentElement!).getByRole('spinbutton');
    fireEvent.change(duration, { target: { value: '5000' } });
    expect(duration.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toContain(
      'lease.durationMs: durationMs (5000) must be greater than renewDeadlineMs (10000)',
    );
    const button = screen.getByRole('button', { name: 'Reset with this setup' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    fireEvent.change(duration, { target: { value: '20000' } });
    expect(button.disabled).toBe(false);
    fireEvent.click(button);
    expect(store.getState().experiment.lease?.durationMs).toBe(20000);
  });

  it('resets with a "seen in the wild" preset: its algorithm, cluster size and real timings', () => {
    const store = createLabStore({ experiment: {}, playing: false });
    mount(store);
    const list = screen.getByRole('list', { name: 'Seen in the wild' });
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([
      'Kubernetes: kube-controller-manager and kube-scheduler',
      "etcd's election API (concurrency.NewSession + Election.Campaign)",
      'Patroni (PostgreSQL high availability, with etcd as its DCS)',
      "Kafka's controller before KRaft (ZooKeeper)",
      'Kafka KRaft: a Raft quorum of controllers',
      'Redis Sentinel (a primary, two replicas, three sentinels)',
      'Redis Sentinel with min-replicas-to-write 1',
      'Pacemaker with STONITH (a primary and two replicas of a promotable resource)',
      'Pacemaker with STONITH, its fence device unreachable',
    ]);
    fireEvent.click(within(list).getByRole('button', { name: /^Patroni/ }));
    expect(store.getState().experiment).toMatchObject({
      algorithm: 'etcd-election',
      nodes: 3,
      etcd: { ttlMs: 30000, renewDeadlineMs: 20000 },
    });
    expect(picked()).toBe('etcd-election');
    fireEvent.click(within(list).getByRole('button', { name: /^Kafka's controller/ }));
    expect(store.getState().experiment).toMatchObject({
      algorithm: 'zookeeper',
      zookeeper: { sessionTimeoutMs: 18000, tickTimeMs: 2000, watch: 'leader' },
    });
    expect(store.getState().experiment.etcd).toBeUndefined();
    // Redis has no token: there is no check to turn on, and no Fencing switch, only why.
    fireEvent.click(within(list).getByRole('button', { name: /^Redis Sentinel with min-replicas/ }));
    expect(store.getState().experiment).toMatchObject({
      algorithm: 'redis-sentinel',
      sentinel: { minReplicasToWrite: 1, minReplicasMaxLagMs: 10000, downAfterMs: 30000 },
    });
    expect(store.getState().experiment.safety.fencing).toBeUndefined();
    expect(switches()).toEqual(['Followers reject']);
    expect(screen.getByTestId('no-switch-fencing').textContent).toBe(
      "Fencing: not offered. Redis Sentinel has no fencing token: nothing checks the epoch, so an old primary's writes are accepted, then lost when it resyncs as a replica.",
    );
    fireEvent.click(within(list).getByRole('button', { name: /^Pacemaker with STONITH \(/ }));
    expect(store.getState().experiment).toMatchObject({
      algorithm: 'pacemaker',
      stonith: { tokenMs: 3000, timeoutMs: 60000 },
    });
    expect(store.getState().experiment.sentinel).toBeUndefined();
  });

  it('blames a split under Bully on the algorithm, not on a switch', () => {
    const store = createLabStore({ experiment: { algorithm: 'bully', nodes: 5, seed: 1 }, playing: false });
    mount(store);
    act(() => store.getState().advanceBy(10_000));
    act(
      () =>
        void store.getState().command({
          do: 'partition',
          groups: [
            ['n1', 'n2'],
            ['n3', 'n4', 'n5'],
          ],
        }),
    );
    act(() => store.getState().advanceBy(20_000));
    const banner = screen.getByTestId('safety-banner');
    expect(banner.dataset.state).toBe('violated');
    expect(banner.textContent).toContain(
      'Bully has no quorum: each side of a split elects its own coordinator',
    );
    expect(banner.textContent).not.toMatch(/quorum is off|bug:/);
  });
});

describe('the banner gives both leader_counts, and never calls safe what the chart pages on', () => {
  it('through a 30 s pause of the Lease holder: observed 0, then a hidden zombie, then both 2', () => {
    const store = createLabStore({
      experiment: { algorithm: 'k8s-lease', seed: 1, nodes: 3 },
      playing: false,
    });
    render(
      <LabProvider store={store}>
        <SafetyBanner />
      </LabProvider>,
    );
    const banner = screen.getByTestId('safety-banner');
    act(() => store.getState().advanceBy(9000));
    expect(banner.textContent).toMatch(/^✓ One leader/);
    act(() => void store.getState().command({ do: 'pause', node: 'leader', forMs: 30_000 }));
    const paused = store.getState().snapshot.nodes.find((n) => n.paused)!.id;
    // Frozen but the only one who believes: the scrape sees nobody, so the dashboard pages.
    act(() => store.getState().advanceBy(5000));
    expect(banner.className).toContain('banner-warn');
    expect(banner.textContent).toContain('observed leader_count 0, believed 1');
    expect(banner.textContent).toContain(`${paused} (leaderTransitions 0, paused) believes it leads`);
    expect(banner.textContent).toContain('the dashboard pages "no leader"');
    // Another took the Lease: two believe, the scrape sees one.
    act(() => store.getState().advanceBy(20_000));
    expect(banner.textContent).toContain('believed leader_count 2, observed 1');
    expect(banner.textContent).toContain('the dashboard sees 1 and does not page');
    // The zombie woke: both counts say 2.
    act(() => store.getState().advanceBy(6000));
    expect(banner.textContent).toContain('believed leader_count 2, observed 2');
    expect(banner.textContent).not.toContain('fails its scrape');
  });
});
