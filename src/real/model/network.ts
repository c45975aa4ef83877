// Who can reach whom, per the engine's partition model, for a real run's proxies. Hosts in different groups
// cannot reach each other (their members' peer links are cut); the storage, named in a group, is reachable
// only from its hosts, else from all; a candidate may be cut from its member. Hosts in no group form another.

export class NetworkPlan {
  private groups: string[][] | null = null;
  private readonly candidateCut = new Set<string>();

  constructor(private readonly hosts: string[]) {}

  get partition(): string[][] | null {
    return this.groups?.map((g) => [...g]) ?? null;
  }

  get cutCandidates(): string[] {
    return [...this.candidateCut];
  }

  setPartition(groups: string[][]): void {
    const named = new Set(groups.flat());
    const rest = this.hosts.filter((h) => !named.has(h));
    this.groups = rest.length ? [...groups.map((g) => [...g]), rest] : groups.map((g) => [...g]);
  }

  /** The engine's isolate: the host alone, every other group as it was without it. */
  isolate(host: string): void {
    const current = this.groups ?? [[...this.hosts]];
    const others = current.map((g) => g.filter((x) => x !== host)).filter((g) => g.length > 0);
    this.setPartition([[host], ...others]);
  }

  cutCandidate(host: string): void {
    this.candidateCut.add(host);
  }

  heal(): boolean {
    const changed = this.groups !== null || this.candidateCut.size > 0;
    this.groups = null;
    this.candidateCut.clear();
    return changed;
  }

  groupOf(x: string): number {
    if (!this.groups) return 0;
    const i = this.groups.findIndex((g) => g.includes(x));
    return i < 0 ? -1 : i;
  }

  hostsCut(a: string, b: string): boolean {
    return this.groupOf(a) !== this.groupOf(b);
  }

  storageCut(host: string): boolean {
    const s = this.groupOf('storage');
    return s >= 0 && this.groups !== null && this.groupOf(host) !== s;
  }

  etcdLinkCut(host: string): boolean {
    return this.candidateCut.has(host);
  }
}
