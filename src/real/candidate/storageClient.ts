// The candidate's side of the fenced storage: one POST per write, with a deadline.
import type { StorageClient } from './candidateCore';
import { keepAliveAgent, postJson, type JsonTarget } from './jsonHttp';

export class HttpStorageClient implements StorageClient {
  private readonly target: JsonTarget;

  constructor(
    port: number,
    private readonly timeoutMs: number,
  ) {
    this.target = { port, agent: keepAliveAgent() };
  }

  write(w: { node: string; token: number; checkedAtMs: number }) {
    return postJson<{ result: 'accepted' | 'rejected'; maxTokenSeen: number }>(
      this.target,
      '/write',
      w,
      this.timeoutMs,
    );
  }
}
