/**
 * `npm run listen -- inspect|replay|export`: reading what the standalone listener kept, while
 * it runs or after. They open the same database file (WAL lets them read beside a running
 * listener), never start a server, and never hold a secret beyond the command.
 *
 *   inspect [ID]     the kept requests, newest first; with ID, everything kept of one
 *   replay ID        sends one kept request again (default: to the listener's own address)
 *   export FILE|-    the kept requests as JSONL (the app's Listener → Import reads it) or cURL
 */
import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { InMemorySecretStore } from '../../services/credentials/secretStore.ts';
import { VERDICTS, type Verdict } from '../../services/listener/basicAuth.ts';
import { humanDeliveryLineOf, humanLineOf, jsonLineOf } from './cliOutput.ts';
import { DEFAULT_LISTENER_PORT } from '../../services/listener/listenAddress.ts';
import { openListener, type Listener } from '../../services/listener/listener.ts';
import { LISTENER_DATABASE_FILE, openListenerDatabase } from '../../services/listener/listenerDatabase.ts';
import { isLoopbackHost, TargetRefused } from '../../services/listener/outboundTargets.ts';
import type { ReceivedRequest, RequestFilter } from '../../services/listener/receivedRequest.ts';
import { NothingToReplayError } from '../../services/listener/replay.ts';
import { COMMON_OPTIONS, dataFolderOf } from '../common/commonOptions.ts';
import { UsageError } from '../common/usageError.ts';

export const KEPT_TRAFFIC_COMMANDS = ['inspect', 'replay', 'export'] as const;
export type KeptTrafficCommand = (typeof KEPT_TRAFFIC_COMMANDS)[number];

const KEPT_TRAFFIC_USAGE = `Usage: npm run listen -- inspect [ID] [--event E] [--verdict V] [--limit N] [--json]
       npm run listen -- replay ID [--to URL] [--basic USER:SECRET] [--json]
       npm run listen -- export FILE|- [--format jsonl|curl] [--event E] [--verdict V] [--force]

What \`npm run listen\` kept (in the data folder), read while it runs or after:

  inspect             the kept requests, newest first (default 20; --limit N, at most 1000)
  inspect ID          everything kept of request ID: headers (Authorization as its scheme only),
                      body, the object fetched from the bank, forwards and replays
  replay ID           send request ID again, its path and query under --to (default: the address
                      the listener last listened on); --basic signs it (loopback targets only).
                      Exit code 0 only when the answer is 2xx
  export FILE         every kept request to FILE (- for standard output): JSONL, one request a line,
                      which the app imports (Listener → Requests → Import…); --format curl writes
                      cURL commands instead. An existing FILE is kept unless --force
  --data DIR          the data folder (default: Ledgerdesk's)
  --listener ID       which listener's requests (default "cli")
`;

export interface KeptTrafficArguments {
  command: KeptTrafficCommand;
  /** The request id (inspect, replay) or the file (export). */
  target: string | null;
  event: string | undefined;
  verdict: Verdict | undefined;
  limit: number;
  to: string | null;
  basic: { user: string; secret: string } | null;
  format: 'jsonl' | 'curl';
  force: boolean;
  json: boolean;
  dataFolder: string | undefined;
  listenerId: string;
  help: boolean;
}

function requestIdOf(text: string | null, command: string, required: boolean): number | null {
  if (text === null) {
    if (required)
      throw new UsageError(`${command} needs the request's id (the first column of \`npm run listen -- inspect\`).`);
    return null;
  }
  if (!/^[1-9][0-9]{0,14}$/.test(text))
    throw new UsageError(`${command}: "${text}" is not a request id (a whole number).`);
  return Number(text);
}

export function readKeptTrafficArguments(argv: string[]): KeptTrafficArguments {
  const [command, ...rest] = argv;
  if (!KEPT_TRAFFIC_COMMANDS.includes(command as KeptTrafficCommand)) {
    throw new UsageError(`Unknown command "${String(command)}".`);
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: true,
      options: {
        event: { type: 'string' },
        verdict: { type: 'string' },
        limit: { type: 'string' },
        to: { type: 'string' },
        basic: { type: 'string' },
        format: { type: 'string' },
        force: { type: 'boolean' },
        ...COMMON_OPTIONS,
        listener: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1)
    throw new UsageError(`${String(command)} takes one argument, not ${String(positionals.length)}.`);
  const only = (names: string[], allowed: readonly KeptTrafficCommand[]): void => {
    const given = names.find((name) => (values as Record<string, unknown>)[name] !== undefined);
    if (given !== undefined && !allowed.includes(command as KeptTrafficCommand)) {
      throw new UsageError(`--${given} goes with ${allowed.join(' or ')}, not ${String(command)}.`);
    }
  };
  only(['to', 'basic'], ['replay']);
  only(['format', 'force'], ['export']);
  only(['event', 'verdict'], ['inspect', 'export']);
  only(['limit'], ['inspect']);
  const verdict = values.verdict;
  if (verdict !== undefined && !VERDICTS.includes(verdict as Verdict)) {
    throw new UsageError(`--verdict must be one of ${VERDICTS.join(', ')}, not "${verdict}".`);
  }
  const limitText = values.limit ?? '20';
  if (!/^[0-9]+$/.test(limitText) || Number(limitText) < 1 || Number(limitText) > 1000) {
    throw new UsageError(`--limit must be a whole number from 1 to 1000, not "${limitText}".`);
  }
  const format = values.format ?? 'jsonl';
  if (format !== 'jsonl' && format !== 'curl') throw new UsageError(`--format must be jsonl or curl, not "${format}".`);
  const to = values.to ?? null;
  if (to !== null && !/^https?:\/\/[^/]/.test(to))
    throw new UsageError(`--to must be an http:// or https:// URL, not "${to}".`);
  let basic: KeptTrafficArguments['basic'] = null;
  if (values.basic !== undefined) {
    const colon = values.basic.indexOf(':');
    if (colon <= 0 || colon === values.basic.length - 1)
      throw new UsageError('--basic must be USER:SECRET, both non-empty (the user cannot contain a colon).');
    basic = { user: values.basic.slice(0, colon), secret: values.basic.slice(colon + 1) };
  }
  const listenerId = values.listener ?? 'cli';
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(listenerId)) {
    throw new UsageError('--listener must be 1 to 64 letters, digits, dots, dashes or underscores.');
  }
  const target = positionals[0] ?? null;
  const help = values.help === true;
  if (!help) {
    if (command === 'inspect') requestIdOf(target, 'inspect', false);
    if (command === 'replay') requestIdOf(target, 'replay', true);
    if (command === 'export' && target === null)
      throw new UsageError('export needs a FILE to write (or - for standard output).');
  }
  return {
    command: command as KeptTrafficCommand,
    target,
    event: values.event,
    verdict: verdict as Verdict | undefined,
    limit: Number(limitText),
    to,
    basic,
    format,
    force: values.force === true,
    json: values.json === true,
    dataFolder: values.data,
    listenerId,
    help,
  };
}

export interface CommandOutput {
  out(text: string): void;
  err(text: string): void;
}

/** Runs one of the commands; answers the exit code (0 done, 1 failed, 2 a usage mistake). */
export async function runKeptTrafficCommand(argv: string[], output: CommandOutput): Promise<number> {
  let options: KeptTrafficArguments;
  try {
    options = readKeptTrafficArguments(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.err(`listen: ${error.message}\n\n${KEPT_TRAFFIC_USAGE}`);
    return 2;
  }
  if (options.help) {
    output.out(KEPT_TRAFFIC_USAGE);
    return 0;
  }
  const dataFolder = dataFolderOf(options.dataFolder);
  const file = join(dataFolder, LISTENER_DATABASE_FILE);
  if (!existsSync(file)) {
    output.err(`listen: nothing is kept in ${dataFolder} yet: start \`npm run listen\` and let the bank post to it.`);
    return 1;
  }
  const opened = openListenerDatabase(file);
  const listener = await openListener({
    database: opened.database,
    secrets: new InMemorySecretStore(),
    listenerId: options.listenerId,
  });
  try {
    if (options.command === 'inspect') return inspect(listener, options, output);
    if (options.command === 'replay') return await replayOne(listener, options, output);
    return exportKept(listener, options, output);
  } finally {
    await listener.close();
    await opened.close();
  }
}

function filterOf(options: KeptTrafficArguments): RequestFilter {
  return {
    ...(options.event === undefined ? {} : { event: options.event }),
    ...(options.verdict === undefined ? {} : { verdict: options.verdict }),
  };
}

function inspect(listener: Listener, options: KeptTrafficArguments, output: CommandOutput): number {
  const id = requestIdOf(options.target, 'inspect', false);
  if (id === null) {
    const filter = filterOf(options);
    const requests = listener.requests({ ...filter, limit: options.limit });
    const total = listener.count(filter);
    if (options.json) {
      for (const request of requests) output.out(jsonLineOf(request));
      return 0;
    }
    if (requests.length === 0) {
      output.out(total === 0 ? 'No request kept.' : 'No kept request matches.');
      return 0;
    }
    output.out(
      `${String(requests.length)} of ${String(total)} kept requests, newest first (id, then as \`npm run listen\` printed it):`,
    );
    for (const request of requests)
      output.out(`${String(request.id).padStart(6)}  ${request.receivedAt.slice(0, 10)} ${humanLineOf(request)}`);
    output.out('`npm run listen -- inspect ID` shows one in full.');
    return 0;
  }
  const request = listener.request(id);
  if (request === null) {
    output.err(`listen: there is no kept request ${String(id)} (\`npm run listen -- inspect\` lists them).`);
    return 1;
  }
  const deliveries = listener.deliveries(id);
  if (options.json) {
    output.out(JSON.stringify({ request, deliveries }));
    return 0;
  }
  output.out(detailOf(request));
  if (deliveries.length > 0) {
    output.out('Forwards and replays:');
    for (const delivery of deliveries) output.out(humanDeliveryLineOf(delivery));
  }
  return 0;
}

/** Control characters shown as `?`: a kept body cannot move the terminal's cursor. */
function printable(text: string): string {
  let shown = '';
  for (const character of text) {
    const code = character.charCodeAt(0);
    shown += (code < 0x20 && code !== 0x09 && code !== 0x0a) || code === 0x7f ? '?' : character;
  }
  return shown;
}

function detailOf(request: ReceivedRequest): string {
  const lines = [
    `Request ${String(request.id)}, received ${request.receivedAt} from ${request.remoteAddress ?? 'an unknown address'}`,
    `  ${request.method || '?'} ${request.path}${request.query === null ? '' : `?${request.query}`}`,
    `  verdict ${request.verdict}${request.presentedUser === null ? '' : ` (Basic user "${request.presentedUser}")`}; ` +
      `${request.outcome === 'answered' ? `answered ${String(request.status)}` : request.outcome.replace('_', ' ')} in ${request.durationMs.toFixed(1)} ms` +
      (request.ruleId === null ? '' : ` (rule ${request.ruleId})`),
  ];
  if (request.event !== null)
    lines.push(
      `  ${request.event} ${request.objectId ?? '-'}${request.op === null ? '' : ` (${request.op})`}; arrival ${String(request.occurrence)} of it` +
        (request.outOfOrder ? ', out of order' : ''),
    );
  if (request.bodyProblem !== null) lines.push(`  body: ${request.bodyProblem}`);
  lines.push('Headers (as received; Authorization keeps only its scheme):');
  for (const [name, value] of request.headers) lines.push(`  ${name}: ${printable(value)}`);
  const size = `${String(request.bodyBytes)} bytes${request.bodyTruncated ? ', kept only in part' : ''}`;
  if (request.bodyText !== null) {
    lines.push(`Body (${size}):`);
    lines.push(
      ...printable(request.bodyText)
        .split('\n')
        .map((line) => `  ${line}`),
    );
  } else if (request.bodyBase64 !== null) lines.push(`Body (${size}, not UTF-8; base64):`, `  ${request.bodyBase64}`);
  else lines.push('Body: none kept.');
  if (request.snapshotAt !== null) {
    lines.push(
      request.snapshotError === null
        ? `The object, fetched from the bank at ${request.snapshotAt}:`
        : `The object could not be fetched (${request.snapshotAt}): ${request.snapshotError}`,
    );
    if (request.snapshotError === null)
      lines.push(
        ...JSON.stringify(request.snapshot, null, 2)
          .split('\n')
          .map((line) => `  ${line}`),
      );
  }
  return lines.join('\n');
}

async function replayOne(listener: Listener, options: KeptTrafficArguments, output: CommandOutput): Promise<number> {
  const id = requestIdOf(options.target, 'replay', true) as number;
  const settings = listener.settings;
  const host = settings.host.includes(':') ? `[${settings.host}]` : settings.host;
  const to = options.to ?? `http://${host}:${String(settings.port ?? DEFAULT_LISTENER_PORT)}`;
  const loopback = isLoopbackHost(new URL(to).hostname);
  if (options.basic !== null && !loopback) {
    output.err(
      'listen: --basic signs a replay only to a loopback address: a secret typed here is not sent across the network.',
    );
    return 2;
  }
  try {
    // Typed on the command line: that is the confirmation another host needs (as for --forward-to).
    if (!loopback) listener.allowTarget(to);
    const authorization =
      options.basic === null
        ? {}
        : {
            edit: {
              headers: {
                authorization: `Basic ${Buffer.from(`${options.basic.user}:${options.basic.secret}`).toString('base64')}`,
              },
            },
          };
    const [delivery] = await listener.replay({ requestIds: [id], url: to, appendPath: true, ...authorization });
    if (delivery === undefined) throw new NothingToReplayError();
    if (options.json) output.out(JSON.stringify({ replayed: delivery }));
    else output.out(humanDeliveryLineOf(delivery).trimStart());
    // Exit 0 only for a 2xx answer: a script can tell a handler that refused it.
    return delivery.status !== null && delivery.status >= 200 && delivery.status < 300 ? 0 : 1;
  } catch (error) {
    if (error instanceof NothingToReplayError) {
      output.err(`listen: there is no kept request ${String(id)} (\`npm run listen -- inspect\` lists them).`);
      return 1;
    }
    if (error instanceof TargetRefused) {
      output.err(`listen: ${error.message}`);
      return 2;
    }
    throw error;
  }
}

function exportKept(listener: Listener, options: KeptTrafficArguments, output: CommandOutput): number {
  const target = options.target as string;
  const filter = filterOf(options);
  const lines = listener.exportTraffic({ format: options.format, filter });
  if (target === '-') {
    for (const line of lines) output.out(line.replace(/\n+$/, options.format === 'curl' ? '\n' : ''));
    return 0;
  }
  let count = 0;
  let descriptor: number;
  try {
    // 0600: bodies are kept in clear by the command line; `wx` keeps an existing file unless --force.
    descriptor = openSync(target, options.force ? 'w' : 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      output.err(`listen: ${target} exists: choose another file, or add --force to replace it.`);
      return 1;
    }
    output.err(`listen: cannot write ${target}: ${(error as Error).message}`);
    return 1;
  }
  try {
    // Line by line: a full log (up to its retention caps) is never held in memory at once.
    for (const line of lines) {
      writeSync(descriptor, line);
      count += 1;
    }
  } finally {
    closeSync(descriptor);
  }
  output.err(
    `Exported ${String(count)} request${count === 1 ? '' : 's'} to ${target} (${options.format === 'jsonl' ? 'JSONL: the app imports it in Listener → Requests → Import…' : 'cURL commands; a signed one reads the secret from $LEDGERDESK_BASIC_SECRET'}). No secret is in it.`,
  );
  return 0;
}
