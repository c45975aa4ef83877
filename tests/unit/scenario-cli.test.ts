import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/scenario';

describe('npm run scenario', () => {
  it('lists the shipped scenarios and runs one by id to its measured summary', () => {
    const list = main(['--list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^gc-pause-long\s+/m);
    const r = main(['gc-pause-long', '--summary']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.id).toBe('gc-pause-long');
    expect(out.steps.every((s: { met: boolean }) => s.met)).toBe(true);
    expect(out.summary).toMatch(/10 zombie writes rejected; 0 stale writes accepted/);
    expect(out.trace).toBeUndefined();
  });

  it('names an unknown scenario instead of guessing', () => {
    const r = main(['no-such-game-day']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no scenario "no-such-game-day"/);
  });
});
