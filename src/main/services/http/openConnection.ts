/**
 * One connection to a destination, ready for HTTP: a TCP socket straight to it, or a CONNECT
 * tunnel through a proxy (with the proxy's Basic login when it has one), then TLS for https://
 * with the trust of trust.ts and the host name checked. Nothing of the request is written
 * before all of this succeeds: the socket is handed to HTTP only then. One timer covers the
 * whole of it (TCP, proxy, TLS), so an address that swallows packets fails in `connectMs`.
 */
import net from 'node:net';
import tls from 'node:tls';
import type { Duplex } from 'node:stream';
import { describeProxy, proxyAddress, type ProxyRoute } from './proxyRoute.ts';
import { NEVER_SENT_CODES, TransportError, UNTRUSTED_CODES } from './transportError.ts';
import type { Trust } from './trust.ts';

export interface Destination {
  protocol: 'http:' | 'https:';
  /** As in a URL: brackets stripped. */
  host: string;
  port: number;
  /** How messages name it: "the bank of Acme (https://api.acme.example)". */
  name: string;
}

/** The most of a proxy's answer head read before giving up on it. */
const PROXY_HEAD_MAX = 16 * 1024;

const HOW_TO_ADD_CA =
  "If your organisation inspects HTTPS traffic (a TLS-inspecting proxy such as Zscaler or Netskope), get its CA certificate as a PEM file from IT and add it to the profile: Settings → Profiles → Edit → CA certificates, or `ledger profile update NAME --ca FILE`. Installing it in the operating system's trust store works too. Ledgerdesk never turns certificate checks off.";

function authority(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${String(port)}`;
}

function codeOf(error: unknown): string | null {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : null;
}

function tcp(host: string, port: number): net.Socket {
  const socket = net.connect({ host, port });
  socket.setNoDelay(true);
  return socket;
}

function connected(socket: net.Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => {
      socket.off('connect', onConnect);
      reject(error);
    };
    const onConnect = (): void => {
      socket.off('error', onError);
      resolve();
    };
    socket.once('error', onError);
    socket.once('connect', onConnect);
  });
}

/** The proxy's answer to CONNECT: its status line and headers; bytes after them are the tunnel's. */
function proxyAnswer(socket: net.Socket): Promise<{ status: number; reason: string; headers: Map<string, string> }> {
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const cleanup = (): void => {
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('end', onEnd);
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const onEnd = (): void => {
      cleanup();
      const error = new Error('the proxy closed the connection without answering') as NodeJS.ErrnoException;
      error.code = 'EPROXY_CLOSED';
      reject(error);
    };
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n\r\n');
      if (end === -1) {
        if (received.length > PROXY_HEAD_MAX) {
          cleanup();
          const error = new Error('the proxy sent an answer too long to be an HTTP header') as NodeJS.ErrnoException;
          error.code = 'EPROXY_GARBLED';
          reject(error);
        }
        return;
      }
      cleanup();
      const lines = received.subarray(0, end).toString('latin1').split('\r\n');
      const statusLine = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(lines[0] ?? '');
      if (statusLine === null) {
        const error = new Error('the proxy answered something that is not HTTP') as NodeJS.ErrnoException;
        error.code = 'EPROXY_GARBLED';
        reject(error);
        return;
      }
      const headers = new Map<string, string>();
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(':');
        if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      const rest = received.subarray(end + 4);
      // A proxy that answered 200 sends nothing more before the tunnel's own bytes.
      if (rest.length > 0) socket.unshift(rest);
      resolve({ status: Number(statusLine[1]), reason: statusLine[2] ?? '', headers });
    };
    socket.on('data', onData);
    socket.once('error', onError);
    socket.once('end', onEnd);
  });
}

async function tunnel(
  route: Extract<ProxyRoute, { kind: 'proxy' }>,
  destination: Destination,
  track: (socket: net.Socket) => void,
): Promise<net.Socket> {
  const proxyName = describeProxy(route);
  const socket = tcp(route.host, route.port);
  track(socket);
  try {
    await connected(socket);
  } catch (error) {
    const code = codeOf(error);
    throw new TransportError({
      kind: 'proxy-unreachable',
      message: `${capitalised(proxyName)} cannot be reached (${code ?? 'network error'}), so nothing was sent to ${destination.name}.`,
      action:
        route.source === 'explicit'
          ? 'Check the proxy address in the profile (Settings → Profiles → Edit → Network), or ask IT whether the proxy is up.'
          : route.source === 'environment'
            ? 'Check HTTPS_PROXY / HTTP_PROXY (or unset them, or set NO_PROXY for this host), or ask IT whether the proxy is up.'
            : "Check the system's proxy settings, or ask IT whether the proxy is up.",
      code,
      neverSent: true,
    });
  }
  const target = authority(destination.host, destination.port);
  const head = [`CONNECT ${target} HTTP/1.1`, `Host: ${target}`];
  if (route.credentials !== null) {
    const login = Buffer.from(`${route.credentials.user}:${route.credentials.password}`, 'utf8').toString('base64');
    head.push(`Proxy-Authorization: Basic ${login}`);
  }
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  let answer: Awaited<ReturnType<typeof proxyAnswer>>;
  try {
    answer = await proxyAnswer(socket);
  } catch (error) {
    socket.destroy();
    throw new TransportError({
      kind: 'proxy-refused',
      message: `${capitalised(proxyName)} did not open a tunnel to ${destination.name}: ${error instanceof Error ? error.message : String(error)}.`,
      action: 'Ask IT whether this proxy allows CONNECT tunnels (HTTPS) to this address.',
      code: codeOf(error),
      neverSent: true,
    });
  }
  if (answer.status >= 200 && answer.status < 300) return socket;
  socket.destroy();
  throw proxyRefusal(route, destination, answer.status, answer.reason, answer.headers.get('proxy-authenticate'));
}

function proxyRefusal(
  route: Extract<ProxyRoute, { kind: 'proxy' }>,
  destination: Destination,
  status: number,
  reason: string,
  challenge: string | undefined,
): TransportError {
  const proxyName = describeProxy(route);
  const said = `${String(status)}${reason === '' ? '' : ` ${reason}`}`;
  // 407 is the standard answer; some proxies (tinyproxy) answer 401 to a CONNECT that lacks a good login.
  if (status === 407 || status === 401) {
    const scheme = challenge?.split(/\s+/, 1)[0] ?? 'Basic';
    const unsupported = challenge !== undefined && !/^basic$/i.test(scheme);
    if (route.credentials === null) {
      return new TransportError({
        kind: 'proxy-auth-required',
        message: `${capitalised(proxyName)} asks for a login (${said}${unsupported ? `, ${scheme}` : ''}) before it lets anything through to ${destination.name}.`,
        action: unsupported
          ? `This proxy asks for ${scheme} authentication, which Ledgerdesk does not speak (it speaks Basic): ask IT for a Basic login or a proxy that does not need one.`
          : route.source === 'environment'
            ? 'Give its user and password in the proxy URL (HTTPS_PROXY=http://user:password@proxy:port), as curl and npm read it.'
            : 'Enter the proxy user and password in the profile: Settings → Profiles → Edit → Network (or `ledger profile update NAME --proxy-user USER` with the password on standard input).',
        code: String(status),
        neverSent: true,
      });
    }
    return new TransportError({
      kind: 'proxy-auth-refused',
      message: `${capitalised(proxyName)} refused the login of user "${route.credentials.user}" (${said}), so nothing was sent to ${destination.name}.`,
      action: unsupported
        ? `This proxy asks for ${scheme} authentication, which Ledgerdesk does not speak (it speaks Basic): ask IT for a Basic login.`
        : route.source === 'environment'
          ? 'Check the user and password in HTTPS_PROXY / HTTP_PROXY (percent-encode special characters).'
          : 'Check the proxy user and password in the profile: Settings → Profiles → Edit → Network.',
      code: String(status),
      neverSent: true,
    });
  }
  if (status === 502 || status === 503 || status === 504) {
    return new TransportError({
      kind: 'proxy-upstream',
      message: `${capitalised(proxyName)} could not reach ${destination.name} (${said}).`,
      action:
        'The proxy is up but the bank is out of its reach: try later, or ask IT whether the proxy may reach this address.',
      code: String(status),
      neverSent: true,
    });
  }
  return new TransportError({
    kind: 'proxy-refused',
    message: `${capitalised(proxyName)} refused to open a tunnel to ${destination.name} (${said}).`,
    action: `Ask IT to allow CONNECT to ${authority(destination.host, destination.port)} through the proxy, or reach this address without it (NO_PROXY, or the profile's Network setting).`,
    code: String(status),
    neverSent: true,
  });
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function nameOf(entries: Record<string, string | string[] | undefined> | undefined): string {
  if (entries === undefined) return '(none)';
  const parts = Object.entries(entries).flatMap(([key, value]) =>
    value === undefined ? [] : (Array.isArray(value) ? value : [value]).map((item) => `${key}=${item}`),
  );
  return parts.length === 0 ? '(none)' : parts.join(', ');
}

type PresentedCertificate = NonNullable<TransportError['certificate']>;

/**
 * The certificate a server presents, read on a connection of its own that sends nothing and
 * accepts nothing: only to name, in the refusal, what the verified connection refused.
 */
async function presentedCertificate(
  route: ProxyRoute,
  destination: Destination,
  connectMs: number,
): Promise<PresentedCertificate | null> {
  const sockets: net.Socket[] = [];
  const timer = setTimeout(() => {
    for (const socket of sockets) socket.destroy();
  }, connectMs);
  try {
    const raw =
      route.kind === 'proxy'
        ? await tunnel(route, destination, (socket) => sockets.push(socket))
        : tcp(destination.host, destination.port);
    sockets.push(raw);
    if (route.kind === 'direct') await connected(raw);
    // Only for reading the certificate: the socket is closed at once, nothing is ever written on it.
    const probe = tls.connect({
      socket: raw,
      ...(net.isIP(destination.host) === 0 ? { servername: destination.host } : {}),
      rejectUnauthorized: false,
    });
    sockets.push(probe);
    await new Promise<void>((resolve, reject) => {
      probe.once('secureConnect', resolve);
      probe.once('error', reject);
    });
    const certificate = probe.getPeerCertificate();
    probe.destroy();
    if (Object.keys(certificate).length === 0) return null;
    return {
      subject: nameOf(certificate.subject),
      issuer: nameOf(certificate.issuer),
      subjectAltName: certificate.subjectaltname ?? null,
    };
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
    for (const socket of sockets) socket.destroy();
  }
}

async function secured(
  socket: net.Socket,
  route: ProxyRoute,
  destination: Destination,
  trust: Trust,
  connectMs: number,
  track: (socket: net.Socket) => void,
): Promise<tls.TLSSocket> {
  const secure = tls.connect({
    socket,
    secureContext: trust.secureContext,
    ...(net.isIP(destination.host) === 0 ? { servername: destination.host } : {}),
    ALPNProtocols: ['http/1.1'],
  });
  track(secure);
  try {
    await new Promise<void>((resolve, reject) => {
      secure.once('secureConnect', resolve);
      secure.once('error', reject);
    });
    return secure;
  } catch (error) {
    secure.destroy();
    const code = codeOf(error);
    if (code !== null && UNTRUSTED_CODES.has(code)) {
      const certificate = await presentedCertificate(route, destination, connectMs);
      const through = route.kind === 'proxy' ? ` (through ${describeProxy(route)})` : '';
      const presented =
        certificate === null
          ? 'a certificate'
          : `a certificate for "${certificate.subject}" issued by "${certificate.issuer}"`;
      const why =
        code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH'
          ? `that is not for ${destination.host}${certificate === null || certificate.subjectAltName === null ? '' : ` (it names ${certificate.subjectAltName})`}`
          : code === 'CERT_HAS_EXPIRED'
            ? 'that has expired'
            : code === 'CERT_NOT_YET_VALID'
              ? 'that is not valid yet'
              : `that no certificate authority this computer${trust.caFile === null ? '' : ` or the profile's CA bundle (${trust.caFile})`} trusts vouches for`;
      throw new TransportError({
        kind: 'tls-untrusted',
        message: `${capitalised(destination.name)}${through} presented ${presented}, ${why} (${code}), so the connection was refused before anything was sent.`,
        action: HOW_TO_ADD_CA,
        code,
        neverSent: true,
        ...(certificate === null ? {} : { certificate }),
      });
    }
    throw new TransportError({
      kind: 'tls-failed',
      message: `The secure connection to ${destination.name} failed (${error instanceof Error ? error.message : String(error)}).`,
      action:
        'Check that the address is an https:// server; if a proxy is in the way, ask IT whether it inspects this traffic.',
      code,
      neverSent: true,
    });
  }
}

/** Open a connection ready for one HTTP exchange; every failure is a TransportError. */
export async function openConnection(
  destination: Destination,
  route: ProxyRoute,
  /** Asked only for an https:// destination: a plain one never needs the secure context (transport.ts). */
  trust: () => Trust,
  connectMs: number,
): Promise<Duplex> {
  const sockets: net.Socket[] = [];
  const track = (socket: net.Socket): void => {
    sockets.push(socket);
  };
  // An object: the timer's callback sets it, which flow analysis does not follow for a plain let.
  const clock = { timedOut: false };
  const timer = setTimeout(() => {
    clock.timedOut = true;
    const error = new Error(`could not connect within ${String(connectMs)} ms`) as NodeJS.ErrnoException;
    error.code = 'ECONNECT_TIMEOUT';
    for (const socket of sockets) socket.destroy(error);
  }, connectMs);
  timer.unref();
  try {
    let socket: net.Socket;
    if (route.kind === 'proxy') {
      socket = await tunnel(route, destination, track);
    } else {
      socket = tcp(destination.host, destination.port);
      track(socket);
      try {
        await connected(socket);
      } catch (error) {
        const code = codeOf(error);
        throw new TransportError({
          kind: code === 'ECONNECT_TIMEOUT' ? 'connect-timeout' : 'unreachable',
          message:
            code === 'ECONNECT_TIMEOUT'
              ? `${capitalised(destination.name)} did not accept a connection within ${String(connectMs)} ms.`
              : `${capitalised(destination.name)} cannot be reached (${code ?? 'network error'}).`,
          action: 'Check your network connection, then try again.',
          code,
          neverSent: code !== null && NEVER_SENT_CODES.has(code),
        });
      }
    }
    if (destination.protocol === 'http:') return socket;
    return await secured(socket, route, destination, trust(), connectMs, track);
  } catch (error) {
    for (const socket of sockets) socket.destroy();
    // The timer cut short a step that reports the cut as its own failure: said as the timeout it is.
    const cut = !(error instanceof TransportError) || error.kind === 'proxy-refused' || error.kind === 'tls-failed';
    if (clock.timedOut && cut) {
      throw new TransportError({
        kind: 'connect-timeout',
        message:
          route.kind === 'proxy'
            ? `No tunnel to ${destination.name} through ${describeProxy(route)} within ${String(connectMs)} ms.`
            : `${capitalised(destination.name)} did not accept a connection within ${String(connectMs)} ms.`,
        action:
          route.kind === 'proxy'
            ? `Check that the proxy ${proxyAddress(route)} is up and reachable, then try again.`
            : 'Check your network connection, then try again.',
        code: 'ECONNECT_TIMEOUT',
        neverSent: true,
      });
    }
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
