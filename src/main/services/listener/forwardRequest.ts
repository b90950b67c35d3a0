/**
 * What a forward sends: the request as the listener received it, so the handler sees what
 * the bank sent. The method, the path and query (under the forward address's own path), the
 * body bytes and every header in order, the bank's Authorization included (a handler that
 * checks Basic auth must see it; targets are only the listener, loopback or origins the user
 * confirmed), minus the headers of the connection (hop-by-hop ones, those the Connection
 * header names, Host), plus the listener's verdict and request id. Headers of those names
 * that arrived with the request are dropped first: a forged post cannot claim `ok`.
 */
import type { Verdict } from './basicAuth.ts';
import { isHopByHop, type OutboundRequest } from './outbound.ts';

const VERDICT_HEADER = 'x-ledgerdesk-verdict';
const REQUEST_HEADER = 'x-ledgerdesk-request';

export interface ReceivedForForward {
  method: string;
  /** The path as received, e.g. `/webhooks/abc`. */
  path: string;
  /** The query as received, without `?`; null when there was none. */
  query: string | null;
  /** Name, value pairs in arrival order, exactly as received. */
  headers: readonly (readonly [string, string])[];
  body: Buffer | null;
}

/**
 * The address a received request is forwarded to: the forward address's path joined with the
 * received path (`/hook` + `/webhooks/abc` → `/hook/webhooks/abc`; a request on `/` goes to
 * `/hook` itself), and the received query after the address's own.
 */
export function forwardUrl(target: string, path: string, query: string | null): string {
  const url = new URL(target);
  const received = path === '' || path === '/' ? '' : path.startsWith('/') ? path : `/${path}`;
  if (received !== '') url.pathname = url.pathname.replace(/\/+$/, '') + received;
  if (query !== null && query !== '') url.search = url.search === '' ? `?${query}` : `${url.search}&${query}`;
  return url.toString();
}

/** The names a Connection header lists: they belong to that connection too (RFC 9110 §7.6.1). */
function connectionOptions(headers: readonly (readonly [string, string])[]): Set<string> {
  const names = new Set<string>();
  for (const [name, value] of headers) {
    if (name.toLowerCase() !== 'connection') continue;
    for (const option of value.split(',')) names.add(option.trim().toLowerCase());
  }
  return names;
}

function forwardedHeaders(
  received: readonly (readonly [string, string])[],
  verdict: Verdict,
  requestId: number,
): [string, string][] {
  const ofConnection = connectionOptions(received);
  const headers: [string, string][] = [];
  for (const [name, value] of received) {
    const lower = name.toLowerCase();
    if (isHopByHop(lower) || lower === 'host' || ofConnection.has(lower)) continue;
    if (lower === VERDICT_HEADER || lower === REQUEST_HEADER) continue;
    headers.push([name, value]);
  }
  headers.push([VERDICT_HEADER, verdict], [REQUEST_HEADER, String(requestId)]);
  return headers;
}

export function forwardRequest(
  received: ReceivedForForward,
  verdict: Verdict,
  requestId: number,
  target: string,
  timeoutMs: number,
): OutboundRequest {
  return {
    url: forwardUrl(target, received.path, received.query),
    method: received.method === '' ? 'POST' : received.method,
    headers: forwardedHeaders(received.headers, verdict, requestId),
    body: received.body,
    timeoutMs,
  };
}

/** Node's rawHeaders (name, value, name, value…) as pairs. */
export function headerPairs(rawHeaders: readonly string[]): [string, string][] {
  const pairs: [string, string][] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    pairs.push([rawHeaders[index] as string, rawHeaders[index + 1] as string]);
  }
  return pairs;
}
