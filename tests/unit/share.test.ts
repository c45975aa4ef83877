import { describe, expect, it } from 'vitest';
import { decodeRun, encodeRun } from '../../src/app/share';
import { readPageParams } from '../../src/app/urlParams';
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

  it('a bad link falls back to defaults with a message instead of failing', () => {
    const p = readPageParams('?run=abc&speed=fast&nodes=0');
    expect(p.badRun).toBe(true);
    expect(p.experiment).toMatchObject({ nodes: 5 });
    expect(p.problems.join(' ')).toMatch(/"speed"/);
    expect(p.problems.join(' ')).toMatch(/"nodes"/);
    expect(p.problems.join(' ')).toMatch(/cut off/);
  });
});
