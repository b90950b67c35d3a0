/**
 * Where forwards and replays may go. They carry what the bank sent (and a replay may carry
 * the listener's own Basic secret), and their answer is shown back in the window, so a page
 * or a compromised renderer must not be able to aim them: by default only the listener itself
 * and this machine (loopback). Any other origin must be on the allow-list, which only the
 * user adds to, through a confirmation the main process shows (Listener.allowTarget).
 * Link-local addresses (169.254.0.0/16, fe80::/10: cloud metadata services) are never allowed.
 */

import { isIP } from 'node:net';
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';

export type TargetKind = 'listener' | 'loopback' | 'allowed';

export class TargetRefused extends Error {
  /** The origin refused, as the allow-list would hold it; null when the URL itself is unusable. */
  readonly origin: string | null;
  constructor(message: string, origin: string | null) {
    super(message);
    this.name = 'TargetRefused';
    this.origin = origin;
  }

  get answer(): ContractAnswer {
    return {
      code: 'invalid_input',
      ...(this.origin === null
        ? {}
        : { action: `If ${this.origin} is your own handler, allow it in Settings → Listener defaults.` }),
    };
  }
}

/** The hostname without IPv6 brackets, lower-cased. */
function bareHost(hostname: string): string {
  return hostname.toLowerCase().replace(/^\[|\]$/g, '');
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail allowed), or null. */
function ipv6Groups(address: string): number[] | null {
  if (isIP(address) !== 6) return null;
  let text = address;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1] !== undefined) {
    const bytes = dotted[1].split('.').map(Number);
    const [a = 0, b = 0, c = 0, d = 0] = bytes;
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const part = (chunk: string | undefined): number[] =>
    chunk === undefined || chunk === '' ? [] : chunk.split(':').map((group) => parseInt(group, 16));
  const front = part(head);
  const back = part(tail);
  const groups =
    tail === undefined ? front : [...front, ...Array<number>(8 - front.length - back.length).fill(0), ...back];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff)
    ? groups
    : null;
}

/**
 * The address a host names, normalised (review N7): an IPv4 address as such; an IPv6 address
 * that carries an IPv4 one (IPv4-mapped ::ffff:a.b.c.d, IPv4-compatible ::a.b.c.d, NAT64
 * 64:ff9b::/96, 6to4 2002::/16) as that IPv4 address; any other IPv6 address as its eight
 * groups in hex; a name as itself, lower-cased.
 */
function normalisedHost(hostname: string): string {
  const host = bareHost(hostname);
  if (isIP(host) === 4) return host;
  const groups = ipv6Groups(host);
  if (groups === null) return host;
  const v4 = (high: number, low: number): string =>
    `${String(high >> 8)}.${String(high & 0xff)}.${String(low >> 8)}.${String(low & 0xff)}`;
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = groups;
  const zeroTo = (end: number): boolean => groups.slice(0, end).every((group) => group === 0);
  if (zeroTo(5) && g5 === 0xffff) return v4(g6, g7);
  if (zeroTo(6) && (g6 !== 0 || g7 > 1)) return v4(g6, g7);
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4(g6, g7);
  if (g0 === 0x2002) return v4(g1, g2);
  return groups.map((group) => group.toString(16)).join(':');
}

export function isLoopbackHost(hostname: string): boolean {
  const host = normalisedHost(hostname);
  return host === 'localhost' || host === '0:0:0:0:0:0:0:1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Link-local and metadata addresses, in any spelling (review N7): never a target. */
function isLinkLocal(hostname: string): boolean {
  const host = normalisedHost(hostname);
  return (
    /^169\.254\./.test(host) ||
    host === '100.100.100.200' ||
    /^fe[89ab][0-9a-f]:/.test(host) ||
    host === 'fd00:ec2:0:0:0:0:0:254'
  );
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
  const normalised = normalisedHost(parsed.hostname);
  if (normalised === '0.0.0.0' || normalised === '0:0:0:0:0:0:0:0') {
    throw new TargetRefused(
      `${parsed.origin} is not an address to send to: give the host's own name or address.`,
      null,
    );
  }
  return parsed.origin;
}

/**
 * What `url` is to the listener: itself (the exact address and port it is bound to, review N4:
 * another loopback address at that port may be someone else's server), another loopback
 * address, or an allowed origin. Anything else throws TargetRefused, naming what to do.
 */
export function classifyTarget(
  url: string,
  context: { listenerUrl: string | null; allowedTargets: readonly string[] },
): TargetKind {
  const target = parse(url);
  if (context.listenerUrl !== null) {
    const own = new URL(context.listenerUrl);
    const samePort = (target.port || '80') === (own.port || '80') && target.protocol === own.protocol;
    const sameHost = normalisedHost(target.hostname) === normalisedHost(own.hostname);
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
