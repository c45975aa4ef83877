// The groups the game-day picker lists its game days under: the lesson's five "Check yourself" questions (in
// the Learn tab's words), then the election algorithms beside the Lease, then incidents seen in the wild.
// Each game day names its group in its own file (`group`), so a new one is placed where it is written.
export const GAME_DAY_GROUPS = [
  { id: 'split-brain', title: 'What is split brain, and why does a quorum requirement prevent it?' },
  { id: 'fencing', title: "Why aren't quorums alone sufficient? What else do you need?" },
  { id: 'failover-time', title: 'How long does failover actually take, and what dominates it?' },
  { id: 'odd-sizes', title: 'Why do coordination clusters use odd numbers of nodes?' },
  { id: 'no-leader', title: 'When can you avoid leader election entirely, and why is that better?' },
  { id: 'algorithms', title: 'Algorithms' },
  { id: 'in-the-wild', title: 'Seen in the wild' },
] as const;

export type GameDayGroup = (typeof GAME_DAY_GROUPS)[number]['id'];

export const GROUP_IDS = GAME_DAY_GROUPS.map((g) => g.id) as [GameDayGroup, ...GameDayGroup[]];

export function groupTitle(id: GameDayGroup): string {
  return GAME_DAY_GROUPS.find((g) => g.id === id)!.title;
}
