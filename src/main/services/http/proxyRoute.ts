/**
 * Where one request goes first: straight to the bank, or to a proxy that opens a CONNECT
 * tunnel to it. Always a tunnel, for http:// addresses too: the proxy only ever sees
 * `CONNECT host:port` and its own Proxy-Authorization, never a request, so the bank's
 * Authorization header never reaches it.
 */
export interface ProxyCredentials {
  user: string;
  password: string;
}

/** Where the route came from, for messages: "the proxy HTTPS_PROXY names", "the system's proxy". */
type ProxySource = 'explicit' | 'environment' | 'system';

export type ProxyRoute =
  | { kind: 'direct' }
  | {
      kind: 'proxy';
      /** The proxy's host (no brackets) and port. */
      host: string;
      port: number;
      credentials: ProxyCredentials | null;
      source: ProxySource;
    };

export const DIRECT: ProxyRoute = { kind: 'direct' };

/** `host:port` of a route's proxy, brackets around an IPv6 host. */
export function proxyAddress(route: Extract<ProxyRoute, { kind: 'proxy' }>): string {
  return `${route.host.includes(':') ? `[${route.host}]` : route.host}:${String(route.port)}`;
}

/** A route's proxy, as a person reads it: "the proxy 127.0.0.1:3128 (HTTPS_PROXY)". */
export function describeProxy(route: Extract<ProxyRoute, { kind: 'proxy' }>): string {
  const from =
    route.source === 'environment'
      ? ' (named by HTTPS_PROXY / HTTP_PROXY)'
      : route.source === 'system'
        ? " (the system's proxy)"
        : " (the profile's proxy)";
  return `the proxy ${proxyAddress(route)}${from}`;
}

/** A key that tells routes apart for connection pooling; never holds the password itself. */
export function routeKey(route: ProxyRoute, passwordTag: string): string {
  return route.kind === 'direct'
    ? 'direct'
    : `proxy|${proxyAddress(route)}|${route.credentials?.user ?? ''}|${passwordTag}`;
}
