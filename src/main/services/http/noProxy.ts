/**
 * `NO_PROXY` as curl and npm read it: a comma- (or space-) separated list of hosts that are
 * reached directly. An entry matches the host itself and every name under it (`example.com`,
 * `.example.com` and `*.example.com` all match `api.example.com`); an IP address matches
 * itself, a CIDR range (`10.0.0.0/8`, `fd00::/8`) every address in it; `:PORT` after an entry
 * limits it to that port; `*` alone matches everything. Names are compared without case.
 * Nothing is direct by default: loopback too goes through the proxy unless NO_PROXY names it.
 */
import { BlockList, isIP } from 'node:net';

interface Entry {
  /** A lower-case name or address; '*' for everything. */
  host: string;
  /** Only this port, when the entry names one. */
  port: number | null;
  /** For a CIDR entry: the addresses it covers. */
  range: BlockList | null;
}

function bare(host: string): string {
  return host.toLowerCase().replace(/^\[|\]$/g, '');
}

function entryOf(text: string): Entry | null {
  let item = text.trim().toLowerCase();
  if (item === '') return null;
  if (item === '*') return { host: '*', port: null, range: null };
  // [v6]:port, v4:port, name:port; a bare IPv6 address has colons of its own.
  let port: number | null = null;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(item);
  if (bracketed !== null) {
    item = bracketed[1] ?? '';
    port = bracketed[2] === undefined ? null : Number(bracketed[2]);
  } else if (isIP(item.split('/')[0] ?? '') !== 6) {
    const withPort = /^(.*):(\d+)$/.exec(item);
    if (withPort !== null) {
      item = withPort[1] ?? '';
      port = Number(withPort[2]);
    }
  }
  const cidr = /^(.+)\/(\d{1,3})$/.exec(item);
  if (cidr !== null) {
    const address = cidr[1] ?? '';
    const family = isIP(address);
    const prefix = Number(cidr[2]);
    if (family === 0 || prefix > (family === 4 ? 32 : 128)) return null;
    const range = new BlockList();
    range.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
    return { host: item, port, range };
  }
  return { host: item.replace(/^\*?\./, ''), port, range: null };
}

export class NoProxy {
  readonly #entries: Entry[];

  constructor(text: string | undefined) {
    this.#entries = (text ?? '')
      .split(/[\s,]+/)
      .map(entryOf)
      .filter((entry): entry is Entry => entry !== null);
  }

  get empty(): boolean {
    return this.#entries.length === 0;
  }

  /** Whether `hostname` (a URL's, brackets allowed) at `port` is to be reached directly. */
  matches(hostname: string, port: number): boolean {
    const host = bare(hostname);
    const family = isIP(host);
    return this.#entries.some((entry) => {
      if (entry.port !== null && entry.port !== port) return false;
      if (entry.host === '*') return true;
      if (entry.range !== null) {
        return family !== 0 && entry.range.check(host, family === 4 ? 'ipv4' : 'ipv6');
      }
      if (family !== 0) return bare(entry.host) === host;
      return host === entry.host || host.endsWith(`.${entry.host}`);
    });
  }
}
