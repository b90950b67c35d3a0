/**
 * One outgoing HTTP request of the listener (a forward or a replay), over the app's one
 * transport (services/http): its status, how long it took, and the start of the answer, never
 * more than an excerpt in memory. A failure to connect (the handler down, a proxy's refusal)
 * is a result too, in its own words, not a throw.
 */
import { performance } from 'node:perf_hooks';
import { directPolicy } from '../http/networkPolicy.ts';
import { sharedTransport } from '../http/sharedTransport.ts';
import type { HttpTransport, NetworkPolicy } from '../http/transport.ts';
import { TransportError } from '../http/transportError.ts';

export interface OutboundRequest {
  url: string;
  method: string;
  headers: [string, string][];
  body: Buffer | null;
  timeoutMs: number;
}

export interface OutboundResult {
  status: number | null;
  durationMs: number;
  excerpt: string | null;
  error: string | null;
}

export const EXCERPT_BYTES = 2048;

/** Headers that belong to one connection, not to the message: never copied onto another. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'host',
  'upgrade',
  'expect',
  'te',
  'trailer',
  'proxy-connection',
  'proxy-authorization',
]);

export function isHopByHop(name: string): boolean {
  return HOP_BY_HOP.has(name.toLowerCase());
}

/**
 * How the listener's outgoing requests travel: the one transport, and the network policy of
 * the listener's bank profile (its proxy and trust) when it has one, else the process's default
 * (`system`/`environment` settings, no login). Forwards to loopback follow the same rules as a
 * bank: through the proxy unless NO_PROXY (or the system's resolver) keeps them direct.
 */
export interface OutboundRoute {
  transport: HttpTransport;
  policy: NetworkPolicy;
}

/** Nothing configured: the shared transport, straight to the address. */
export const DIRECT_OUTBOUND: OutboundRoute = {
  get transport() {
    return sharedTransport();
  },
  policy: directPolicy(),
};

export async function sendOutbound(
  request: OutboundRequest,
  route: OutboundRoute = DIRECT_OUTBOUND,
): Promise<OutboundResult> {
  const started = performance.now();
  const headers: [string, string][] = [];
  for (const [name, value] of request.headers) {
    if (!isHopByHop(name)) headers.push([name, value]);
  }
  let origin = request.url;
  try {
    origin = new URL(request.url).origin;
  } catch {
    // The transport refuses it below, in its own words.
  }
  try {
    // Never followed: a redirect is the handler's answer, shown as it is.
    const answer = await route.transport.send({
      url: request.url,
      method: request.method,
      headers,
      body: request.body === null || request.method === 'GET' || request.method === 'HEAD' ? null : request.body,
      policy: route.policy,
      destinationName: `the address ${origin}`,
      connectMs: Math.min(5_000, request.timeoutMs),
      responseMs: request.timeoutMs,
      maxBytes: EXCERPT_BYTES,
      // Only the start of the answer is kept: the rest is never read into memory.
      overflow: 'truncate',
    });
    return {
      status: answer.status,
      durationMs: performance.now() - started,
      excerpt: answer.body.toString('utf8'),
      error: null,
    };
  } catch (error) {
    const message =
      error instanceof TransportError
        ? error.kind === 'timeout'
          ? `no answer within ${String(request.timeoutMs)} ms`
          : `${error.message}${error.code === null || error.message.includes(error.code) ? '' : ` (${error.code})`}`
        : error instanceof Error
          ? error.message
          : String(error);
    return { status: null, durationMs: performance.now() - started, excerpt: null, error: message };
  }
}
