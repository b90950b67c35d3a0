/**
 * The proxy the environment names, as curl and npm read it: `https_proxy` / `HTTPS_PROXY` for
 * https:// addresses, `http_proxy` / `HTTP_PROXY` for http:// ones, `all_proxy` / `ALL_PROXY`
 * for either when those are unset (the lower-case name wins when both are set), minus the
 * hosts `no_proxy` / `NO_PROXY` names. A `user:password@` in the proxy's URL is its Basic
 * login (percent-decoded). `host:port` without a scheme means http://.
 */
import { NoProxy } from './noProxy.ts';
import { DIRECT, type ProxyRoute } from './proxyRoute.ts';

export type Environment = Readonly<Record<string, string | undefined>>;

/** A proxy variable that names something Ledgerdesk cannot use: said, never silently ignored. */
export class ProxySettingProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProxySettingProblem';
  }
}

function variable(environment: Environment, name: string): { name: string; value: string } | null {
  for (const candidate of [name.toLowerCase(), name.toUpperCase()]) {
    const value = environment[candidate];
    if (value !== undefined && value.trim() !== '') return { name: candidate, value: value.trim() };
  }
  return null;
}

/** Which variable names the proxy for `protocol` ('https:' or 'http:'), if any does. */
function proxyVariableFor(environment: Environment, protocol: string): { name: string; value: string } | null {
  return (
    variable(environment, protocol === 'https:' ? 'https_proxy' : 'http_proxy') ?? variable(environment, 'all_proxy')
  );
}

/** A proxy URL from the environment (or a profile) as a route; throws ProxySettingProblem for what is unusable. */
export function routeOfProxyUrl(text: string, source: 'environment' | 'explicit', named: string): ProxyRoute {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`);
  } catch {
    throw new ProxySettingProblem(`${named} is not a proxy address (give http://host:port).`);
  }
  if (url.protocol !== 'http:') {
    throw new ProxySettingProblem(
      `${named} names a ${url.protocol.replace(/:$/, '')}:// proxy, which Ledgerdesk does not speak: give an HTTP proxy (http://host:port); it opens a CONNECT tunnel through it.`,
    );
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === '') throw new ProxySettingProblem(`${named} names no host.`);
  const user = url.username === '' ? null : decodeURIComponent(url.username);
  return {
    kind: 'proxy',
    host,
    port: url.port === '' ? 80 : Number(url.port),
    credentials: user === null ? null : { user, password: decodeURIComponent(url.password) },
    source,
  };
}

/** The route the environment gives `target`. */
export function environmentRoute(target: URL, environment: Environment): ProxyRoute {
  const proxy = proxyVariableFor(environment, target.protocol);
  if (proxy === null) return DIRECT;
  const noProxy = new NoProxy(variable(environment, 'no_proxy')?.value);
  const port = target.port === '' ? (target.protocol === 'https:' ? 443 : 80) : Number(target.port);
  if (noProxy.matches(target.hostname, port)) return DIRECT;
  return routeOfProxyUrl(proxy.value, 'environment', proxy.name);
}
