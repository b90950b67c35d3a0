/**
 * `npm run sandbox -- [--port N] [--host H] [--data FILE|:memory:] [--seed N] [--accounts N]
 * [--pending-per-account N] [--key-id ID --key-secret SECRET] [--allow-host NAME]...
 * [--allow-origin ORIGIN]... [--retry-base-ms MS]
 * [--retry-cap-ms MS] [--error-threshold N] [--error-window-ms MS] [--smart-retries on|off]
 * [--delivery-timeout-ms MS] [--rate-limit N] [--ach-limit AMOUNT] [--tls-cert FILE --tls-key FILE] [--lean] [--json]`, parsed into SandboxOptions. Pure, so it is unit-tested.
 */
import { readFileSync } from 'node:fs';
import { allowedHostEntry, allowedOriginEntry } from '../shared/security/localServerGuard.ts';
import type { SandboxOptions } from './options.ts';

export interface CliRequest {
  options: SandboxOptions;
  json: boolean;
  /** --quiet: no line per request and per delivery attempt. */
  quiet: boolean;
  help: boolean;
}

export const USAGE = `Usage: npm run sandbox -- [options]

  --port N                 port to listen on (default 0: a free port)
  --host HOST              interface to bind (default 127.0.0.1, loopback only)
  --data FILE|:memory:     SQLite data file (default :memory:); an existing file keeps its data
  --seed N                 deterministic seed data (default 1)
  --accounts N             seeded accounts (default 4)
  --pending-per-account N  seeded pending transactions per account (default 250)
  --key-id ID              API key id (default: the data file's own random key, printed below)
  --key-secret SECRET      API key secret (default: the data file's own random secret; a new one
                           each run for :memory:)
  --allow-host NAME[:PORT] also answer requests addressed to this name (a tunnel's); repeatable
  --allow-origin ORIGIN    also answer requests made by a web page of this origin; repeatable
  --retry-base-ms MS       first webhook retry delay; scales the schedule (default 1000)
  --retry-cap-ms MS        longest retry delay (default retry base x 3600)
  --error-threshold N      failed deliveries within the window that put a webhook in error (default 100)
  --error-window-ms MS     that window (default 600000)
  --smart-retries on|off   Smart Webhook Retries: retry non-200/202 answers too (default on)
  --delivery-timeout-ms MS deadline of one delivery attempt (default 10000)
  --rate-limit N           at most N requests a second per API key; beyond, 429 with Retry-After (default: no limit)
  --ach-limit AMOUNT       the most one account may move by ACH in a day (e.g. 1000.00); beyond, 429 naming the
                           limit, without Retry-After, as the real service answers an account limit (default: none)
  --tls-cert FILE          serve HTTPS with this certificate (PEM, the chain if any); needs --tls-key
  --tls-key FILE           the certificate's private key (PEM)
  --delivery-ca FILE       also trust this CA (PEM) when delivering to https:// webhook URLs (a listener
                           serving HTTPS with a certificate of your own CA)
  --lean                   answer in the real service's shapes: leave out or null what it does
                           (account_number, ownership_type, product, partner_deposit_id, a document's
                           bank_id/organization_id/description, page_next of those lists...)
  --json                   print one JSON line with the address, key, token and demo ids, then one
                           JSON object per request and per delivery attempt
  --quiet                  print no line per request (time, method, path, status, ms, key id) and
                           per delivery attempt (event, url, status, attempt, next retry)
  --help                   this text
`;

const NUMERIC: Readonly<Record<string, keyof SandboxOptions>> = {
  '--port': 'port',
  '--seed': 'seed',
  '--accounts': 'accounts',
  '--pending-per-account': 'pendingTransactionsPerAccount',
  '--retry-base-ms': 'retryBaseMs',
  '--retry-cap-ms': 'retryCapMs',
  '--error-threshold': 'errorThreshold',
  '--error-window-ms': 'errorWindowMs',
  '--delivery-timeout-ms': 'deliveryTimeoutMs',
  '--rate-limit': 'rateLimit',
};

const TEXT: Readonly<Record<string, 'host' | 'dataFile' | 'keyId' | 'keySecret'>> = {
  '--host': 'host',
  '--data': 'dataFile',
  '--key-id': 'keyId',
  '--key-secret': 'keySecret',
};

/** Flags that may be given several times, each adding one entry. */
const LISTS: Readonly<Record<string, 'allowedHosts' | 'allowedOrigins'>> = {
  '--allow-host': 'allowedHosts',
  '--allow-origin': 'allowedOrigins',
};

export function parseCliArguments(argv: readonly string[]): CliRequest {
  const options: Record<string, unknown> = {};
  const lists = { allowedHosts: [] as string[], allowedOrigins: [] as string[] };
  let json = false;
  let quiet = false;
  let help = false;
  const tlsFiles: { cert?: string; key?: string } = {};
  for (let index = 0; index < argv.length; index += 1) {
    const raw = argv[index] ?? '';
    const equals = raw.indexOf('=');
    const flag = raw.startsWith('--') && equals > 0 ? raw.slice(0, equals) : raw;
    const inline = raw.startsWith('--') && equals > 0 ? raw.slice(equals + 1) : undefined;
    const value = (): string => {
      if (inline !== undefined) return inline;
      const next = argv[index + 1];
      if (next === undefined || next.startsWith('--')) throw new Error(`${flag} needs a value.`);
      index += 1;
      return next;
    };
    if (flag === '--json') json = true;
    else if (flag === '--quiet') quiet = true;
    else if (flag === '--lean') {
      if (inline !== undefined) throw new Error('--lean takes no value.');
      options.lean = true;
    } else if (flag === '--help' || flag === '-h') help = true;
    else if (flag === '--smart-retries') {
      const setting = value();
      if (setting !== 'on' && setting !== 'off') throw new Error(`--smart-retries takes on or off, not ${setting}.`);
      options.smartRetries = setting === 'on';
    } else if (flag === '--delivery-ca') {
      options.deliveryCa = readPem(value(), '--delivery-ca');
    } else if (flag === '--tls-cert' || flag === '--tls-key') {
      tlsFiles[flag === '--tls-cert' ? 'cert' : 'key'] = value();
    } else if (flag === '--ach-limit') {
      const text = value();
      if (!/^[0-9]+[.][0-9][0-9]$/.test(text))
        throw new Error(`--ach-limit takes an amount like 1000.00, not ${JSON.stringify(text)}.`);
      options.achDailyLimit = text;
    } else if (flag in NUMERIC) {
      const text = value();
      if (!/^[0-9]+$/.test(text)) throw new Error(`${flag} takes a whole number, not ${JSON.stringify(text)}.`);
      options[NUMERIC[flag] ?? ''] = Number(text);
    } else if (flag in TEXT) {
      options[TEXT[flag] ?? ''] = value();
    } else if (flag in LISTS) {
      const text = value();
      try {
        lists[LISTS[flag] ?? 'allowedHosts'].push(
          flag === '--allow-host' ? allowedHostEntry(text) : allowedOriginEntry(text),
        );
      } catch (error) {
        throw new Error(`${flag}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      }
    } else {
      throw new Error(`Unknown option ${JSON.stringify(flag)}.`);
    }
  }
  if ((options.keyId === undefined) !== (options.keySecret === undefined)) {
    throw new Error('--key-id and --key-secret go together.');
  }
  if ((tlsFiles.cert === undefined) !== (tlsFiles.key === undefined)) {
    throw new Error('--tls-cert and --tls-key go together: the certificate and its private key.');
  }
  if (tlsFiles.cert !== undefined && tlsFiles.key !== undefined) {
    options.tls = { cert: readPem(tlsFiles.cert, '--tls-cert'), key: readPem(tlsFiles.key, '--tls-key') };
  }
  if (lists.allowedHosts.length > 0) options.allowedHosts = lists.allowedHosts;
  if (lists.allowedOrigins.length > 0) options.allowedOrigins = lists.allowedOrigins;
  return { options, json, quiet, help };
}

function readPem(file: string, flag: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(
      `${flag} ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}: give the path of a PEM file.`,
      {
        cause: error,
      },
    );
  }
  if (!text.includes('-----BEGIN ')) throw new Error(`${flag} ${file} is not a PEM file (no -----BEGIN line).`);
  return text;
}
