// An etcd member's ID, computed the way etcd computes it for a member of a new cluster
// (membership.NewMember with no time): the first 8 bytes of SHA-1 over the member's sorted
// advertised peer URLs followed by the cluster token, read big-endian, written here as 16 hex digits
// (etcd itself writes them without leading zeros: compare padded). Knowing the IDs before the members start lets the peer proxies name every
// connection's sender from its first request, with no race against the members' logs.
import { createHash } from 'node:crypto';

export function memberIdHex(peerUrls: string[], clusterToken: string): string {
  const input = [...peerUrls].sort().join('') + clusterToken;
  return createHash('sha1').update(input).digest().subarray(0, 8).toString('hex');
}

/** The gateway's JSON writes IDs as decimal strings (uint64, beyond 2^53); the logs write hex. */
export function decimalIdToHex(decimal: string): string {
  return BigInt(decimal).toString(16).padStart(16, '0');
}
