// The lab store's selectors, at module scope: each computed once and compared by value with the equality
// beside it. Use them with useLab (a value), useLabShallow (an array of plain values) or useLabEqual.
import type { NodeView, Snapshot } from '../engine';
import type { LabActions, LabState } from './labStore';

type State = LabState & LabActions;

/** The leader the lab follows: the snapshot's, by the kernel's one rule (leaderAmong). */
export const selectLeaderId = (s: State): string | null => s.snapshot.leader?.id ?? null;

export const selectNodeIds = (s: State): string[] => s.snapshot.nodes.map((n) => n.id);

export const selectWitnessIds = (s: State): string[] =>
  s.snapshot.nodes.filter((n) => n.witness).map((n) => n.id);

export const selectServiceIds = (s: State): string[] => s.snapshot.services.map((v) => v.id);

export const selectPartition = (s: State): Snapshot['partition'] => s.snapshot.partition;

/** Two partitions with the same groups in the same order (or both healed). */
export function samePartition(a: Snapshot['partition'], b: Snapshot['partition']): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  return a.every((g, i) => g.length === b[i].length && g.every((id, j) => id === b[i][j]));
}

/** The nodes that believe they lead, by epoch (highest first), then node order; two or more: the hazard. */
export function believers(s: Snapshot): NodeView[] {
  return s.nodes.filter((n) => n.alive && n.role === 'leader').sort((a, b) => b.term - a.term);
}

/** Two lists of plain records with the same fields' values, item by item (arrays compared by items). */
export function sameRecords<T extends object>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as Record<string, unknown>;
    const y = b[i] as Record<string, unknown>;
    for (const k of Object.keys(x)) {
      const u = x[k];
      const v = y[k];
      if (Array.isArray(u) && Array.isArray(v)) {
        if (u.length !== v.length || u.some((e, j) => e !== v[j])) return false;
      } else if (u !== v) return false;
    }
  }
  return true;
}
