/**
 * How a profile reaches its bank through the network: which proxy (the system's, the
 * environment's `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY`, one named here, or none) and which
 * extra certificate authorities to trust (a CA bundle file, beside the OS trust store and
 * Node's bundled roots). Defined once: the IPC contract, the profile service and the
 * renderer's form check the same rules. No password is ever part of it: a proxy's password
 * lives in the keychain (credentials/), only its user name is here.
 */
import { z } from 'zod';

/**
 * `system`: the OS's settings (in the desktop app Chromium resolves them per URL: PAC, WPAD,
 * the desktop's proxy settings; the command line and web mode read the environment, which is
 * how a Linux or macOS shell says it). `environment`: `HTTPS_PROXY`/`HTTP_PROXY`/`NO_PROXY`
 * only. `explicit`: the proxy named in the profile. `none`: always direct.
 */
export const PROXY_MODES = ['system', 'environment', 'explicit', 'none'] as const;
export type ProxyMode = (typeof PROXY_MODES)[number];

export const PROXY_MODE_LABELS: Readonly<Record<ProxyMode, string>> = {
  system: "The system's proxy settings",
  environment: 'HTTPS_PROXY / HTTP_PROXY / NO_PROXY',
  explicit: 'This proxy',
  none: 'No proxy (always direct)',
};

const PROXY_URL_MAX = 2_048;
const CA_FILE_MAX = 4_096;

/**
 * What is wrong with a proxy's address, in a sentence, or null: `http://host:port` (the
 * scheme defaults to http://), no path, no user or password in it (the password would be
 * kept in clear: it goes to the keychain; the user has its own field).
 */
export function proxyUrlProblem(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return 'must name the proxy, e.g. http://proxy.example.com:3128';
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`);
  } catch {
    return 'must be a proxy address such as http://proxy.example.com:3128';
  }
  if (url.protocol === 'https:') {
    return 'must be an http:// proxy: Ledgerdesk opens a CONNECT tunnel to it, and TLS runs end to end inside';
  }
  if (url.protocol !== 'http:') {
    return `uses ${url.protocol.replace(/:$/, '')}, which Ledgerdesk does not speak: give an HTTP proxy (http://host:port)`;
  }
  if (url.username !== '' || url.password !== '') {
    return 'must not contain a user or password: the user has its own field and the password goes to the keychain';
  }
  if ((url.pathname !== '/' && url.pathname !== '') || url.search !== '' || url.hash !== '') {
    return 'must be just a host and port (http://host:port), without a path';
  }
  return null;
}

/** The proxy's address as stored: `http://host:port` (port 80 when none is given, as curl does for http). */
function normalizedProxyUrl(text: string): string {
  const trimmed = text.trim();
  const url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `http://${trimmed}`);
  return `http://${url.host}`;
}

export const proxyUrl = z
  .string()
  .trim()
  .max(PROXY_URL_MAX, { message: `must be at most ${PROXY_URL_MAX} characters` })
  .superRefine((text, context) => {
    const problem = proxyUrlProblem(text);
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  })
  .transform((text) => normalizedProxyUrl(text));

/** A proxy's user name (Basic proxy authentication); its password is the keychain's. */
export const proxyUser = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(256, { message: 'must be at most 256 characters' })
  .refine((text) => !/[:\p{C}]/u.test(text), { message: 'must not contain a colon, a line break or a tab' });

const proxySetting = z
  .strictObject({
    mode: z.enum(PROXY_MODES),
    /** With `explicit`: the proxy. */
    url: proxyUrl.optional(),
    /** The proxy's user, when it asks for one (Basic); the password is in the keychain. */
    user: proxyUser.optional(),
  })
  .superRefine((setting, context) => {
    if (setting.mode === 'explicit' && setting.url === undefined) {
      context.addIssue({ code: 'custom', path: ['url'], message: 'is required for an explicit proxy' });
    }
    if (setting.mode !== 'explicit' && setting.url !== undefined) {
      context.addIssue({ code: 'custom', path: ['url'], message: 'is used only with an explicit proxy' });
    }
  });
export type ProxySetting = z.output<typeof proxySetting>;

/** An absolute path to a PEM file of one or more CA certificates. */
export const caFile = z
  .string()
  .trim()
  .min(1, { message: 'must name a file' })
  .max(CA_FILE_MAX, { message: `must be at most ${CA_FILE_MAX} characters` })
  .refine((text) => !/\p{C}/u.test(text), { message: 'must not contain line breaks or tabs' });

export const networkSettings = z.strictObject({
  proxy: proxySetting,
  /** Extra certificate authorities (PEM), beside the OS trust store and Node's roots; null: none. */
  caFile: caFile.nullable(),
});
export type NetworkSettings = z.output<typeof networkSettings>;

/** A new profile's: the system's proxy settings, the OS trust store. */
export const DEFAULT_NETWORK_SETTINGS: NetworkSettings = { proxy: { mode: 'system' }, caFile: null };

/** How a profile's network settings read in a sentence ("Through proxy.example.com:3128 as alice; trusts /etc/corp-ca.pem too."). */
export function describeNetwork(settings: NetworkSettings): string {
  const proxy = settings.proxy;
  const through =
    proxy.mode === 'explicit'
      ? `through the proxy ${proxy.url === undefined ? '' : new URL(proxy.url).host}`
      : proxy.mode === 'environment'
        ? 'through the proxy HTTPS_PROXY / HTTP_PROXY name (NO_PROXY honoured)'
        : proxy.mode === 'system'
          ? "through the system's proxy settings"
          : 'directly (no proxy)';
  const user = proxy.user === undefined ? '' : ` as ${proxy.user}`;
  const trust = settings.caFile === null ? '' : `; trusts the CAs in ${settings.caFile} too`;
  return `Reaches the bank ${through}${user}${trust}.`;
}
