// Real etcd 3.4.23 log lines (zap JSON, captured from clusters the lab started at 20/200 ms)
// to raft events. Each fixture holds the members' stderr through boot, a follower isolated
// for 1 s and healed, and a SIGKILL and restart of the raft leader, with pre-vote on and off.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseEtcdLogLine } from '../../../src/real/cluster/etcdLog';
import type { MemberLeaderEvent, MemberRoleEvent } from '../../../src/real/model/events';
import { memberIdHex } from '../../../src/real/cluster/memberId';

interface Fixture {
  preVote: boolean;
  clusterToken: string;
  peerUrls: Record<string, string>;
  ids: Record<string, string>;
  runStartEpochMs: number;
  logs: Record<string, string[]>;
}

const load = (name: string) =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as Fixture;
const on = load('etcd-3.4-log-prevote-on.json');
const off = load('etcd-3.4-log-prevote-off.json');

function eventsOf(f: Fixture, member: string): (MemberRoleEvent | MemberLeaderEvent)[] {
  const byId = new Map(Object.entries(f.ids).map(([name, id]) => [id, name]));
  const nameOf = (hex: string) => byId.get(hex.padStart(16, '0'));
  return f.logs[member].flatMap(
    (line) => parseEtcdLogLine(line, { member, nameOf, runStartEpochMs: f.runStartEpochMs }) ?? [],
  );
}

const roles = (events: (MemberRoleEvent | MemberLeaderEvent)[]) =>
  events.filter((e): e is MemberRoleEvent => e.type === 'member').map((e) => `${e.role}@${e.term}`);

describe("etcd's log lines to raft events", () => {
  it("computes each member's ID the way etcd does (the fixtures' IDs came from etcd's own list)", () => {
    for (const f of [on, off]) {
      for (const [name, url] of Object.entries(f.peerUrls)) {
        expect(memberIdHex([url], f.clusterToken)).toBe(f.ids[name]);
      }
    }
  });

  it('reads IDs that etcd writes without leading zeros', () => {
    const short = Object.entries(on.ids).find(([, id]) => id.startsWith('0'));
    expect(short).toBeDefined();
    const [name, id] = short!;
    const raw = on.logs[name].find((l) => l.includes(`${id.replace(/^0+/, '')} became`));
    expect(raw).toBeDefined();
    expect(eventsOf(on, name).length).toBeGreaterThan(3);
  });

  it('boot: every member starts a follower, one becomes leader and all follow it at the same term', () => {
    const leaders = Object.keys(on.logs).flatMap((m) =>
      eventsOf(on, m).filter((e) => e.type === 'member' && e.role === 'leader' && e.term === 2),
    );
    expect(leaders).toHaveLength(1);
    const leader = (leaders[0] as MemberRoleEvent).member;
    for (const m of Object.keys(on.logs)) {
      const first = eventsOf(on, m).find((e) => e.type === 'memberLeader' && e.term === 2);
      expect(first).toMatchObject({ type: 'memberLeader', member: m, leader, term: 2 });
    }
  });

  it("pre-vote on: the isolated follower stays a pre-candidate at its term; healing changes no one's term", () => {
    const isolated = Object.keys(on.logs).find(
      (m) => roles(eventsOf(on, m)).filter((r) => r === 'preCandidate@2').length >= 2,
    )!;
    expect(isolated).toBeDefined();
    const seq = roles(eventsOf(on, isolated));
    const start = seq.indexOf('preCandidate@2', seq.indexOf('follower@2'));
    const healed = seq.indexOf('follower@2', start);
    expect(healed).toBeGreaterThan(start);
    expect(seq.slice(start, healed).every((r) => r === 'preCandidate@2')).toBe(true);
    // The next term anywhere is the one the leader's kill started.
    const terms = Object.keys(on.logs).flatMap((m) => eventsOf(on, m).map((e) => e.term));
    expect(Math.max(...terms)).toBe(3);
  });

  it("pre-vote off: the isolated member's term climbs, and on healing it forces a new election", () => {
    const all = Object.keys(off.logs).map((m) => ({ m, seq: roles(eventsOf(off, m)) }));
    const isolated = all.find(({ seq }) => seq.filter((r) => r.startsWith('candidate@')).length >= 2)!;
    expect(isolated).toBeDefined();
    const candidateTerms = isolated.seq
      .filter((r) => r.startsWith('candidate@'))
      .map((r) => Number(r.split('@')[1]));
    expect(candidateTerms[1]).toBeGreaterThan(candidateTerms[0]);
    // The members that stayed together saw their leader deposed by the higher term.
    const others = all.filter((x) => x !== isolated);
    const maxTerm = Math.max(...candidateTerms);
    expect(
      others.some(
        ({ seq }) => seq.includes(`follower@${maxTerm}`) || seq.includes(`follower@${maxTerm - 1}`),
      ),
    ).toBe(true);
  });

  it('pre-vote off: the deposed leader that hears its successor directly "changed leader", and follows it', () => {
    const line = Object.entries(off.logs).flatMap(([m, lines]) =>
      lines.filter((l) => l.includes('changed leader')).map((l) => ({ m, l })),
    );
    expect(line).toHaveLength(1);
    const { m } = line[0];
    const [, , to, term] = /changed leader from (\w+) to (\w+) at term (\d+)/.exec(line[0].l)!;
    const byId = Object.fromEntries(Object.entries(off.ids).map(([n, id]) => [id, n]));
    expect(eventsOf(off, m).filter((e) => e.type === 'memberLeader')).toContainEqual({
      atMs: expect.any(Number),
      type: 'memberLeader',
      member: m,
      leader: byId[to.padStart(16, '0')],
      term: Number(term),
    });
  });

  it('a SIGKILLed raft leader: another member becomes leader at the next term, and the restarted one follows it', () => {
    for (const f of [on, off]) {
      const leaderTerms = Object.keys(f.logs).flatMap((m) =>
        eventsOf(f, m)
          .filter((e): e is MemberRoleEvent => e.type === 'member' && e.role === 'leader')
          .map((e) => ({ m, term: e.term, atMs: e.atMs })),
      );
      leaderTerms.sort((a, b) => a.atMs - b.atMs);
      const last = leaderTerms.at(-1)!;
      const before = leaderTerms.at(-2)!;
      expect(last.m).not.toBe(before.m);
      expect(last.term).toBeGreaterThan(before.term);
      // The killed one logs again after its restart: a follower of the new leader.
      const restarted = eventsOf(f, before.m).filter((e) => e.atMs > last.atMs);
      expect(restarted.at(-1)).toMatchObject({ type: 'memberLeader', leader: last.m, term: last.term });
    }
  });

  it("stamps events with etcd's own time, in ms since the run started", () => {
    const e = eventsOf(on, 'm1')[0];
    const ts = JSON.parse(on.logs.m1.find((l) => l.includes('became'))!).ts as string;
    expect(e.atMs).toBe(Date.parse(ts) - on.runStartEpochMs);
    expect(e.atMs).toBeGreaterThanOrEqual(0);
    expect(e.atMs).toBeLessThan(10_000);
  });

  it('ignores other lines, other members, and text that is not JSON', () => {
    const ctx = { member: 'm1', nameOf: () => 'm2', runStartEpochMs: 0 };
    expect(parseEtcdLogLine('panic: something', ctx)).toBeNull();
    expect(parseEtcdLogLine('{"ts":"2026-01-01T00:00:00.000Z","msg":"peer became active"}', ctx)).toBeNull();
    // A line about another member (the subject is not this log's member) is not this member's role.
    expect(
      parseEtcdLogLine('{"ts":"2026-01-01T00:00:00.000Z","msg":"abc became leader at term 3"}', ctx),
    ).toBeNull();
  });
});
