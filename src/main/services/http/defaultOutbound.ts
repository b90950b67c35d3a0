/**
 * How a request that belongs to no profile travels (the listener's forwards and replays when
 * it has no bank): the one transport, with the default network settings (the system's proxy
 * settings, or the environment's where there is no Chromium), no proxy login, the OS trust
 * store.
 */
import { DEFAULT_NETWORK_SETTINGS } from '../../../shared/profiles/networkFields.ts';
import type { Environment } from './environmentProxy.ts';
import { profilePolicy } from './networkPolicy.ts';
import { sharedTransport } from './sharedTransport.ts';
import type { ProxyResolver } from './systemProxy.ts';
import type { HttpTransport, NetworkPolicy } from './transport.ts';

export function defaultOutbound(network: { environment: Environment; systemResolver: ProxyResolver | null }): {
  transport: HttpTransport;
  policy: NetworkPolicy;
} {
  return {
    transport: sharedTransport(),
    policy: profilePolicy(DEFAULT_NETWORK_SETTINGS, { ...network, proxyPassword: () => Promise.resolve(null) }),
  };
}
