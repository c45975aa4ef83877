// @vitest-environment jsdom
// The znode queue rendered over a real lab store driven deterministically: rows, arrows, session
// timers and counts from the herd-effect setup, and the one line other algorithms get.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { createLabStore } from '../../src/store/labStore';
import { LabProvider } from '../../src/store/context';
import { SceneHostContext } from '../../src/ui/sceneHost';
import { ZnodeQueueScene } from '../../scenes/ZnodeQueueScene/ZnodeQueueScene';

afterEach(cleanup);

const HERD = {
  algorithm: 'zookeeper',
  seed: 1,
  nodes: 9,
  zookeeper: { sessionTimeoutMs: 10_000, tickTimeMs: 2000, watch: 'leader' },
  network: { delayMsMin: 60, delayMsMax: 180 },
} as const;

function mount(experiment: object) {
  const store = createLabStore({ experiment, playing: false });
  const view = render(
    <LabProvider store={store}>
      <ZnodeQueueScene />
    </LabProvider>,
  );
  return { store, view };
}

describe('ZnodeQueueScene', () => {
  it("draws the herd's queue, the dead leader's session running down, and the notifications", () => {
    const { store, view } = mount(HERD);
    act(() => store.getState().advanceBy(14_000));
    const rows = () => screen.getAllByTestId('zq-row');
    expect(rows().map((r) => r.dataset.owner)).toEqual([
      'n2',
      'n1',
      'n6',
      'n9',
      'n5',
      'n3',
      'n4',
      'n7',
      'n8',
    ]);
    expect(rows()[0].textContent).toContain('n2 leads');
    expect(rows()[1].textContent).toContain('n1 watches #1');
    expect(rows()[8].textContent).toContain('/election/n_0000000009');
    const arrows = view.container.querySelectorAll('.zq-arrow');
    expect([...arrows].map((a) => a.getAttribute('data-to'))).toEqual(Array(8).fill('0'));
    expect(screen.getByTestId('zq-facts').textContent).toContain('watches the leader (the herd effect)');
    act(() => store.getState().command({ do: 'kill', node: 'n2' }));
    act(() => store.getState().advanceBy(6_000));
    expect(rows()[0].textContent).toContain('(dead)');
    expect(rows()[0].querySelector('[role="img"]')?.getAttribute('aria-label')).toBe(
      'session expires in 3.9 s',
    );
    expect(screen.getByTestId('zq-notifications').textContent).toBe('0');
    act(() => store.getState().advanceBy(15_000));
    expect(rows()[0].dataset.owner).toBe('n1');
    expect(screen.getByTestId('zq-notifications').textContent).toBe('8');
    expect(screen.getByTestId('zq-reads').textContent).toBe('8');
  });

  it('under another algorithm, says what it shows and how to switch, in the words of its host', () => {
    mount({ algorithm: 'raft', seed: 1 });
    expect(screen.getByTestId('zq-switch').textContent).toContain('algorithm=zookeeper');
    cleanup();
    const store = createLabStore({ experiment: { algorithm: 'raft', seed: 1 }, playing: false });
    render(
      <SceneHostContext.Provider value={{ controls: true, density: 'full' }}>
        <LabProvider store={store}>
          <ZnodeQueueScene />
        </LabProvider>
      </SceneHostContext.Provider>,
    );
    expect(screen.getByTestId('zq-switch').textContent).toContain('under Setup');
  });

  it("etcd's election keys: the same queue, by create revision, with lease timers", () => {
    const { store } = mount({ algorithm: 'etcd-election', seed: 1, nodes: 5 });
    act(() => store.getState().advanceBy(12_000));
    expect(screen.getByRole('heading', { name: 'Election keys' })).toBeTruthy();
    expect(screen.getAllByTestId('zq-row').map((r) => r.textContent?.slice(0, 2))).toEqual([
      '#2',
      '#3',
      '#4',
      '#5',
      '#6',
    ]);
    expect(screen.queryByTestId('zq-reads')).toBeNull();
    expect(
      screen.getAllByTestId('zq-row')[0].querySelector('[role="img"]')?.getAttribute('aria-label'),
    ).toMatch(/^lease expires in \d+\.\d s$/);
  });
});
