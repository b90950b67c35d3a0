/**
 * Where a bank may be asked to send notifications. The real service takes only "the HTTPS URL
 * where the event notification will be sent" (docs.treasuryprime.com, "Create a webhook"), and
 * a bank in a data centre cannot reach this laptop's loopback or a private network. So a
 * webhook address that is not https://, or that names a loopback, private, link-local or
 * local-only address, is refused before any request leaves, for every bank but the embedded
 * sandbox (a process on this machine, which reaches them). The one exception: `allowHttp`
 * (`--allow-http`) at a remote sandbox that itself says it delivers there
 * (GET /sandbox/webhook_url_policy, which the real service does not have).
 *
 * Names are judged as written (no DNS lookup): `localhost`, `*.localhost`, `*.local`,
 * `*.internal`, `*.lan`, `*.home.arpa` are local-only; an IP literal by its range.
 */
import { BlockList, isIP } from 'node:net';
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';

/** Where to read how to give the bank an address it can reach. */
const REACH_DOCS = 'docs/listener-reach.md';

const PRIVATE_RANGES = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const) {
  PRIVATE_RANGES.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const) {
  PRIVATE_RANGES.addSubnet(network, prefix, 'ipv6');
}

const LOCAL_NAMES = /(^|\.)(localhost|local|internal|lan|home\.arpa)$/i;

/** What is wrong with `url` as an address a remote bank posts to, or null when it is fine. */
export function webhookAddressProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${url} is not an address`;
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const family = isIP(host);
  // An IPv4 address written inside IPv6 (::ffff:10.0.0.1) is that IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host)?.[1];
  const local =
    family === 0
      ? LOCAL_NAMES.test(host) || !host.includes('.')
      : mapped !== undefined
        ? PRIVATE_RANGES.check(mapped, 'ipv4')
        : PRIVATE_RANGES.check(host, family === 4 ? 'ipv4' : 'ipv6');
  if (local) {
    return `${parsed.origin} names ${family === 0 ? 'a name only this machine or its network knows' : 'a loopback or private address'}, which a bank on the internet cannot reach`;
  }
  if (parsed.protocol !== 'https:')
    return `${parsed.origin} is not https://: the bank delivers only to HTTPS addresses`;
  return null;
}

/** A webhook address refused before anything was sent to the bank. */
export class WebhookAddressRefused extends Error {
  readonly url: string;
  constructor(url: string, message: string) {
    super(message);
    this.name = 'WebhookAddressRefused';
    this.url = url;
  }

  get answer(): ContractAnswer {
    return { code: 'invalid_input', field: 'url' };
  }
}

/** How to give the bank an address it can reach, in one sentence. */
function howToGetAPublicAddress(url: string): string {
  let port = '4880';
  try {
    const parsed = new URL(url);
    port = parsed.port === '' ? (parsed.protocol === 'https:' ? '443' : '80') : parsed.port;
  } catch {
    // The default listener port, then.
  }
  return (
    `To let the bank reach a listener on this machine, give it a public HTTPS address: a tunnel ` +
    `(\`ngrok http ${port}\`, \`cloudflared tunnel --url http://127.0.0.1:${port}\` or \`ssh -R\` to a server of yours) ` +
    `or a reverse proxy with a certificate, then set that address as the listener's public URL ` +
    `(Listener → Setup, or --public-url); see ${REACH_DOCS}.`
  );
}

export interface WebhookAddressCheck {
  /** The embedded sandbox (a process of this app): it reaches loopback itself. */
  embeddedSandbox: boolean;
  /** `--allow-http`: a remote sandbox that says it delivers to http:// and private addresses. */
  allowHttp: boolean;
  profileName: string;
  /** GET /sandbox/webhook_url_policy: whether the bank says it delivers to such addresses; asked only with allowHttp. */
  bankAcceptsAnyAddress: () => Promise<boolean>;
}

/** Throws WebhookAddressRefused, in a sentence that says what to do, unless the bank may be given `url`. */
export async function checkWebhookAddress(url: string, check: WebhookAddressCheck): Promise<void> {
  if (check.embeddedSandbox) return;
  const problem = webhookAddressProblem(url);
  if (problem === null) return;
  if (check.allowHttp) {
    if (await check.bankAcceptsAnyAddress()) return;
    throw new WebhookAddressRefused(
      url,
      `The bank of ${check.profileName} does not say it delivers to plain http:// or private addresses (only a Ledgerdesk sandbox answers GET /sandbox/webhook_url_policy), so --allow-http does not apply: ${problem}. ${howToGetAPublicAddress(url)}`,
    );
  }
  throw new WebhookAddressRefused(
    url,
    `Not sent to the bank of ${check.profileName}: ${problem}. ${howToGetAPublicAddress(url)} (A sandbox of your own that delivers to such addresses takes --allow-http.)`,
  );
}
