// What the page says of Kubernetes' Lease (describe.ts), its dial showing client-go's renewal round.
import type { Experiment } from '../../experiment';
import { expiryOf, formatSpan, raftOnly, type AlgorithmPage } from '../describe';
import { settingsFor as section } from '../kit';

/** client-go's renewal round (leaderelection.go `renew`): why the dial's deadline is past RenewDeadline. */
function leaseRound(e: Experiment): string {
  const { renewDeadlineMs: d, retryPeriodMs: r } = section(e, 'lease');
  const tryMs = Math.max(1000, Math.floor(d / 2));
  return (
    `client-go renews in rounds: a round starts ${formatSpan(r)} (RetryPeriod) after the last success and tries every ${formatSpan(r)}; ` +
    `a try times out at ${formatSpan(tryMs)} (RenewDeadline / 2), and the round fails ${formatSpan(d)} (RenewDeadline) after it began, ` +
    `so a silent holder stops about ${formatSpan(r + d)} after its last renewal`
  );
}

export const k8sLeasePage: AlgorithmPage = {
  elect: {
    short: "etcd's quorum commits",
    how: 'the API server writes one Lease object to etcd by compare-and-swap',
  },
  hold: (e) => {
    const { durationMs, retryPeriodMs } = section(e, 'lease');
    return {
      title: 'Leader holds a lease',
      short: 'Lease',
      text: `TTL ${formatSpan(durationMs)}, renew every ${formatSpan(retryPeriodMs)}`,
      ring: true,
      round: leaseRound(e),
    };
  },
  expiry: (e) => {
    const { durationMs, retryPeriodMs } = section(e, 'lease');
    return expiryOf(durationMs, 'lease', `renews its lease every ${formatSpan(retryPeriodMs)}`, 'Lease');
  },
  // client-go's RenewDeadline bounds one renewal round, which is what the latency measures.
  renewLimit: (e) => {
    const { renewDeadlineMs } = section(e, 'lease');
    return { ms: renewDeadlineMs, label: `RenewDeadline ${formatSpan(renewDeadlineMs)}` };
  },
  fenced: "client-go's elector never hears of it, so it acts as leader until its renewal round runs out",
  missing: {
    quorum: 'replicas do not vote: the API server commits the Lease in etcd by a majority, always',
    ...raftOnly('Kubernetes Lease'),
  },
  split:
    'replicas do not vote: only a replica that reaches the API server, with a majority of etcd behind it, can renew or take the Lease',
};
