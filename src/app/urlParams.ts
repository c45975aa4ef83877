// Reads the page's URL parameters. A bad value never breaks the page: it is reported by name
// and replaced by its default.
import type { ExperimentInput } from '../engine';
import { clampSpeed } from '../store/labStore';
import { findScenario, scenarioProblem } from '../scenario/catalog';
import type { Scenario } from '../scenario/types';
import type { RecordedCommand } from '../store/labEngine';
import { decodeRun } from './share';

export interface PageParams {
  experiment: ExperimentInput;
  scenario: Scenario | null;
  /** Zero-based step to open in guided mode. */
  step: number;
  /** From a shared run link: the recorded commands and the moment to open at. */
  commands: readonly RecordedCommand[];
  atMs: number;
  /** True when the link carried a run that could not be read. */
  badRun: boolean;
  /** Presentation mode: full screen, large type, keyboard-driven. */
  present: boolean;
  speed: number;
  playing: boolean;
  problems: string[];
}

export const PAGE_DEFAULTS: ExperimentInput = {
  seed: 1,
  nodes: 5,
  // Slower than the engine's default network so messages can be seen travelling at 1x.
  network: { delayMsMin: 60, delayMsMax: 180 },
};

function intParam(
  q: URLSearchParams,
  name: string,
  min: number,
  max: number,
  problems: string[],
): number | undefined {
  const raw = q.get(name);
  if (raw === null) return undefined;
  const v = Number(raw);
  if (!Number.isInteger(v) || v < min || v > max) {
    problems.push(`"${name}" must be a whole number from ${min} to ${max} (got "${raw}")`);
    return undefined;
  }
  return v;
}

/**
 * A parameter that was well-formed but had no effect still gets a word: the page must never
 * quietly show something other than what the link asked for.
 */
function noteIgnored(q: URLSearchParams, names: readonly string[], why: string, problems: string[]): void {
  for (const name of names) {
    if (q.has(name) && !problems.some((p) => p.includes(`"${name}"`)))
      problems.push(`"${name}" was ignored: ${why}`);
  }
}

const SETUP_PARAMS = ['seed', 'nodes', 'clients', 'witness'] as const;

export function readPageParams(search: string): PageParams {
  const q = new URLSearchParams(search);
  const problems: string[] = [];
  const experiment: ExperimentInput = structuredClone(PAGE_DEFAULTS);
  const seed = intParam(q, 'seed', 0, 4294967295, problems);
  if (seed !== undefined) experiment.seed = seed;
  const nodes = intParam(q, 'nodes', 1, 9, problems);
  if (nodes !== undefined) experiment.nodes = nodes;
  const clients = intParam(q, 'clients', 0, 2000, problems);
  if (clients !== undefined) experiment.workload = { clients };
  if (q.has('witness')) experiment.witness = q.get('witness') !== '0';
  let speed = 1;
  const rawSpeed = q.get('speed');
  if (rawSpeed !== null) {
    const v = Number(rawSpeed);
    if (!Number.isFinite(v) || v <= 0) problems.push(`"speed" must be a positive number (got "${rawSpeed}")`);
    else speed = clampSpeed(v);
  }
  let scenario: Scenario | null = null;
  let step = 0;
  const id = q.get('scenario');
  if (id !== null) {
    scenario = findScenario(id) ?? null;
    const broken = scenario ? undefined : scenarioProblem(id);
    if (broken)
      problems.push(
        `"scenario" names ${broken.file}, which could not be loaded: ${broken.errors.join('; ')}`,
      );
    else if (!scenario) problems.push(`"scenario" names no known scenario (got "${id}")`);
    else {
      const raw = q.get('step');
      if (raw !== null) {
        const v = Number(raw);
        if (!Number.isInteger(v) || v < 1 || v > scenario.steps.length) {
          problems.push(`"step" must be a whole number from 1 to ${scenario.steps.length} (got "${raw}")`);
        } else step = v - 1;
      }
    }
  }
  const playing = q.get('paused') === null;
  const present = q.has('present');
  const raw = q.get('run');
  if (raw !== null)
    noteIgnored(q, ['scenario', 'step'], 'a run link opens that run, not a scenario', problems);
  else if (!scenario) noteIgnored(q, ['step'], 'it needs a scenario', problems);
  if (raw !== null) {
    const run = decodeRun(raw);
    if (run.ok) {
      noteIgnored(q, SETUP_PARAMS, 'the run link carries its own setup', problems);
      // A shared moment opens paused on exactly what the sender saw.
      return {
        experiment: run.run.experiment,
        scenario: null,
        step: 0,
        commands: run.run.commands,
        atMs: run.run.atMs,
        badRun: false,
        present,
        speed,
        playing: false,
        problems,
      };
    }
    problems.push(...run.problems);
    return {
      experiment,
      scenario: null,
      step: 0,
      commands: [],
      atMs: 0,
      badRun: true,
      present,
      speed,
      playing,
      problems,
    };
  }
  if (scenario) noteIgnored(q, SETUP_PARAMS, `scenario "${scenario.id}" sets up its own cluster`, problems);
  return {
    experiment: scenario ? scenario.experiment : experiment,
    scenario,
    step,
    commands: [],
    atMs: 0,
    badRun: false,
    present,
    speed,
    playing,
    problems,
  };
}
