// What a link asks the lab or an embed to show (setup, game day at a step, or shared run at a moment; speed;
// options), via params.ts. A bad value never breaks the page: it is named, as typed, with what was used.
import { algorithmFor, loadAlgorithm, RAFT_PRESETS, type ExperimentInput } from '../engine';
import type { Scenario } from '../scenario/types';
import type { RecordedCommand } from '../store/backend';
import {
  readParams,
  RUN_PARAMS,
  SETUP_PARAMS,
  setupOf,
  quote,
  type ParamName,
  type ReadParams,
} from './params';
import { SCENES, type SceneId } from './scenes';
import { CODEC_MISSING, codecLoaded, loadCodec } from './codec';

export interface RunParams {
  experiment: ExperimentInput;
  scenario: Scenario | null;
  /** Zero-based step to open in guided mode. */
  step: number;
  /** From a shared run link: the recorded commands and the moment to open at. */
  commands: readonly RecordedCommand[];
  atMs: number;
  /** True when the link carried a run that could not be read. */
  badRun: boolean;
  speed: number;
  problems: string[];
}

export interface PageParams extends RunParams {
  /** Presentation mode: full screen, large type, keyboard-driven. */
  present: boolean;
  playing: boolean;
  /** A theme the link asks for, over the reader's own choice; null when it asks for none. */
  theme: 'light' | 'dark' | 'system' | null;
}

export interface EmbedParams extends RunParams {
  scene: SceneId;
  controls: 'minimal' | 'none';
  theme: 'light' | 'dark' | 'system';
  playing: boolean;
  /** Identifies this embed to its host page (for height messages). */
  id: string | null;
}

export const PAGE_DEFAULTS: ExperimentInput = {
  seed: 1,
  nodes: 5,
  // Raft at etcd's own speed elects within a second; the teaching preset lets a learner watch it.
  raft: { ...RAFT_PRESETS.teaching },
  // Slower than the engine's default network so messages can be seen travelling at 1x.
  network: { delayMsMin: 60, delayMsMax: 180 },
};

/**
 * The lab's opening for a link asking no run: the card's mechanism, Kubernetes' Lease at its 15/10/2 s
 * defaults, on the page's network. Links naming any setup, and embeds, keep the default (Raft).
 */
export const FIRST_SCREEN: ExperimentInput = (() => {
  const { raft: _raft, ...rest } = PAGE_DEFAULTS;
  return { ...rest, algorithm: 'k8s-lease' };
})();

/** Whether a lab link asks for a run of its own (any setup, game day or run parameter, readable or not). */
export function asksForRun(read: ReadParams): boolean {
  return RUN_PARAMS.some((name) => read.given.has(name));
}

/** The link's setup on the page's defaults; a witness under an algorithm without one is said and dropped. */
function pageSetup(read: ReadParams, problems: string[], base = PAGE_DEFAULTS): ExperimentInput {
  const e = setupOf(read.values, base);
  const alg = algorithmFor(e.algorithm);
  if (e.witness !== undefined && !alg.settings.includes('witness')) {
    if (e.witness) problems.push(`"witness" means nothing under the ${alg.title} algorithm: ignored`);
    delete e.witness;
  }
  return e;
}

// The catalog loads only for a link naming a game day (loadLinkScenario): free-play embeds never fetch it.
type Catalog = typeof import('../scenario/catalog');
let catalog: Catalog | null = null;

export async function loadCatalog(): Promise<Catalog> {
  return (catalog ??= await import('../scenario/catalog'));
}

// The run-link reader, like the codec it needs, loads only for a `run=` link (loadLinkScenario).
type Share = typeof import('./share');
let share: Share | null = null;

/** Load the run-link reader (and the codec it reads with), once. */
export async function loadRunReader(): Promise<Share> {
  // The codec failing to load is the reader's to say (decodeRun), so it does not fail this.
  [share] = await Promise.all([import('./share'), loadCodec().catch(() => null)]);
  return share;
}

function scenarioOf(id: string, problems: string[]): Scenario | null {
  const scenario = catalog?.findScenario(id) ?? null;
  if (scenario) return scenario;
  const broken = catalog
    ? catalog.scenarioProblem(id)
    : { file: id, errors: ['the list of game days was not loaded'] };
  problems.push(
    broken
      ? `"scenario" names ${broken.file}, which could not be loaded: ${broken.errors.join('; ')}: opened free play`
      : `"scenario" names no known scenario (got ${quote(id)}): opened free play`,
  );
  return null;
}

function readRun(search: string, read: ReadParams, page: 'lab' | 'embed'): RunParams {
  const v = read.values;
  const problems = [...read.notes];
  /** A parameter that was readable but had no effect still gets a word. */
  const ignored = (names: readonly ParamName[], why: string) => {
    for (const name of names)
      if (read.given.has(name) && !problems.some((p) => p.startsWith(`"${name}"`)))
        problems.push(`"${name}" was ignored: ${why}`);
  };
  const runOf = (experiment: ExperimentInput, rest: Partial<RunParams> = {}): RunParams => ({
    experiment,
    scenario: null,
    step: 0,
    commands: [],
    atMs: 0,
    badRun: false,
    speed: v.speed ?? 1,
    problems,
    ...rest,
  });
  if (v.run !== undefined) {
    ignored(['scenario', 'step'], 'a run link opens that run (and its game day, if it had one)');
    const run = share
      ? share.decodeRun(v.run)
      : { ok: false as const, problems: [`"run" could not be read: ${CODEC_MISSING}`] };
    if (run.ok) {
      ignored(SETUP_PARAMS, 'the run link carries its own setup');
      const scenario = run.run.scenario ? scenarioOf(run.run.scenario, problems) : null;
      problems.push(...(run.run.notes ?? []));
      // A retired model's game day opens as the game day is now, under the algorithm that tells its story.
      const retired = run.run.notes !== undefined && scenario !== null;
      return runOf(retired ? scenario.experiment : run.run.experiment, {
        scenario,
        step: scenario ? Math.min(run.run.step ?? 0, scenario.steps.length - 1) : 0,
        commands: run.run.commands,
        atMs: run.run.atMs,
      });
    }
    problems.push(`${run.problems.join('; ')}: opened a new run instead`);
    // The rest of the link still counts: a setup in it is what opens.
    return runOf(pageSetup(read, problems), { badRun: true });
  }
  let scenario: Scenario | null = null;
  let step = 0;
  if (v.scenario !== undefined) {
    scenario = scenarioOf(v.scenario, problems);
    if (scenario) {
      const n = scenario.steps.length;
      if (v.step !== undefined && v.step >= 1 && v.step <= n) step = v.step - 1;
      else if (v.step !== undefined)
        problems.push(
          `"step" must be a whole number from 1 to ${n} (got ${quote(new URLSearchParams(search).get('step') ?? '')}): opened step 1`,
        );
      ignored(SETUP_PARAMS, `scenario "${scenario.id}" sets up its own cluster`);
    }
  }
  if (!scenario)
    ignored(['step'], v.scenario === undefined ? 'it needs a scenario' : 'the scenario was not found');
  const base = page === 'lab' && !asksForRun(read) ? FIRST_SCREEN : PAGE_DEFAULTS;
  return runOf(scenario ? scenario.experiment : pageSetup(read, problems, base), { scenario, step });
}

export function readPageParams(search: string): PageParams {
  const read = readParams(search, 'lab');
  const run = readRun(search, read, 'lab');
  // A shared moment opens paused on exactly what the sender saw.
  const playing = read.values.run !== undefined && !run.badRun ? false : !(read.values.paused ?? false);
  return { ...run, present: read.values.present ?? false, playing, theme: read.values.theme ?? null };
}

export function readEmbedParams(search: string): EmbedParams {
  const read = readParams(search, 'embed');
  const run = readRun(search, read, 'embed');
  const v = read.values;
  // Without controls, nothing on the page could start a scene told not to: it plays, and says so.
  // (A shared moment without controls, left to its default, is a still picture of that moment.)
  const frozen = v.autoplay === false && v.controls === 'none';
  if (frozen)
    run.problems.push(
      '"autoplay" 0 with "controls" none would leave the scene still, with nothing to start it: it plays',
    );
  return {
    ...run,
    scene: (v.scene as SceneId | undefined) ?? SCENES[0].id,
    controls: v.controls ?? 'minimal',
    theme: v.theme ?? 'system',
    // A shared moment opens paused unless the link asks it to play.
    playing: frozen || (v.autoplay ?? run.atMs === 0),
    id: new URLSearchParams(search).get('id'),
  };
}

/**
 * Fetch what a link needs first: its game day (named by `scenario=`, or in a run link once the codec loads)
 * and its algorithm (a chunk each). Never rejects: the link's reading (or the lab) says what failed.
 */
export async function loadLinkScenario(search: string, page: 'lab' | 'embed' = 'lab'): Promise<void> {
  const q = new URLSearchParams(search);
  // A failed fetch of the catalog's own chunk is said when the link is read.
  const load = (id: string) =>
    loadCatalog()
      .then((c) => c.loadScenario(id))
      .catch(() => undefined);
  const named = q.get('scenario')?.toLowerCase();
  const run = q.get('run');
  if (named) await load(named);
  else if (run) {
    const reader = await loadRunReader().catch(() => null);
    if (reader && codecLoaded()) {
      const decoded = reader.decodeRun(run);
      if (decoded.ok && decoded.run.scenario) await load(decoded.run.scenario);
    }
  }
  const { experiment } = readRun(search, readParams(search, page), page);
  // Should the link's algorithm not load (offline), the lab opens the default instead, and says so.
  await loadAlgorithm(experiment.algorithm).catch(() => loadAlgorithm(undefined).catch(() => undefined));
}
