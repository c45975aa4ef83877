// The game days' index, made from scenes/scenarios at build time (scripts/scenario-index.ts).
declare module 'virtual:scenario-index' {
  const index: { file: string; id: string; title: string; group: string }[];
  export default index;
}
