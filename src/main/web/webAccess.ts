/**
 * Who may use web mode: only the browser that exchanged the printed sign-in address, and on the
 * socket only that browser's pages of this origin. Checked on every HTTP request and on the
 * WebSocket upgrade, before anything else, in this order:
 *
 *   1. One `Host`, and it must be one of the server's own addresses (400 for two, 421 for another
 *      name: a DNS-rebinding page reaches the port under its own name, and is refused).
 *   2. `Origin`, when the browser sends one (every WebSocket upgrade, every POST), must be the
 *      server's own origin, and `Sec-Fetch-Site` must not say another site made the request (403).
 *   3. The session cookie must be this sign-in's (401). It carries the app's files; it is not
 *      enough for the socket, because a browser hands a cookie to every port of its host
 *      (RFC 6265 §8.5: review W1), so any local server the user visits receives it.
 *   4. The socket also needs the tab key (401): 256 random bits handed to the page in the
 *      sign-in answer's body, kept in the origin's own storage (scoped by scheme, host and
 *      port), and offered in the upgrade's `Sec-WebSocket-Protocol`. No browser sends it
 *      anywhere by itself, so another port, and a process holding a stolen cookie, has nothing
 *      that opens the socket.
 *
 * A sign-in token is 256 random bits, works once, and is the only one outstanding: the first is
 * printed at start, `mintSignInToken` makes a new one (for `ledger serve --token`) and the older
 * unused one stops working. Exchanging one starts a new sign-in (a new cookie and tab key) and
 * ends the one before, so one browser at a time holds web mode.
 *
 * No CORS header is ever sent. Pure logic on header values; webServer.ts applies it.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hostHeaderCount, splitHost } from '../../shared/security/localServerGuard.ts';
import { TAB_KEY_PROTOCOL_PREFIX } from '../../shared/ipc/webSocketProtocol.ts';

const SESSION_COOKIE = 'ledgerdesk_session';
/** The query parameter of the printed address that carries the token. */
export const TOKEN_PARAMETER = 'token';

export type AccessVerdict = { allowed: true } | { allowed: false; status: 400 | 401 | 403 | 421 };

export interface RequestHeaders {
  host?: string | undefined;
  origin?: string | undefined;
  cookie?: string | undefined;
  'sec-fetch-site'?: string | string[] | undefined;
  'sec-websocket-protocol'?: string | undefined;
}

export interface WebAccessOptions {
  /** The server's own `host:port` forms (e.g. `127.0.0.1:5123`), lower case. */
  hosts: readonly string[];
  /** The origin the page is served from, e.g. `http://127.0.0.1:5123`. */
  origin: string;
  /** Served over TLS: the cookie is `Secure` (W3). */
  secure?: boolean;
  /** Random bytes (tests pass their own, to know the first token). */
  random?: (size: number) => Buffer;
}

/** One browser's sign-in: its session cookie and its tab key. */
export interface SignIn {
  id: number;
  /** The Set-Cookie header value for the session. */
  cookieHeader: string;
  /** The tab key the page keeps in its origin's storage and offers on the socket. */
  tabKey: string;
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

/** The subprotocols an upgrade offers (`Sec-WebSocket-Protocol`, comma-separated). */
export function offeredProtocols(header: string | undefined): string[] {
  if (header === undefined) return [];
  return header
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

interface Session {
  id: number;
  cookie: Buffer;
  tabKey: Buffer;
}

export class WebAccess {
  readonly #hosts: ReadonlySet<string>;
  readonly #origin: string;
  readonly #secure: boolean;
  readonly #random: (size: number) => Buffer;
  /** The one sign-in token outstanding; null once spent (until a new one is minted). */
  #token: Buffer | null;
  #session: Session | null = null;
  #nextSession = 1;
  readonly #signInListeners: ((signIn: SignIn) => void)[] = [];

  constructor(options: WebAccessOptions) {
    this.#hosts = new Set(options.hosts.map((host) => host.toLowerCase()));
    this.#origin = options.origin;
    this.#secure = options.secure ?? false;
    this.#random = options.random ?? randomBytes;
    this.#token = this.#random(32);
  }

  /**
   * The first sign-in token, as it appears in the printed address (shown once, by the caller,
   * on its first line); empty once it was spent or replaced.
   */
  get token(): string {
    return this.#token?.toString('base64url') ?? '';
  }

  get origin(): string {
    return this.#origin;
  }

  /**
   * A new one-time sign-in token, for a browser that lost its sign-in (closed, or another
   * browser): the token not yet used, if any, stops working. The browser signed in now keeps
   * working until the new token is exchanged.
   */
  mintSignInToken(): string {
    this.#token = this.#random(32);
    return this.#token.toString('base64url');
  }

  /** Called with each new sign-in: the sockets of the one before are closed (webShell.ts). */
  onSignIn(listener: (signIn: SignIn) => void): void {
    this.#signInListeners.push(listener);
  }

  /** The sign-in a socket belongs to now, or null when nobody is signed in. */
  get currentSignIn(): number | null {
    return this.#session?.id ?? null;
  }

  /** Step 1 and 2: one Host, ours, and the request was not made by another site's page. */
  checkAddress(headers: RequestHeaders, rawHeaders?: readonly string[]): AccessVerdict {
    if (rawHeaders !== undefined && hostHeaderCount(rawHeaders) > 1) return { allowed: false, status: 400 };
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

  /** Steps 1 to 3: the app's files (and every other HTTP request but the sign-in) need this. */
  check(headers: RequestHeaders, rawHeaders?: readonly string[]): AccessVerdict {
    const address = this.checkAddress(headers, rawHeaders);
    if (!address.allowed) return address;
    const cookie = cookieValue(headers.cookie, SESSION_COOKIE);
    if (this.#session === null || cookie === null || !sameSecret(cookie, this.#session.cookie)) {
      return { allowed: false, status: 401 };
    }
    return { allowed: true };
  }

  /** Whether `tabKey` is the current sign-in's tab key (with its cookie already checked). */
  holdsTabKey(tabKey: string | undefined): boolean {
    return this.#session !== null && tabKey !== undefined && sameSecret(tabKey, this.#session.tabKey);
  }

  /**
   * Steps 1 to 4, for the socket's upgrade: the cookie and the tab key offered as a subprotocol.
   * The sign-in it belongs to, so its sockets can be closed when another sign-in replaces it.
   */
  checkSocket(
    headers: RequestHeaders,
    rawHeaders?: readonly string[],
  ): { allowed: true; signIn: number } | { allowed: false; status: 400 | 401 | 403 | 421 } {
    const verdict = this.check(headers, rawHeaders);
    if (!verdict.allowed) return verdict;
    const offered = offeredProtocols(headers['sec-websocket-protocol']).find((protocol) =>
      protocol.startsWith(TAB_KEY_PROTOCOL_PREFIX),
    );
    const session = this.#session;
    if (session === null || !this.holdsTabKey(offered?.slice(TAB_KEY_PROTOCOL_PREFIX.length))) {
      return { allowed: false, status: 401 };
    }
    return { allowed: true, signIn: session.id };
  }

  /**
   * The printed address's token, exchanged for a new sign-in (cookie and tab key): the sign-in
   * the first time the right token is given, null after that and for any other value. The sign-in
   * before it ends.
   */
  exchange(token: string | null): SignIn | null {
    if (token === null || this.#token === null || !sameSecret(token, this.#token)) return null;
    this.#token = null;
    const session: Session = { id: this.#nextSession, cookie: this.#random(32), tabKey: this.#random(32) };
    this.#nextSession += 1;
    this.#session = session;
    const signIn: SignIn = {
      id: session.id,
      cookieHeader: this.#cookieHeader(session),
      tabKey: session.tabKey.toString('base64url'),
    };
    for (const listener of this.#signInListeners) listener(signIn);
    return signIn;
  }

  /** HttpOnly, SameSite=Strict, the whole origin; Secure over TLS. A session cookie: gone with the browser. */
  #cookieHeader(session: Session): string {
    const secure = this.#secure ? '; Secure' : '';
    return `${SESSION_COOKIE}=${session.cookie.toString('base64url')}; Path=/; HttpOnly; SameSite=Strict${secure}`;
  }
}
