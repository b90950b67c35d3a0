/** `ledger serve` / `npm run serve`'s options, checked: a typo is one clear line naming the option. */
import { parseArgs } from 'node:util';
import { COMMON_OPTIONS } from '../cli/common/commonOptions.ts';
import { UsageError } from '../cli/common/usageError.ts';

export const SERVE_USAGE = `Usage: npm run serve -- [options]      (or: npm run ledger -- serve [options])

Starts Ledgerdesk in web mode: the same services as the desktop app, shown in your browser.
  --data DIR        the data folder (default: the app's own, shared with the desktop app and ledger)
  --port N          the port (default: a free one)
  --no-open         do not open the browser; open the printed address yourself
  --json            one JSON line when open ({"event":"open","url":…}) and one when stopped
  --expose ADDRESS  listen on ADDRESS (e.g. 0.0.0.0) instead of 127.0.0.1: other machines can then
                    reach the sign-in page; only the printed address's token lets anyone in.
                    Needs --tls-cert and --tls-key: nothing crosses the network in clear
  --tls-cert FILE   serve over HTTPS with this PEM certificate (its names are the addresses to open)
  --tls-key FILE    and its PEM private key
  --passphrase-file FILE  the passphrase of the data folder's key file (machines without a keychain);
                    without it (or LEDGERDESK_PASSPHRASE_FILE), it is asked here, or on the unlock page
  --token           ask the web mode already running on the data folder for a new sign-in address
  --help
Ctrl+C stops it: work in flight finishes first, nothing is lost.`;

export interface ServeArguments {
  dataFolder: string | null;
  /** `--passphrase-file`: where the key file's passphrase is (never the passphrase itself). */
  passphraseFile: string | null;
  port: number;
  open: boolean;
  json: boolean;
  host: string;
  exposed: boolean;
  /** The certificate and key files (both or neither). */
  tls: { certFile: string; keyFile: string } | null;
  /** `--token`: a new sign-in address from the running web mode, instead of starting one. */
  newToken: boolean;
  help: boolean;
}

/** Why `--expose` needs TLS, in the words the refusal uses. */
export const EXPOSE_NEEDS_TLS =
  '--expose needs --tls-cert and --tls-key: beyond this machine, the sign-in address, the session and every answer ' +
  'would cross the network in clear, for anyone on the path to read and use. Give a certificate and its key (PEM), ' +
  'or keep web mode on 127.0.0.1 and reach it through an SSH tunnel (ssh -L PORT:127.0.0.1:PORT this-machine).';

export function parseServeArguments(args: readonly string[]): ServeArguments {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      options: {
        ...COMMON_OPTIONS,
        port: { type: 'string' },
        'no-open': { type: 'boolean', default: false },
        expose: { type: 'string' },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        token: { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
      allowPositionals: false,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values } = parsed;
  const portText = values.port ?? '0';
  if (!/^[0-9]{1,5}$/.test(portText) || Number(portText) > 65_535) {
    throw new UsageError(`--port must be a number from 0 to 65535, not ${JSON.stringify(portText)}.`);
  }
  const expose = values.expose;
  if (expose !== undefined && !/^(?:[0-9.]+|[0-9a-f:]+|[a-z0-9.-]+)$/i.test(expose)) {
    throw new UsageError(`--expose needs an address to listen on (e.g. 0.0.0.0), not ${JSON.stringify(expose)}.`);
  }
  const certFile = values['tls-cert'];
  const keyFile = values['tls-key'];
  if ((certFile === undefined) !== (keyFile === undefined)) {
    throw new UsageError(
      certFile === undefined
        ? '--tls-key needs --tls-cert (the certificate).'
        : '--tls-cert needs --tls-key (its key).',
    );
  }
  if (expose !== undefined && certFile === undefined) throw new UsageError(EXPOSE_NEEDS_TLS);
  return {
    dataFolder: values.data ?? null,
    passphraseFile: values['passphrase-file'] ?? null,
    port: Number(portText),
    open: !values['no-open'],
    json: values.json === true,
    host: expose ?? '127.0.0.1',
    exposed: expose !== undefined,
    tls: certFile === undefined || keyFile === undefined ? null : { certFile, keyFile },
    newToken: values.token,
    help: values.help,
  };
}
