// Scenario files are validated like experiments: a bad file is reported by field, never run.
import { z } from 'zod';
import { parseExperiment, type FieldError } from '../engine';
import type { Scenario } from './types';

const metric = z.enum([
  'leaderCount',
  'fencingRejections',
  'staleWritesAccepted',
  'divergentWrites',
  'clientRedirects',
  'leaderTransitions',
  'maxTokenSeen',
  'violations',
  'failovers',
]);
const eventType = z.enum(['fault', 'campaign', 'elected', 'steppedDown', 'write', 'clientWrite', 'ready', 'violation']);

const condition = z.union([
  z.object({ atMs: z.number().int().min(0) }).strict(),
  z.object({ afterMs: z.number().int().min(0) }).strict(),
  z
    .object({ event: eventType, where: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional() })
    .strict(),
  z.object({ metric, op: z.enum(['>=', '<=', '==', '>', '<']), value: z.number() }).strict(),
]);

export const scenarioSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9-]+$/, 'use lowercase letters, digits and dashes'),
    title: z.string().min(1),
    description: z.string().min(1).max(200),
    teaches: z.string().min(1),
    experiment: z.unknown(),
    steps: z
      .array(
        z
          .object({
            caption: z.string().min(1),
            watch: z
              .object({
                view: z.enum(['cluster', 'chain', 'metric', 'storage', 'log', 'failover', 'banner']),
                element: z.string().optional(),
              })
              .strict()
              .optional(),
            until: condition.optional(),
            timeoutMs: z.number().int().min(1).optional(),
          })
          .strict(),
      )
      .min(1),
  })
  .strict();

export function parseScenario(input: unknown): { ok: true; scenario: Scenario } | { ok: false; errors: FieldError[] } {
  const r = scenarioSchema.safeParse(input);
  if (!r.success) {
    return { ok: false, errors: r.error.issues.map((i) => ({ field: i.path.join('.') || '(root)', message: i.message })) };
  }
  const e = parseExperiment(r.data.experiment);
  if (!e.ok) return { ok: false, errors: e.errors.map((x) => ({ field: `experiment.${x.field}`, message: x.message })) };
  return { ok: true, scenario: r.data as Scenario };
}
