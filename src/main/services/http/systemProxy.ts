/**
 * The system's proxy, as the desktop app asks Chromium for it (session.resolveProxy: the OS
 * settings, PAC files, WPAD), behind a small interface so the services never import Electron:
 * the shell injects the real one (src/main/electron/systemProxyResolver.ts), tests a fake,
 * and the command line and web mode, which have no Chromium, read the environment instead
 * (on Linux and macOS shells that is how the system says it).
 */

/** Answers for one URL in PAC form: "DIRECT", "PROXY host:port; DIRECT", "SOCKS5 host:1080"... */
export interface ProxyResolver {
  resolve(url: string): Promise<string>;
}

export type PacEntry =
  { kind: 'direct' } | { kind: 'proxy'; host: string; port: number } | { kind: 'other'; text: string };

/** A PAC result read into its entries, in order (the first usable one is taken). */
export function pacEntries(result: string): PacEntry[] {
  return result
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part): PacEntry => {
      const [type = '', address = ''] = part.split(/\s+/, 2);
      const upper = type.toUpperCase();
      if (upper === 'DIRECT') return { kind: 'direct' };
      if (upper === 'PROXY' || upper === 'HTTP') {
        const match = /^\[?([^\]]+?)\]?:(\d+)$/.exec(address);
        if (match !== null) return { kind: 'proxy', host: match[1] ?? '', port: Number(match[2]) };
        if (address !== '') return { kind: 'proxy', host: address, port: 80 };
      }
      return { kind: 'other', text: part };
    });
}
