// @vitest-environment jsdom
// The saved session: what a closed tab or a bad link offers back. One saved before runs had
// versions was made with the first model, and opens with the note that says so.
import { afterEach, describe, expect, it } from 'vitest';
import { lastSession, saveSession } from '../../src/app/session';
import { decodeRun, RETIRED_MODEL_NOTE } from '../../src/shared/share';
import { createLabStore } from '../../src/store/labStore';

afterEach(() => localStorage.clear());

describe('the saved session', () => {
  it('is offered back as the same run, with no note', () => {
    const store = createLabStore({ experiment: { algorithm: 'zookeeper', seed: 4 }, playing: false });
    store.getState().advanceBy(9_000);
    store.getState().command({ do: 'kill', node: 'leader' });
    saveSession(store);
    const back = decodeRun(lastSession()!);
    expect(back.ok && back.run).toMatchObject({
      experiment: { algorithm: 'zookeeper', seed: 4 },
      commands: [{ atMs: 9_000, command: { do: 'kill', node: 'leader' } }],
      atMs: 9_000,
    });
    expect(back.ok && back.run.notes).toBeUndefined();
  });

  it('saved by the first model (no version) opens under Raft with the note', () => {
    localStorage.setItem(
      'lel-last-run',
      JSON.stringify({ experiment: { seed: 3, lease: { durationMs: 20000 } }, commands: [], atMs: 5_000 }),
    );
    const back = decodeRun(lastSession()!);
    expect(back).toEqual({
      ok: true,
      run: { experiment: { seed: 3 }, commands: [], atMs: 5_000, notes: [RETIRED_MODEL_NOTE] },
    });
  });
});
