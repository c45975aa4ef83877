// @vitest-environment jsdom
// The stage speaks the run's algorithm: its key lists that algorithm's kinds of message (and no
// other's), a Kubernetes Lease lab draws its API server and three etcd members as services of
// their own, a service can be selected on the stage (by click or keyboard) and killed through the
// node panel, and the nodes and the event log use the algorithm's words (Bully's coordinator and
// epoch). Each test first finds what it checks, so that a stage drawing nothing fails it.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { ClusterScene } from '../../scenes/ClusterScene/ClusterScene';
import { legendEntries } from '../../scenes/ClusterScene/StageLegend';
import { ALGORITHMS, algorithmFor, type AlgorithmKind } from '../../src/engine';
import { EventLog } from '../../src/app/controls/EventLog';
import { NodePanel } from '../../src/app/controls/NodePanel';
import { LabProvider } from '../../src/store/context';
import { createLabStore, type LabStore } from '../../src/store/labStore';

afterEach(cleanup);

function lab(algorithm: AlgorithmKind, atMs = 0): LabStore {
  const store = createLabStore({ experiment: { algorithm, seed: 1 }, playing: false });
  if (atMs) store.getState().advanceBy(atMs);
  return store;
}

const mount = (store: LabStore) =>
  render(
    <LabProvider store={store}>
      <ClusterScene />
      <NodePanel />
      <EventLog />
    </LabProvider>,
  );

const legendTexts = () =>
  within(screen.getByTestId('stage-legend'))
    .getAllByRole('listitem')
    .map((li) => li.textContent ?? '');

describe('the stage key', () => {
  it.each(['raft', 'bully', 'k8s-lease', 'zookeeper'] as const)(
    "lists %s's kinds of message, and none that only another algorithm sends",
    (algorithm) => {
      mount(lab(algorithm));
      const legend = legendTexts().join(' | ');
      const own = algorithmFor(algorithm).messages.map((m) => m.label);
      expect(own.length).toBeGreaterThan(2);
      for (const label of own) expect(legend).toContain(label);
      const others = Object.values(ALGORITHMS)
        .flatMap((a) => a.messages.map((m) => m.label))
        .filter((label) => !own.some((o) => o.includes(label) || label.includes(o)));
      expect(others.length).toBeGreaterThan(3);
      for (const label of others) expect(legend).not.toContain(label);
    },
  );

  it("has one entry per family the algorithm sends, coloured by that family's swatch", () => {
    mount(lab('bully'));
    const families = [...screen.getByTestId('stage-legend').querySelectorAll('li[data-family]')].map((li) =>
      li.getAttribute('data-family'),
    );
    // Bully sends requests (ELECTION), grants (OK), announcements (COORDINATOR) and heartbeats;
    // no acks. The storage's writes, its verdicts and lost messages are drawn under every algorithm.
    expect(families.sort()).toEqual(
      ['announce', 'dropped', 'grant', 'heartbeat', 'reject', 'request', 'write'].sort(),
    );
    for (const li of screen.getByTestId('stage-legend').querySelectorAll('li[data-family]'))
      expect(li.querySelector(`.legend-${li.getAttribute('data-family')}`)).not.toBeNull();
    expect(legendEntries(algorithmFor('bully')).find((e) => e.kind === 'announce')?.text).toBe('COORDINATOR');
  });
});

describe('services on the stage', () => {
  it('draws the API server and three etcd members, grouped as etcd with its majority, for a Kubernetes Lease lab', () => {
    mount(lab('k8s-lease', 5_000));
    expect(screen.getByTestId('service-api').textContent).toBe('API server');
    const etcd = screen.getByRole('group', { name: 'etcd, majority 2 of 3' });
    expect(screen.getByTestId('ensemble-majority').textContent).toBe('majority 2 of 3');
    for (const id of ['m1', 'm2', 'm3']) {
      const member = within(etcd).getByTestId(`service-${id}`);
      expect(member.getAttribute('data-alive')).toBe('true');
      expect(member.getAttribute('aria-label')).toBe(`Select etcd ${id}: up`);
    }
    // The API server is not one of the store's members, and none of them is a node.
    expect(within(etcd).queryByTestId('service-api')).toBeNull();
    expect(screen.getAllByTestId(/^node-n\d$/)).toHaveLength(5);
    expect(screen.getByRole('group', { name: 'Cluster stage' }).getAttribute('viewBox')).toBe('0 0 760 520');
  });

  it('draws no service, and the narrower stage, for Raft', () => {
    mount(lab('raft', 5_000));
    expect(screen.getAllByTestId(/^node-n\d$/)).toHaveLength(5);
    expect(screen.queryAllByTestId(/^service-/)).toHaveLength(0);
    expect(screen.queryByTestId('ensemble')).toBeNull();
    expect(screen.getByRole('group', { name: 'Cluster stage' }).getAttribute('viewBox')).toBe('0 0 640 520');
  });

  it('names the ZooKeeper ensemble', () => {
    mount(lab('zookeeper', 5_000));
    const ensemble = screen.getByRole('group', { name: 'ZooKeeper ensemble, majority 2 of 3' });
    expect(within(ensemble).getAllByTestId(/^service-z\d$/)).toHaveLength(3);
  });

  it('shows m1 dead once it is killed from the node panel, after clicking it on the stage', () => {
    const store = lab('k8s-lease', 5_000);
    mount(store);
    const m1 = screen.getByTestId('service-m1');
    expect(m1.getAttribute('data-alive')).toBe('true');
    fireEvent.click(m1);
    expect(store.getState().selected).toBe('m1');
    expect(screen.getByTestId('node-status').textContent).toBe('etcd m1: up');
    fireEvent.click(screen.getByRole('button', { name: 'Kill m1' }));
    expect(store.getState().snapshot.services.find((s) => s.id === 'm1')?.alive).toBe(false);
    const dead = screen.getByTestId('service-m1');
    expect(dead.getAttribute('data-alive')).toBe('false');
    expect(dead.getAttribute('class')).toContain('service-dead');
    expect(dead.getAttribute('aria-label')).toBe('Select etcd m1: dead');
    expect(dead.querySelector('.service-x')).not.toBeNull();
    // The others are untouched; the panel now offers a restart, and the log names the member.
    expect(screen.getByTestId('service-m2').getAttribute('data-alive')).toBe('true');
    expect(screen.getByTestId('node-status').textContent).toBe('etcd m1: dead');
    expect(screen.getByRole('button', { name: 'Restart m1' })).toBeTruthy();
    expect(screen.getByTestId('event-log').textContent).toContain('killed etcd m1');
  });

  it('is reached with Tab and selected with Enter, like a node, and offers kill and isolate', () => {
    const store = lab('k8s-lease', 5_000);
    mount(store);
    const api = screen.getByTestId('service-api');
    expect(api.getAttribute('tabindex')).toBe('0');
    api.focus();
    expect(document.activeElement).toBe(api);
    fireEvent.keyDown(api, { key: 'Enter' });
    expect(store.getState().selected).toBe('api');
    expect(api.getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByRole('button', { name: 'Kill api' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Isolate api' }));
    expect(store.getState().snapshot.partition).toEqual([['api'], ['n1', 'n2', 'n3', 'n4', 'n5']]);
    // Cut off, it is its own group: the stage draws an outline around it and says so.
    expect(screen.getByTestId('service-api').getAttribute('data-group')).toBe('0');
    expect(screen.getByTestId('service-api').getAttribute('aria-label')).toContain('in group A');
    expect(screen.getAllByTestId('partition-group')).toHaveLength(2);
  });
});

describe("the algorithm's words", () => {
  it('calls a Bully leader the coordinator of an epoch, on the stage and in the event log', () => {
    const store = lab('bully', 20_000);
    mount(store);
    const leader = store.getState().snapshot.nodes.find((n) => n.alive && n.role === 'leader')!;
    expect(leader).toBeTruthy();
    const glyph = screen.getByTestId(`node-${leader.id}`);
    expect(glyph.querySelector('.node-role')?.textContent).toMatch(/^coordinator/);
    expect(glyph.querySelector('.node-term')?.textContent).toBe(`e${leader.term}`);
    expect(glyph.getAttribute('aria-label')).toContain(`epoch ${leader.term}`);
    const log = screen.getByTestId('event-log').textContent ?? '';
    expect(log).toContain(`${leader.id} became coordinator (epoch ${leader.term})`);
    expect(log).not.toMatch(/\bterm\b/);
    expect(store.getState().announcement).toBe(`${leader.id} is the coordinator of epoch ${leader.term}`);
  });

  it("keeps Raft's term, leader and votes", () => {
    const store = lab('raft', 20_000);
    mount(store);
    const leader = store.getState().snapshot.nodes.find((n) => n.alive && n.role === 'leader')!;
    const glyph = screen.getByTestId(`node-${leader.id}`);
    expect(glyph.querySelector('.node-role')?.textContent).toMatch(/^leader/);
    expect(glyph.querySelector('.node-term')?.textContent).toBe(`t${leader.term}`);
    const log = screen.getByTestId('event-log').textContent ?? '';
    expect(log).toMatch(new RegExp(`${leader.id} won term ${leader.term} with votes from n\\d`));
    expect(log).not.toContain('coordinator');
    expect(log).not.toContain('epoch');
  });
});
