/**
 * `npm run sandbox -- [--port N] [--host H] [--data FILE|:memory:] [--seed N] [--accounts N]
 * [--pending-per-account N] [--key-id ID --key-secret SECRET] [--retry-base-ms MS]
 * [--retry-cap-ms MS] [--error-threshold N] [--error-window-ms MS] [--smart-retries on|off]
 * [--delivery-timeout-ms MS] [--json]`, parsed into SandboxOptions. Pure, so it is unit-tested.
 */
import type { SandboxOptions } from './options.ts';

export interface CliRequest {
  options: SandboxOptions;
  json: boolean;
  help: boolean;
}

export const USAGE = `Usage: npm run sandbox -- [options]

  --port N                 port to listen on (default 0: a free port)
  --host HOST              interface to bind (default 127.0.0.1, loopback only)
  --data FILE|:memory:     SQLite data file (default :memory:); an existing file keeps its data
  --seed N                 deterministic seed data (default 1)
  --accounts N             seeded accounts (default 4)
  --pending-per-account N  seeded pending transactions per account (default 250)
  --key-id ID              API key id (default: the demo key)
  --key-secret SECRET      API key secret (default: the demo secret)
  --retry-base-ms MS       first webhook retry delay; scales the schedule (default 1000)
  --retry-cap-ms MS        longest retry delay (default retry base x 3600)
  --error-threshold N      failed deliveries within the window that put a webhook in error (default 100)
  --error-window-ms MS     that window (default 600000)
  --smart-retries on|off   Smart Webhook Retries: retry non-200/202 answers too (default on)
  --delivery-timeout-ms MS deadline of one delivery attempt (default 10000)
  --json                   print one JSON line with the address, key, token and demo ids
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
};

const TEXT: Readonly<Record<string, 'host' | 'dataFile' | 'keyId' | 'keySecret'>> = {
  '--host': 'host',
  '--data': 'dataFile',
  '--key-id': 'keyId',
  '--key-secret': 'keySecret',
};

export function parseCliArguments(argv: readonly string[]): CliRequest {
  const options: Record<string, unknown> = {};
  let json = false;
  let help = false;
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
    else if (flag === '--help' || flag === '-h') help = true;
    else if (flag === '--smart-retries') {
      const setting = value();
      if (setting !== 'on' && setting !== 'off') throw new Error(`--smart-retries takes on or off, not ${setting}.`);
      options.smartRetries = setting === 'on';
    } else if (flag in NUMERIC) {
      const text = value();
      if (!/^[0-9]+$/.test(text)) throw new Error(`${flag} takes a whole number, not ${JSON.stringify(text)}.`);
      options[NUMERIC[flag] ?? ''] = Number(text);
    } else if (flag in TEXT) {
      options[TEXT[flag] ?? ''] = value();
    } else {
      throw new Error(`Unknown option ${JSON.stringify(flag)}.`);
    }
  }
  if ((options.keyId === undefined) !== (options.keySecret === undefined)) {
    throw new Error('--key-id and --key-secret go together.');
  }
  return { options, json, help };
}
