/**
 * The system's proxy, as Chromium resolves it for a URL (session.resolveProxy: the OS's proxy
 * settings, PAC files, WPAD): the one Electron-only piece of the network (services/http), handed
 * to the services as the small ProxyResolver interface they know.
 */
import type { Session } from 'electron';
import type { ProxyResolver } from '../services/http/systemProxy.ts';

export function chromiumProxyResolver(session: Session): ProxyResolver {
  return {
    resolve: (url) => session.resolveProxy(url),
  };
}
