/**
 * What the two local HTTP servers (the sandbox bank and the webhook listener) check before
 * anything else, so a web page in the user's browser cannot use them:
 *
 * - `Host` must be the server's own address (127.0.0.1:PORT, localhost:PORT, [::1]:PORT, the
 *   host it was bound to, or a name the user allowed, e.g. a tunnel's). A DNS-rebinding page
 *   reaches the loopback port under its own name, so its requests carry that name: 421.
 * - A request a page made carries `Origin` (every cross-origin fetch and every POST) or, for a
 *   subresource such as an image, `Sec-Fetch-Site`; only browsers send either. 403, unless the
 *   origin was configured. Servers and tools (the bank, curl, the app's main process) send neither.
 *
 * Neither server ever sends CORS headers, so even an allowed page cannot read an answer unless
 * it is same-origin. Pure string logic: it runs in the sandbox and in the main process alike.
 */

export interface LocalServerGuardOptions {
  /** The port the server listens on: loopback names are accepted at this port only. */
  port: number;
  /** More names this server has at its own port: the host it was bound to, its interface addresses. */
  hosts?: readonly string[];
  /** Names the user allowed (normalized by `allowedHostEntry`): `name` at any port, `name:port` at that one. */
  allowedHosts?: readonly string[];
  /** Origins the user allowed (normalized by `allowedOriginEntry`). */
  allowedOrigins?: readonly string[];
}

/** The request headers the guard reads (Node lower-cases them). */
export interface GuardedHeaders {
  host?: string | undefined;
  origin?: string | undefined;
  'sec-fetch-site'?: string | string[] | undefined;
}

interface Refusal {
  status: 400 | 421 | 403;
  error: string;
}

/**
 * `rawHeaders` (Node's name/value list) lets the guard see what `headers` folds away: a second
 * Host header, which Node drops (review I5; RFC 9112 §3.2 asks for a 400).
 */
export type LocalServerGuard = (headers: GuardedHeaders, rawHeaders?: readonly string[]) => Refusal | null;

/** How many Host headers a request carries, from Node's raw name/value list. */
export function hostHeaderCount(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) {
    if (rawHeaders[index]?.toLowerCase() === 'host') count += 1;
  }
  return count;
}

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
const HTTP_DEFAULT_PORT = 80;
/** How much of a refused header an error quotes: enough to recognize it, never a flood. */
const QUOTE_MAX = 100;

function quote(value: string): string {
  return JSON.stringify(value.length > QUOTE_MAX ? `${value.slice(0, QUOTE_MAX)}…` : value);
}

/** An address as it appears in a Host header: IPv6 in brackets, names lower-cased. */
function hostNameOf(address: string): string {
  const lower = address.toLowerCase();
  return lower.includes(':') && !lower.startsWith('[') ? `[${lower}]` : lower;
}

/** `name[:port]` out of a Host header, or null when it is not one (raw IPv6, spaces, a bad port). */
export function splitHost(value: string): { name: string; port: number | null } | null {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::([0-9]{1,5}))?$/i.exec(value.trim());
  if (match === null) return null;
  const port = match[2] === undefined ? null : Number(match[2]);
  if (port !== null && (port < 1 || port > 65_535)) return null;
  return { name: (match[1] ?? '').toLowerCase(), port };
}

/** A user's `--allow-host` entry, checked and normalized; throws RangeError with what to type instead. */
export function allowedHostEntry(text: string): string {
  const parts = splitHost(text);
  if (parts === null || text.includes('/')) {
    throw new RangeError(
      `${quote(text)} is not a host name: give a name or address, optionally with :port (e.g. abc.ngrok.app or 192.168.1.5:4880).`,
    );
  }
  return parts.port === null ? parts.name : `${parts.name}:${String(parts.port)}`;
}

/** A user's `--allow-origin` entry (scheme://host[:port]), checked and normalized; throws RangeError. */
export function allowedOriginEntry(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new RangeError(`${quote(text)} is not an origin: give scheme://host[:port], e.g. http://localhost:5173.`);
  }
  const bare = url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '';
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !bare || url.password !== '') {
    throw new RangeError(
      `${quote(text)} is not an origin: give only scheme://host[:port] (http or https, no path), e.g. http://localhost:5173.`,
    );
  }
  return url.origin;
}

function firstOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export function createLocalServerGuard(options: LocalServerGuardOptions): LocalServerGuard {
  const ownPort = options.port;
  const ownNames = new Set([...LOOPBACK_NAMES, ...(options.hosts ?? []).map(hostNameOf)]);
  const anyPort = new Set<string>();
  const exact = new Set<string>();
  for (const entry of options.allowedHosts ?? []) {
    const parts = splitHost(entry);
    if (parts === null) continue;
    if (parts.port === null) anyPort.add(parts.name);
    else exact.add(`${parts.name}:${String(parts.port)}`);
  }
  const origins = new Set(options.allowedOrigins ?? []);
  const portText = String(ownPort);
  const ownAddresses = `127.0.0.1:${portText}, localhost:${portText} or [::1]:${portText}`;

  return (headers, rawHeaders) => {
    if (rawHeaders !== undefined && hostHeaderCount(rawHeaders) > 1) {
      return { status: 400, error: 'The request has more than one Host header.' };
    }
    const host = headers.host;
    const parts = host === undefined ? null : splitHost(host);
    const port = parts?.port ?? HTTP_DEFAULT_PORT;
    const known =
      parts !== null &&
      ((port === ownPort && ownNames.has(parts.name)) ||
        anyPort.has(parts.name) ||
        exact.has(`${parts.name}:${String(port)}`));
    if (!known) {
      return {
        status: 421,
        error:
          host === undefined
            ? `The request has no Host header: address it to ${ownAddresses}.`
            : `This server answers only requests addressed to ${ownAddresses} (or a host allowed with --allow-host), not ${quote(host)}.`,
      };
    }
    const origin = headers.origin;
    if (origin !== undefined) {
      if (origins.has(origin.toLowerCase())) return null;
      return {
        status: 403,
        error: `Requests from web pages are refused: this one comes from the page at ${quote(origin)} (allow an origin with --allow-origin if you mean it).`,
      };
    }
    const site = firstOf(headers['sec-fetch-site']);
    if (site !== undefined && site !== 'none') {
      return {
        status: 403,
        error: `Requests from web pages are refused: this one was made by a page (Sec-Fetch-Site ${quote(site)}).`,
      };
    }
    return null;
  };
}
