/**
 * Where forwards and replays may go. They carry what the bank sent (and a replay may carry
 * the listener's own Basic secret), and their answer is shown back in the window, so a page
 * or a compromised renderer must not be able to aim them: by default only the listener itself
 * and this machine (loopback). Any other origin must be on the allow-list, which only the
 * user adds to, through a confirmation the main process shows (Listener.allowTarget).
 * Link-local addresses (169.254.0.0/16, fe80::/10: cloud metadata services) are never allowed.
 */

export type TargetKind = 'listener' | 'loopback' | 'allowed';

export class TargetRefused extends Error {
  /** The origin refused, as the allow-list would hold it; null when the URL itself is unusable. */
  readonly origin: string | null;
  constructor(message: string, origin: string | null) {
    super(message);
    this.name = 'TargetRefused';
    this.origin = origin;
  }
}

/** The hostname without IPv6 brackets, lower-cased. */
function bareHost(hostname: string): string {
  return hostname.toLowerCase().replace(/^\[|\]$/g, '');
}

export function isLoopbackHost(hostname: string): boolean {
  const host = bareHost(hostname);
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

function isLinkLocal(hostname: string): boolean {
  const host = bareHost(hostname);
  return /^169\.254\./.test(host) || /^fe[89ab][0-9a-f]:/.test(host) || /^::ffff:169\.254\./.test(host);
}

function parse(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TargetRefused(`${JSON.stringify(url)} is not a URL: give http://host[:port]/path.`, null);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new TargetRefused(`${JSON.stringify(url)} is not an http:// or https:// URL.`, null);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new TargetRefused(
      'A URL with a user or password in it is refused: it would be kept in clear. Give the URL without them.',
      null,
    );
  }
  if (isLinkLocal(parsed.hostname)) {
    throw new TargetRefused(
      `The address ${parsed.origin} is link-local (where cloud metadata services answer): the listener never sends there.`,
      null,
    );
  }
  return parsed;
}

/** The origin to put on the allow-list for `url`; throws TargetRefused for what can never be allowed. */
export function allowListEntry(url: string): string {
  const parsed = parse(url);
  if (parsed.hostname === '0.0.0.0' || bareHost(parsed.hostname) === '::') {
    throw new TargetRefused(
      `${parsed.origin} is not an address to send to: give the host's own name or address.`,
      null,
    );
  }
  return parsed.origin;
}

/**
 * What `url` is to the listener: itself (same port, on loopback or its own host), another
 * loopback address, or an allowed origin. Anything else throws TargetRefused, naming what to do.
 */
export function classifyTarget(
  url: string,
  context: { listenerUrl: string | null; allowedTargets: readonly string[] },
): TargetKind {
  const target = parse(url);
  if (context.listenerUrl !== null) {
    const own = new URL(context.listenerUrl);
    const samePort = (target.port || '80') === (own.port || '80') && target.protocol === own.protocol;
    const sameHost = isLoopbackHost(target.hostname) || bareHost(target.hostname) === bareHost(own.hostname);
    if (samePort && sameHost) return 'listener';
  }
  if (isLoopbackHost(target.hostname)) return 'loopback';
  if (context.allowedTargets.includes(target.origin)) return 'allowed';
  throw new TargetRefused(
    `The host ${target.origin} is not on the listener's allow-list: forwards and replays go only to the listener ` +
      'itself and to this machine (loopback) unless another host is allowed in Settings → Listener defaults.',
    target.origin,
  );
}
