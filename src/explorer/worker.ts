// The explorer's Web Worker: gives the message host (protocol.ts) postMessage, a clock and a way to yield
// between slices, so the search runs off the main thread and can stop. It loads every algorithm's rules.
import '../engine/algorithms/all';
import { createExplorerHost } from './protocol';

interface WorkerScope {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
}
const scope = self as unknown as WorkerScope;

// A MessageChannel callback runs after queued messages (so "stop" is heard), without setTimeout's 4 ms.
const channel = new MessageChannel();
let pending: (() => void) | null = null;
channel.port1.onmessage = () => {
  const fn = pending;
  pending = null;
  fn?.();
};

const host = createExplorerHost({
  post: (message) => scope.postMessage(message),
  nowMs: () => performance.now(),
  later: (fn) => {
    pending = fn;
    channel.port2.postMessage(null);
  },
});
scope.onmessage = (event) => host.receive(event.data);
