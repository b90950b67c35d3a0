/**
 * Who may use web mode: only the browser that opened the address the server printed. Checked on
 * every HTTP request and on the WebSocket upgrade, before anything else, in this order:
 *
 *   1. `Host` must be one of the server's own addresses (421, as the listener and the sandbox
 *      answer): a DNS-rebinding page reaches the port under its own name, and is refused.
 *   2. `Origin`, when the browser sends one (every WebSocket upgrade, every POST), must be the
 *      server's own origin, and `Sec-Fetch-Site` must not say another site made the request (403).
 *   3. The session cookie must be there (401, with no detail). The cookie is minted once per run,
 *      when the random 256-bit token of the printed address is exchanged for it; the token then
 *      stops working, so an address left in a history, a log or a screenshot opens nothing.
 *
 * No CORS header is ever sent. Pure logic on header values; webServer.ts applies it.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { splitHost } from '../../shared/security/localServerGuard.ts';

const SESSION_COOKIE = 'ledgerdesk_session';
/** The query parameter of the printed address that carries the token. */
export const TOKEN_PARAMETER = 'token';

export type AccessVerdict = { allowed: true } | { allowed: false; status: 401 | 403 | 421 };

export interface RequestHeaders {
  host?: string | undefined;
  origin?: string | undefined;
  cookie?: string | undefined;
  'sec-fetch-site'?: string | string[] | undefined;
}

export interface WebAccessOptions {
  /** The server's own `host:port` forms (e.g. `127.0.0.1:5123`), lower case. */
  hosts: readonly string[];
  /** The origin the page is served from, e.g. `http://127.0.0.1:5123`. */
  origin: string;
  /** The token's bytes (tests pass their own; the shell makes 32 random ones). */
  token?: Buffer;
  cookie?: Buffer;
}

function sameSecret(given: string, expected: Buffer): boolean {
  const bytes = Buffer.from(given, 'utf8');
  const wanted = Buffer.from(expected.toString('base64url'), 'utf8');
  return bytes.length === wanted.length && timingSafeEqual(bytes, wanted);
}

/** The value of one cookie out of a Cookie header, or null. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (header === undefined) return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    if (part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return null;
}

export class WebAccess {
  readonly #hosts: ReadonlySet<string>;
  readonly #origin: string;
  readonly #token: Buffer;
  readonly #cookie: Buffer;
  #tokenSpent = false;

  constructor(options: WebAccessOptions) {
    this.#hosts = new Set(options.hosts.map((host) => host.toLowerCase()));
    this.#origin = options.origin;
    this.#token = options.token ?? randomBytes(32);
    this.#cookie = options.cookie ?? randomBytes(32);
  }

  /** The token as it appears in the printed address (shown once, by the caller, on its first line). */
  get token(): string {
    return this.#token.toString('base64url');
  }

  get origin(): string {
    return this.#origin;
  }

  /** Steps 1 and 2: the request is addressed to us and was not made by another site's page. */
  checkAddress(headers: RequestHeaders): AccessVerdict {
    const host = headers.host === undefined ? null : splitHost(headers.host);
    if (host === null || host.port === null || !this.#hosts.has(`${host.name}:${String(host.port)}`)) {
      return { allowed: false, status: 421 };
    }
    if (headers.origin !== undefined && headers.origin.toLowerCase() !== this.#origin) {
      return { allowed: false, status: 403 };
    }
    const site = headers['sec-fetch-site'];
    const firstSite = Array.isArray(site) ? site[0] : site;
    if (firstSite !== undefined && firstSite !== 'same-origin' && firstSite !== 'none') {
      return { allowed: false, status: 403 };
    }
    return { allowed: true };
  }

  /** Steps 1 to 3: everything but the token exchange needs this. */
  check(headers: RequestHeaders): AccessVerdict {
    const address = this.checkAddress(headers);
    if (!address.allowed) return address;
    const cookie = cookieValue(headers.cookie, SESSION_COOKIE);
    if (cookie === null || !sameSecret(cookie, this.#cookie)) return { allowed: false, status: 401 };
    return { allowed: true };
  }

  /**
   * The printed address's token, exchanged for the session cookie: true the first time the
   * right token is given, false after that and for any other value.
   */
  exchange(token: string | null): boolean {
    if (token === null || this.#tokenSpent || !sameSecret(token, this.#token)) return false;
    this.#tokenSpent = true;
    return true;
  }

  /** The Set-Cookie header value for the session: HttpOnly, SameSite=Strict, this origin only. */
  sessionCookieHeader(): string {
    return `${SESSION_COOKIE}=${this.#cookie.toString('base64url')}; Path=/; HttpOnly; SameSite=Strict`;
  }
}
