// An etcd member's ID as etcd computes it for a member of a new cluster (membership.NewMember with no time):
// the first 8 bytes of SHA-1 over its sorted advertised peer URLs and the cluster token, big-endian, as 16
// hex digits (etcd drops leading zeros: compare padded). Known before the members start, the IDs let the peer
// proxies name each connection's sender from its first request, without racing the members' logs.
import { createHash } from 'node:crypto';

export function memberIdHex(peerUrls: string[], clusterToken: string): string {
  const input = [...peerUrls].sort().join('') + clusterToken;
  return createHash('sha1').update(input).digest().subarray(0, 8).toString('hex');
}

/** The gateway's JSON writes IDs as decimal strings (uint64, beyond 2^53); the logs write hex. */
export function decimalIdToHex(decimal: string): string {
  return BigInt(decimal).toString(16).padStart(16, '0');
}
