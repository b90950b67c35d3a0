/**
 * The names a local server has at its own port besides loopback, for its Host check: the
 * address it was bound to, or every interface address when bound to all of them (0.0.0.0,
 * ::). Shared by the sandbox and the webhook listener; the caller passes the machine's
 * interfaces (`networkInterfaces()` of node:os), so this stays runtime-neutral.
 */
export type InterfaceAddresses = Record<string, readonly { address: string }[] | undefined>;

export function boundHostNames(host: string, interfaces: InterfaceAddresses): string[] {
  if (host !== '0.0.0.0' && host !== '::' && host !== '') return [host];
  return Object.values(interfaces).flatMap((addresses) => (addresses ?? []).map((entry) => entry.address));
}
