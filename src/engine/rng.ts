// One seeded PRNG (sfc32). Subsystems fork their own stream from the seed so that, say, adding
// clients leaves the network's delays alone; its state is four plain numbers (a checkpoint clones it).

export type RngState = [number, number, number, number];

export function seedRng(seed: number, stream: number): RngState {
  // splitmix32 spreads (seed, stream) over the four words.
  let x = (Math.imul(seed | 0, 0x9e3779b1) ^ Math.imul(stream + 1, 0x85ebca6b)) >>> 0;
  const next = () => {
    x = (x + 0x9e3779b9) >>> 0;
    let z = x;
    z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
    z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
    return (z ^ (z >>> 15)) >>> 0;
  };
  const s: RngState = [next(), next(), next(), next()];
  for (let i = 0; i < 12; i++) nextU32(s);
  return s;
}

export function nextU32(s: RngState): number {
  const t = (((s[0] + s[1]) | 0) + s[3]) | 0;
  s[3] = (s[3] + 1) | 0;
  s[0] = s[1] ^ (s[1] >>> 9);
  s[1] = (s[2] + (s[2] << 3)) | 0;
  s[2] = (s[2] << 21) | (s[2] >>> 11);
  s[2] = (s[2] + t) | 0;
  return t >>> 0;
}

/** A float in [0, 1). */
export function nextFloat(s: RngState): number {
  return nextU32(s) / 4294967296;
}

/** An integer in [min, max], both inclusive. */
export function nextInt(s: RngState, min: number, max: number): number {
  if (max <= min) return min;
  return min + Math.floor(nextFloat(s) * (max - min + 1));
}
