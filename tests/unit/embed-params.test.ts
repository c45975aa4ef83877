// The embed's `scene` parameter against names every object has: `?scene=constructor` or
// `?scene=__proto__` used to pass as a scene, and the embed page went blank with an uncaught
// TypeError instead of showing the default scene and naming the bad parameter.
import { describe, expect, it } from 'vitest';
import { readEmbedOptions, SCENES } from '../../src/embed/sceneParam';

const INHERITED = [
  'constructor',
  '__proto__',
  'hasOwnProperty',
  'isPrototypeOf',
  'toString',
  'valueOf',
  'toLocaleString',
];

describe('embed scene parameter', () => {
  it.each(INHERITED)('"%s" is not a scene: the default is shown and the parameter is named', (name) => {
    const o = readEmbedOptions(`?scene=${name}`);
    expect(o.scene).toBe('cluster');
    expect(typeof SCENES[o.scene]).toBe('string');
    expect(o.problems).toEqual([
      `"scene" must be one of cluster, chain, metric-line, failover (got "${name.toLowerCase()}")`,
    ]);
  });

  it('real names and aliases still work, in any case', () => {
    expect(readEmbedOptions('?scene=Chain').scene).toBe('chain');
    expect(readEmbedOptions('?scene=metric').scene).toBe('metric-line');
    expect(readEmbedOptions('?scene=stage').problems).toEqual([]);
  });
});
