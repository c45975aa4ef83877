// The embed's parameters: `scene` against names every object has (`?scene=constructor` or
// `?scene=__proto__` used to pass as a scene, and the embed page went blank with an uncaught
// TypeError instead of showing the default scene and naming the bad parameter); names echoed as
// typed; the element's own attributes are the table's element-only rows.
import { describe, expect, it } from 'vitest';
import { readEmbedParams } from '../../src/shared/link';
import { PARAMS, paramsOf, queryFor, readParams } from '../../src/shared/params';
import { EMBED_CAPTION_PX, sceneById, SCENES } from '../../src/shared/scenes';
import {
  CAPTION_PX,
  frameTitle,
  OWN_ATTRS,
  reservedPx,
  SCENE_ALIASES,
  SCENE_EMBEDS,
} from '../../src/embed/elementAttrs';
import { DEFAULT_CHOICES, embedSnippets } from '../../src/app/controls/embedSnippets';
import { normalizeExperiment, type ExperimentInput } from '../../src/engine';

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
    const o = readEmbedParams(`?scene=${name}`);
    expect(o.scene).toBe('cluster');
    expect(o.problems).toEqual([
      `"scene" must be one of ${SCENES.map((s) => s.id).join(', ')} (got "${name}"): used cluster`,
    ]);
  });

  it('real names and aliases still work, in any case, and a bad one is echoed as typed', () => {
    expect(readEmbedParams('?scene=Chain').scene).toBe('chain');
    expect(readEmbedParams('?scene=metric').scene).toBe('metric-line');
    expect(readEmbedParams('?scene=stage').problems).toEqual([]);
    expect(readEmbedParams('?scene=Pie').problems[0]).toContain('(got "Pie")');
  });
});

describe('the parameter table', () => {
  it('names unknown parameters, suggesting the one meant, and leaves campaign tags alone', () => {
    const r = readParams('?sceen=chain&sped=4&utm_source=x&fbclid=1', 'embed');
    expect(r.notes).toEqual([
      '"sceen" is not a parameter of an embed (did you mean "scene"?): ignored',
      '"sped" is not a parameter of an embed (did you mean "speed"?): ignored',
    ]);
  });

  it('reads 1/0 and true/false, and says what it used for a value out of range', () => {
    expect(readParams('?autoplay=false', 'embed').values.autoplay).toBe(false);
    expect(readParams('?paused=false', 'lab').values.paused).toBe(false);
    expect(readParams('?paused', 'lab').values.paused).toBe(true);
    const fast = readParams('?speed=1000', 'lab');
    expect(fast.values.speed).toBe(64);
    expect(fast.notes).toEqual(['"speed" must be at most 64 (got "1000"): used 64']);
    expect(readParams('?autoplay=maybe', 'embed').notes).toEqual([
      '"autoplay" must be 1 or 0 (got "maybe"): used 1',
    ]);
  });

  it("holds the element's own attributes: the rows only the element takes", () => {
    const own = paramsOf('element').filter((n) => !(PARAMS[n].pages as readonly string[]).includes('embed'));
    expect([...OWN_ATTRS].sort()).toEqual(own.sort());
  });

  it('knows every scene by its registry id', () => {
    for (const s of SCENES) expect(readParams(`?scene=${s.id}`, 'embed').values.scene).toBe(s.id);
  });
});

describe('"Embed this" frame heights', () => {
  it("gives ZooKeeper's chart, with its watch panel, a taller frame than the others'", () => {
    const chart = SCENES.find((s) => s.id === 'metric-line')!;
    const heightOf = (algorithm: string) =>
      chart.embedHeightFor!(normalizeExperiment({ algorithm } as ExperimentInput));
    expect(heightOf('zookeeper')).toBe(820);
    for (const algorithm of ['raft', 'k8s-lease', 'etcd-election', 'redis-sentinel'])
      expect(heightOf(algorithm), algorithm).toBe(chart.embedHeightPx);
    const { iframe } = embedSnippets(chart, 'r', DEFAULT_CHOICES, 'https://example.org/lab/', 820);
    expect(iframe).toContain('width="100%" height="820"');
    expect(embedSnippets(chart, 'r', DEFAULT_CHOICES, 'https://example.org/lab/').iframe).toContain(
      `height="${chart.embedHeightPx}"`,
    );
  });
});

describe('queryFor', () => {
  it('keeps only what the lab takes, as the lab can read it', () => {
    expect(
      queryFor(
        '?scene=chain&scenario=gc-pause-long&step=3&autoplay=0&controls=minimal&id=les-1&theme=neon',
        'lab',
      ),
    ).toBe('?scenario=gc-pause-long&step=3');
    expect(queryFor('?scene=chain', 'lab')).toBe('');
  });
});

describe("the element's reserved heights and frame titles, before its frame loads", () => {
  it("are the scenes' own, by every name the embed takes", () => {
    expect(SCENE_EMBEDS).toEqual(Object.fromEntries(SCENES.map((s) => [s.id, [s.title, s.embedHeightPx]])));
    expect(SCENE_ALIASES).toEqual(Object.fromEntries(SCENES.flatMap((s) => s.aliases.map((a) => [a, s.id]))));
    expect(CAPTION_PX).toBe(EMBED_CAPTION_PX);
    for (const s of SCENES)
      for (const name of [s.id, ...s.aliases, s.id.toUpperCase()]) {
        expect(reservedPx(name, false)).toBe(s.embedHeightPx);
        expect(reservedPx(name, true)).toBe(s.embedHeightPx + EMBED_CAPTION_PX);
      }
    expect(reservedPx('constructor', false)).toBe(sceneById('cluster').embedHeightPx);
  });

  it('name the scene by its title and the game day by its id, until the frame names its game day by title', () => {
    expect(frameTitle('chain', 'gc-pause-long')).toBe(
      'Leader Election Lab: Fencing chain, game day gc-pause-long',
    );
    expect(frameTitle('CHART', null)).toBe('Leader Election Lab: leader_count chart');
    expect(frameTitle(null, null)).toBe('Leader Election Lab: Cluster stage');
    expect(frameTitle('constructor', '')).toBe('Leader Election Lab: Cluster stage');
  });
});

describe('"Embed this" with the theme of the docs page', () => {
  it('gives the element theme="inherit" and leaves the iframe to the system', () => {
    const chain = SCENES.find((s) => s.id === 'chain')!;
    const { iframe, element } = embedSnippets(
      chain,
      'r',
      { ...DEFAULT_CHOICES, theme: 'inherit' },
      'https://example.org/lab/',
    );
    expect(element).toContain('theme="inherit"');
    expect(iframe).not.toContain('theme=');
  });
});
