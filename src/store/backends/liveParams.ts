// The lab page in real mode: `?real=http://127.0.0.1:PORT&token=...` (npm run lab:real). The link is checked
// first, and each failure is named on the page: a bridge listens only on loopback, with the run's token.
import type { BridgeCapabilities } from './liveBackend';

export interface RealLink {
  /** The bridge's origin, e.g. http://127.0.0.1:40123 */
  url: string;
  token: string;
}

export type RealLinkErrorName =
  | 'bad real url'
  | 'missing token'
  | 'bad token format'
  | 'bridge unreachable'
  | 'bad token'
  | 'bad origin'
  | 'not a real run';

export class RealLinkError extends Error {
  constructor(
    readonly error: RealLinkErrorName,
    message: string,
  ) {
    super(message);
    this.name = 'RealLinkError';
  }
}

/** base64url, as the bridge makes its tokens (24 random bytes: 32 characters). */
const TOKEN = /^[A-Za-z0-9_-]{16,128}$/;

/** null when the page is not asked for real mode; otherwise the link or why it is unusable. */
export function readRealLink(search: string): RealLink | RealLinkError | null {
  const q = new URLSearchParams(search);
  const real = q.get('real');
  const token = q.get('token');
  if (real === null && token === null) return null;
  const badUrl = (message: string) => new RealLinkError('bad real url', message);
  if (real === null) return badUrl('"token" was given without "real", the bridge\'s URL');
  let u: URL;
  try {
    u = new URL(real);
  } catch {
    return badUrl(`"real" must be the bridge's URL, such as http://127.0.0.1:40123`);
  }
  const loopback = u.hostname === '127.0.0.1' || u.hostname === 'localhost';
  if (
    u.protocol !== 'http:' ||
    !loopback ||
    !u.port ||
    u.pathname !== '/' ||
    u.search ||
    u.hash ||
    u.username
  ) {
    return badUrl(
      `"real" must be http://127.0.0.1:PORT or http://localhost:PORT (a bridge listens only on this machine), not ${real}`,
    );
  }
  if (!token)
    return new RealLinkError(
      'missing token',
      'real mode needs the run\'s "token", as npm run lab:real prints it',
    );
  if (!TOKEN.test(token))
    return new RealLinkError(
      'bad token format',
      '"token" must be the 16 to 128 letters, digits, - and _ the run printed',
    );
  return { url: `http://${u.host}`, token };
}

async function ask(link: RealLink, path: string, fetchFn: typeof fetch): Promise<unknown> {
  let res: Response;
  try {
    res = await fetchFn(`${link.url}${path}`, { headers: { authorization: `Bearer ${link.token}` } });
  } catch {
    throw new RealLinkError(
      'bridge unreachable',
      `nothing answers at ${link.url}: is npm run lab:real still running? (its bridge ends with the run)`,
    );
  }
  const body = (await res.json().catch(() => null)) as { error?: string; message?: string } | null;
  if (res.status === 401)
    throw new RealLinkError('bad token', 'the bridge refused the token: open the link the run printed');
  if (res.status === 403)
    throw new RealLinkError('bad origin', body?.message ?? 'the bridge does not accept this page');
  if (!res.ok || body === null)
    throw new RealLinkError(
      'not a real run',
      `${link.url}${path} answered ${res.status}, not a real run's bridge`,
    );
  return body;
}

/** What the page needs before it can show a real run: what the run can do, and its clock. */
export async function openRealRun(
  link: RealLink,
  fetchFn: typeof fetch = (...a) => fetch(...a),
  now: () => number = () => Date.now(),
): Promise<{ capabilities: BridgeCapabilities; runStartEpochMs: number }> {
  const capabilities = (await ask(link, '/capabilities', fetchFn)) as BridgeCapabilities;
  if (capabilities?.backend !== 'real' || typeof capabilities.settings?.nodes !== 'number')
    throw new RealLinkError('not a real run', `${link.url} does not describe a real run`);
  // The run's clock against this page's: both are this machine's, read half a round trip apart.
  const sentAt = now();
  const state = (await ask(link, '/state', fetchFn)) as { nowMs?: number };
  const mid = (sentAt + now()) / 2;
  if (typeof state.nowMs !== 'number')
    throw new RealLinkError('not a real run', `${link.url}/state has no clock`);
  return { capabilities, runStartEpochMs: mid - state.nowMs };
}
