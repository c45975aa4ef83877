// "Split the network": the one rule for the S key and the Split button. Every voter counts, a witness too (it
// votes, never leads): the minority side holds floor(voters / 2), the majority the rest, with the witness,
// whose vote can make the quorum. Two groups, never a third: a node in neither would be cut off from both.
export interface SplitMember {
  id: string;
  witness: boolean;
}

export interface Split {
  minority: string[];
  majority: string[];
}

/** The minority | majority split of these nodes, or null when there are fewer than two voters. */
export function splitMinority(nodes: readonly SplitMember[]): Split | null {
  if (nodes.length < 2) return null;
  // Nodes in ring order, witnesses last: the minority side takes the first ones.
  const ordered = [...nodes.filter((n) => !n.witness), ...nodes.filter((n) => n.witness)];
  const size = Math.floor(ordered.length / 2);
  return {
    minority: ordered.slice(0, size).map((n) => n.id),
    majority: ordered.slice(size).map((n) => n.id),
  };
}

/** "2 | 3": the split's sizes, as its button names it. */
export function splitLabel(split: Split): string {
  return `${split.minority.length} | ${split.majority.length}`;
}
