/**
 * A profile's network settings (shared/profiles/networkFields.ts) as the NetworkPolicy the
 * transport asks per URL: which route (direct, or which proxy with which login) and which
 * trust. The embedded sandbox is always reached directly, whatever anything says: it is a
 * process of this app on loopback. Every other profile follows its settings, loopback
 * included: only NO_PROXY (or a PAC file) sends an address around the proxy.
 */
import type { NetworkSettings } from '../../../shared/profiles/networkFields.ts';
import { environmentRoute, routeOfProxyUrl, ProxySettingProblem, type Environment } from './environmentProxy.ts';
import { DIRECT, type ProxyCredentials, type ProxyRoute } from './proxyRoute.ts';
import { pacEntries, type ProxyResolver } from './systemProxy.ts';
import type { NetworkPolicy } from './transport.ts';
import { trustFor, type Trust } from './trust.ts';

/** Straight to the address, with the OS trust store: the embedded sandbox, and what names no profile. */
export function directPolicy(caFile: string | null = null): NetworkPolicy {
  return {
    routeFor: () => Promise.resolve(DIRECT),
    trust: () => trustFor(caFile),
  };
}

export interface PolicyContext {
  /** The process's environment (HTTPS_PROXY, HTTP_PROXY, NO_PROXY, either case). */
  environment: Environment;
  /**
   * The system's proxy per URL (Chromium's, in the desktop app); null where there is no
   * Chromium (the command line, web mode): `system` then reads the environment.
   */
  systemResolver: ProxyResolver | null;
  /** The profile's proxy password, from the keychain; null when none is stored. */
  proxyPassword: () => Promise<string | null>;
}

async function withProfileLogin(
  route: ProxyRoute,
  settings: NetworkSettings,
  context: PolicyContext,
): Promise<ProxyRoute> {
  if (route.kind !== 'proxy' || route.credentials !== null || settings.proxy.user === undefined) return route;
  const password = await context.proxyPassword();
  const credentials: ProxyCredentials = { user: settings.proxy.user, password: password ?? '' };
  return { ...route, credentials };
}

async function systemRoute(target: URL, resolver: ProxyResolver): Promise<ProxyRoute> {
  const result = await resolver.resolve(target.toString());
  const entries = pacEntries(result);
  for (const entry of entries) {
    if (entry.kind === 'direct') return DIRECT;
    if (entry.kind === 'proxy')
      return { kind: 'proxy', host: entry.host, port: entry.port, credentials: null, source: 'system' };
  }
  if (entries.length === 0) return DIRECT;
  throw new ProxySettingProblem(
    `the system's proxy settings name only proxies Ledgerdesk does not speak (${result}): it speaks HTTP proxies with CONNECT. Choose another proxy in the profile's Network settings.`,
  );
}

/** The policy of a remote profile's network settings. */
export function profilePolicy(settings: NetworkSettings, context: PolicyContext): NetworkPolicy {
  return {
    async routeFor(target) {
      const proxy = settings.proxy;
      let route: ProxyRoute;
      switch (proxy.mode) {
        case 'none':
          return DIRECT;
        case 'explicit':
          route = routeOfProxyUrl(proxy.url ?? '', 'explicit', "The profile's proxy");
          break;
        case 'environment':
          route = environmentRoute(target, context.environment);
          break;
        case 'system':
          route =
            context.systemResolver === null
              ? environmentRoute(target, context.environment)
              : await systemRoute(target, context.systemResolver);
          break;
      }
      return withProfileLogin(route, settings, context);
    },
    trust: (): Trust => trustFor(settings.caFile),
  };
}
