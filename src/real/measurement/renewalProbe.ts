// `npm run fidelity:renewals`: how long a lease renewal waits across etcd's own raft failover, on a bare
// 3-member cluster (no candidates, no proxies: etcd alone). Each member keeps one lease alive through its
// JSON gateway, one keep-alive at a time every TTL/3 (as the lab's candidates do); each trial kills the raft
// leader with SIGKILL at a random point of that cycle, polls the others for the next leader, then prints
// every renewal around it: when sent and answered, relative to the kill and to the new leader first seen. The
// simulator's etcd models this (docs/fidelity.md, "A renewal held over etcd's raft election").
import { spawn, type ChildProcess } from 'node:child_process';
import type { Agent } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findEtcd, INSTALL_HINT } from '../cluster/etcdBinary';
import { etcdArgs } from '../cluster/etcdCluster';
import { keepAliveAgent, postJson } from '../candidate/jsonHttp';
import { freePorts } from '../cluster/ports';
import { sleep } from './waits';
import { exitWith } from '../cluster/terminal';

interface Member {
  name: string;
  client: number;
  peer: number;
  proc: ChildProcess | null;
  id: string;
  lease: string;
}

interface Renewal {
  member: string;
  sentMs: number;
  answeredMs: number | null;
  failedMs: number | null;
}

const TTL_S = 5;
const EVERY_MS = Math.floor((TTL_S * 1000) / 3);

const USAGE = 'usage: npm run fidelity:renewals -- [trials (default 8)]';

async function main(): Promise<number> {
  const arg = process.argv[2];
  const trials = arg === undefined ? 8 : Number(arg);
  if (!Number.isInteger(trials) || trials < 1 || trials > 100) {
    process.stderr.write(`trials: a whole number from 1 to 100, not "${arg}"\n${USAGE}\n`);
    return 2;
  }
  const etcd = findEtcd();
  if (!etcd) {
    process.stderr.write(`${INSTALL_HINT}\n`);
    return 1;
  }
  const dir = mkdtempSync(join(tmpdir(), 'lel-renewals-'));
  const ports = await freePorts(6);
  const t0 = Date.now();
  const now = () => Date.now() - t0;
  const members: Member[] = [0, 1, 2].map((i) => ({
    name: `m${i + 1}`,
    client: ports[i],
    peer: ports[3 + i],
    proc: null,
    id: '',
    lease: '',
  }));
  const peerUrl = (m: Member) => `http://127.0.0.1:${m.peer}`;
  const cluster = {
    members: members.map((m) => ({ name: m.name, peerUrl: peerUrl(m) })),
    heartbeatMs: 100,
    electionMs: 1000,
    preVote: true,
  };
  const start = (m: Member) => {
    const self = { name: m.name, peerUrl: peerUrl(m), clientPort: m.client, peerPort: m.peer };
    const args = etcdArgs({ ...self, dataDir: join(dir, m.name) }, cluster, 'renewal-probe');
    m.proc = spawn(etcd, args, { stdio: 'ignore' });
  };
  // The candidates' own HTTP client: one keep-alive agent per member.
  const agents = new Map(members.map((m) => [m.name, keepAliveAgent()]));
  const post = <T>(m: Member, path: string, body: unknown, timeoutMs: number): Promise<T> =>
    postJson<T>({ port: m.client, agent: agents.get(m.name) as Agent }, path, body, timeoutMs);
  /** The raft leader as the live members report it, or null while they have none. */
  const leaderOf = async (): Promise<Member | null> => {
    let leader = '';
    for (const m of members) {
      try {
        const s = await post<{ header: { member_id: string }; leader?: string }>(
          m,
          '/v3/maintenance/status',
          {},
          300,
        );
        m.id = s.header.member_id;
        if (s.leader) leader = s.leader;
      } catch {
        // A dead member does not answer.
      }
    }
    return members.find((m) => m.id === leader) ?? null;
  };

  let stopping = false;
  const renewals: Renewal[] = [];
  // Ctrl-C: end the members this probe started (by their PIDs), then exit.
  process.once('SIGINT', () => {
    for (const m of members) m.proc?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    process.exit(130);
  });
  try {
    for (const m of members) start(m);
    // A leader, and every member answering on its client port (one may elect before another listens).
    for (let i = 0; !(await leaderOf()) || members.some((m) => m.id === ''); i++) {
      if (i > 100) throw new Error('the cluster was not up with a leader in 20 s');
      await sleep(200);
    }
    for (const m of members) {
      m.lease = (await post<{ ID: string }>(m, '/v3/lease/grant', { TTL: TTL_S }, 5000)).ID;
      void (async () => {
        while (!stopping) {
          const r: Renewal = { member: m.name, sentMs: now(), answeredMs: null, failedMs: null };
          renewals.push(r);
          try {
            await post(m, '/v3/lease/keepalive', { ID: m.lease }, 7000);
            r.answeredMs = now();
            await sleep(EVERY_MS);
          } catch {
            r.failedMs = now();
            await sleep(500);
          }
        }
      })();
    }
    await sleep(3000);
    process.stdout.write(
      `etcd at 100/1000 ms, pre-vote on; one lease per member, TTL ${TTL_S} s, a keep-alive every ${EVERY_MS} ms after the last answer\n`,
    );
    const held: number[] = [];
    for (let t = 1; t <= trials; t++) {
      await sleep(Math.floor(Math.random() * EVERY_MS));
      const old = await leaderOf();
      if (!old) throw new Error('no raft leader before the kill');
      const killedAt = now();
      old.proc?.kill('SIGKILL');
      let next: Member | null = null;
      while (!next || next === old) {
        await sleep(10);
        next = await leaderOf();
        if (now() - killedAt > 10_000) throw new Error('no new raft leader within 10 s of the kill');
      }
      const seenAt = now();
      await sleep(4500);
      process.stdout.write(
        `\ntrial ${t}: killed ${old.name}; ${next.name} seen leading ${seenAt - killedAt} ms after the kill\n`,
      );
      for (const r of renewals) {
        const end = r.answeredMs ?? r.failedMs;
        if (r.member === old.name || end === null || end < killedAt || r.sentMs > killedAt + 4500) continue;
        const heldOver = r.sentMs < seenAt && r.answeredMs !== null && r.answeredMs > seenAt;
        if (heldOver) held.push((r.answeredMs as number) - seenAt);
        process.stdout.write(
          `  ${r.member}${r.member === next.name ? ' (new leader)' : '              '} sent ${r.sentMs - killedAt} ms, ` +
            (r.answeredMs !== null
              ? `answered ${r.answeredMs - killedAt} ms (${r.answeredMs - seenAt} ms after the new leader was seen)`
              : `failed ${end - killedAt} ms`) +
            (heldOver ? ', held over the election' : '') +
            '\n',
        );
      }
      start(old);
      await sleep(3000);
    }
    held.sort((a, b) => a - b);
    process.stdout.write(
      held.length
        ? `\n${held.length} renewals held over an election, answered ${held[0]}-${held[held.length - 1]} ms after the new leader was seen (polled every 10 ms or so)\n`
        : '\nno renewal was held over an election in these trials\n',
    );
    return 0;
  } finally {
    stopping = true;
    for (const m of members) m.proc?.kill('SIGKILL');
    for (const a of agents.values()) a.destroy();
    await sleep(200);
    rmSync(dir, { recursive: true, force: true });
  }
}

exitWith(main);
