// The seeded generator is what makes a run reproducible from its seed alone.
import { describe, expect, it } from 'vitest';
import { nextFloat, nextInt, nextU32, seedRng } from '../../../src/engine/rng';

function draws(seed: number, stream: number, count: number): number[] {
  const s = seedRng(seed, stream);
  return Array.from({ length: count }, () => nextU32(s));
}

describe('rng', () => {
  it('gives the same sequence for the same seed and stream', () => {
    expect(draws(42, 1, 1000)).toEqual(draws(42, 1, 1000));
  });

  it('gives different sequences for different seeds and for different streams of one seed', () => {
    expect(draws(42, 1, 50)).not.toEqual(draws(43, 1, 50));
    // Subsystems fork their own stream: the network's delays must not be the timers' jitter.
    expect(draws(42, 1, 50)).not.toEqual(draws(42, 2, 50));
  });

  it('accepts the whole seed range of the experiment format', () => {
    for (const seed of [0, 1, 2 ** 31 - 1, 2 ** 31, 4294967295]) {
      const d = draws(seed, 1, 20);
      expect(new Set(d).size).toBeGreaterThan(15);
      d.forEach((x) => expect(Number.isInteger(x) && x >= 0 && x < 2 ** 32).toBe(true));
    }
    expect(draws(2 ** 31, 1, 20)).not.toEqual(draws(0, 1, 20));
  });

  it('keeps floats in [0, 1)', () => {
    const s = seedRng(7, 1);
    const xs = Array.from({ length: 10_000 }, () => nextFloat(s));
    expect(xs.filter((x) => !(x >= 0 && x < 1))).toEqual([]);
  });

  it('draws integers in [min, max] with both ends reachable and roughly uniform', () => {
    const s = seedRng(9, 3);
    const counts = new Map<number, number>();
    for (let i = 0; i < 60_000; i++) {
      const x = nextInt(s, 2, 7);
      counts.set(x, (counts.get(x) ?? 0) + 1);
    }
    // Exactly the six integers 2..7: no fractions, nothing outside, both ends reached.
    expect([...counts.keys()].sort()).toEqual([2, 3, 4, 5, 6, 7]);
    // 10,000 expected per value; a biased generator or an off-by-one end would miss this band.
    for (const c of counts.values()) expect(Math.abs(c - 10_000)).toBeLessThan(500);
  });

  it('returns min when the range is empty or a single value', () => {
    const s = seedRng(1, 1);
    expect(nextInt(s, 5, 5)).toBe(5);
    expect(nextInt(s, 5, 4)).toBe(5);
  });
});
