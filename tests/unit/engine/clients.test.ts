// Clients write to the node they believe leads, cached for clientLeaderCacheMs like a DNS record.
// A non-leader rejects with a redirect (followersReject) or silently accepts (a divergent write).
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../../src/engine';
import { eventsOf, leaders } from './harness';

/** Boot 20 clients, cut the leader off at 10 s, run to 60 s. */
function deposeLeader(followersReject: boolean, clientLeaderCacheMs: number) {
  const sim = new Simulation({
    seed: 31,
    safety: { followersReject },
    workload: { clients: 20, clientWriteEveryMs: 1000, clientLeaderCacheMs },
    network: { delayMsMin: 5, delayMsMax: 5 },
  });
  sim.runUntil(10_000);
  const old = leaders(sim)[0].id;
  sim.apply({ do: 'isolate', node: old });
  sim.runUntil(60_000);
  const steppedDownAtMs = eventsOf(sim, 'steppedDown').find((e) => e.node === old)!.atMs;
  const elected = eventsOf(sim, 'elected').find((e) => e.atMs > 10_000)!;
  const toOld = eventsOf(sim, 'clientWrite').filter((e) => e.to === old && e.atMs > steppedDownAtMs);
  return { sim, old, steppedDownAtMs, elected, toOld };
}

describe('clients with followersReject on (reject, not route)', () => {
  for (const ttl of [5000, 30_000]) {
    it(`get a redirect from a deposed leader and reach the new one within a write period (TTL ${ttl} ms)`, () => {
      const { sim, toOld, elected } = deposeLeader(true, ttl);
      // With a 30 s cache every client still names the old leader when it steps down; with 5 s
      // some may have re-resolved first (CheckQuorum deposes it within two election timeouts).
      if (ttl === 30_000) expect(toOld.length).toBeGreaterThan(0);
      expect(toOld.every((e) => e.result === 'redirected')).toBe(true);
      expect(sim.summary().divergentWrites).toBe(0);
      expect(sim.summary().clientRedirects).toBe(toOld.length);
      // Re-resolving on the redirect, nobody waits for its cache to expire.
      expect(Math.max(...toOld.map((e) => e.atMs))).toBeLessThanOrEqual(elected.atMs + 1000 + 5);
      const accepted = eventsOf(sim, 'clientWrite').filter(
        (e) => e.to === elected.node && e.result === 'accepted',
      );
      expect(new Set(accepted.map((e) => e.client)).size).toBe(20);
      // An accepted client write reaches the storage with the leader's token.
      const stored = eventsOf(sim, 'write').filter((w) => w.kind === 'client' && w.node === elected.node);
      // (The last one may still be on its way when the run stops.)
      expect(stored.length).toBeGreaterThanOrEqual(accepted.length - 1);
      expect(stored.length).toBeLessThanOrEqual(accepted.length);
      expect(new Set(stored.map((w) => w.token))).toEqual(new Set([elected.term]));
    });
  }
});

describe('clients with followersReject off', () => {
  it('have their writes silently accepted by a deposed leader: divergent writes', () => {
    const { sim, toOld } = deposeLeader(false, 30_000);
    expect(toOld.length).toBeGreaterThan(0);
    expect(new Set(toOld.map((e) => e.result))).toEqual(new Set(['divergent']));
    expect(sim.summary().divergentWrites).toBe(toOld.length);
    expect(sim.summary().clientRedirects).toBe(0);
  });

  it('keep writing to the deposed leader until their cached answer expires', () => {
    const long = deposeLeader(false, 30_000);
    // Cached at their first write (before 1 s), the records run out just after 30 s: well after
    // a new leader exists, and no later.
    const lastLong = Math.max(...long.toOld.map((e) => e.atMs));
    expect(lastLong).toBeGreaterThan(long.elected.atMs);
    expect(lastLong).toBeLessThanOrEqual(31_000 + 5);

    const short = deposeLeader(false, 5000);
    const lastShort = Math.max(...short.toOld.map((e) => e.atMs));
    expect(lastShort).toBeLessThanOrEqual(short.elected.atMs + 5000 + 5);
    expect(short.toOld.length).toBeLessThan(long.toOld.length);
  });
});
