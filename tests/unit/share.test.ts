import { describe, expect, it } from 'vitest';
import { decodeRun, encodeRun, RETIRED_MODEL_NOTE } from '../../src/shared/share';
import { readPageParams } from '../../src/shared/link';
import { createLabStore } from '../../src/store/labStore';

describe('run links', () => {
  const run = {
    experiment: { seed: 7, nodes: 3 },
    commands: [
      { atMs: 12_000, command: { do: 'kill' as const, node: 'leader' } },
      { atMs: 20_000, command: { do: 'safety' as const, fencing: false } },
    ],
    atMs: 45_000,
  };

  it('round-trips a run and stays URL-safe', () => {
    const text = encodeRun(run);
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    const back = decodeRun(text);
    expect(back).toEqual({ ok: true, run });
  });

  it('reproduces the same state when replayed from the link', () => {
    const a = createLabStore({ experiment: run.experiment, playing: false });
    a.getState().advanceBy(12_000);
    a.getState().command(run.commands[0].command);
    a.getState().advanceBy(8_000);
    a.getState().command(run.commands[1].command);
    a.getState().advanceBy(25_000);
    const decoded = decodeRun(
      encodeRun({ ...run, commands: a.backend().commands, atMs: a.getState().snapshot.nowMs }),
    );
    if (!decoded.ok) throw new Error(decoded.problems.join('; '));
    const b = createLabStore({
      experiment: decoded.run.experiment,
      commands: decoded.run.commands,
      playing: false,
    });
    b.getState().seek(decoded.run.atMs);
    expect(JSON.stringify(b.getState().snapshot)).toEqual(JSON.stringify(a.getState().snapshot));
    expect(b.backend().trace()).toEqual(a.backend().trace());
  });

  it('names what could not be read in a truncated, corrupted or outdated link', () => {
    const text = encodeRun(run);
    const cut = decodeRun(text.slice(0, text.length - 12));
    expect(cut.ok).toBe(false);
    expect(!cut.ok && cut.problems[0]).toMatch(/cut off/);
    expect(decodeRun('%%%not base64').ok).toBe(false);
    const bad = decodeRun(encodeRun({ ...run, experiment: { nodes: 12 } as never }));
    expect(!bad.ok && bad.problems.join()).toMatch(/run setup: nodes/);
    const badCmd = decodeRun(
      encodeRun({ ...run, commands: [{ atMs: 5, command: { do: 'explode' } as never }] }),
    );
    expect(!badCmd.ok && badCmd.problems.join()).toMatch(/run commands\.0/);
  });

  it('opens a link made with the retired model under Raft, without its lease, and says so in one line', () => {
    const old = encodeRun(
      {
        ...run,
        experiment: {
          seed: 7,
          nodes: 3,
          lease: { durationMs: 15000, renewDeadlineMs: 10000, retryPeriodMs: 2000 },
        } as never,
      },
      1,
    );
    const back = decodeRun(old);
    expect(back).toEqual({
      ok: true,
      run: { ...run, experiment: { seed: 7, nodes: 3 }, notes: [RETIRED_MODEL_NOTE] },
    });
    const page = readPageParams(`?run=${old}`);
    expect(page.badRun).toBe(false);
    expect(page.problems).toEqual([RETIRED_MODEL_NOTE]);
    // Its game day opens as the game day is now (under the algorithm that tells its story).
    const gameDay = readPageParams(`?run=${encodeRun({ ...run, scenario: 'gc-pause-long' }, 1)}`);
    expect(gameDay.experiment).toMatchObject({ algorithm: 'k8s-lease' });
    expect(gameDay.problems).toEqual([RETIRED_MODEL_NOTE]);
    // A version the lab never wrote is still refused by name.
    const future = decodeRun(encodeRun(run, 9));
    expect(!future.ok && future.problems[0]).toMatch(
      /another version of the lab \(format 9, this one reads 2\)/,
    );
  });

  it('a bad link falls back to defaults with a message instead of failing', () => {
    const p = readPageParams('?run=abc&speed=fast&nodes=0');
    expect(p.badRun).toBe(true);
    expect(p.experiment).toMatchObject({ nodes: 5 });
    expect(p.problems.join(' ')).toMatch(/"speed"/);
    expect(p.problems.join(' ')).toMatch(/"nodes"/);
    expect(p.problems.join(' ')).toMatch(/cut off/);
  });
});
