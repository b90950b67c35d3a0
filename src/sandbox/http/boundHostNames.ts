/**
 * The names a local server has at its own port besides loopback, for its Host check: the
 * address it was bound to, or every interface address when bound to all of them (0.0.0.0,
 * ::). Shared by the sandbox and the webhook listener.
 */
import { networkInterfaces } from 'node:os';

export function boundHostNames(host: string): string[] {
  if (host !== '0.0.0.0' && host !== '::' && host !== '') return [host];
  return Object.values(networkInterfaces()).flatMap((addresses) => (addresses ?? []).map((entry) => entry.address));
}
