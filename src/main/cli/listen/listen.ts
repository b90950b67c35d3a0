/**
 * `npm run listen`: the listener on its own, in a terminal. It keeps requests in its own
 * database file in the data folder, prints the address to give the bank, then one line per
 * request. Credentials and rules are exactly what the command line says, for this run only;
 * the secret stays in memory. Ctrl+C stops it cleanly: open connections are closed and
 * everything received is already on disk.
 */
import { join } from 'node:path';
import { InMemorySecretStore } from '../../services/credentials/secretStore.ts';
import { humanDeliveryLineOf, humanLineOf, jsonLineOf, pairingLineOf } from './cliOutput.ts';
import { SendLogPairing } from '../../services/listener/sendLogPairing.ts';
import { refusalLineOf } from '../../services/listener/refusal.ts';
import { LISTEN_USAGE, readListenArguments, type ListenArguments } from './cliArguments.ts';
import { dataFolderOf } from '../common/commonOptions.ts';
import { UsageError } from '../common/usageError.ts';
import { ExposureRefusedError, PortTakenError } from '../../services/listener/listenAddress.ts';
import { openListener, type Listener } from '../../services/listener/listener.ts';
import { TargetRefused } from '../../services/listener/outboundTargets.ts';
import { ListenerUserError } from '../../services/listener/listenerUserError.ts';
import { LISTENER_DATABASE_FILE, openListenerDatabase } from '../../services/listener/listenerDatabase.ts';
import type { ListenerBank, RegisteredWebhook } from './cliBank.ts';
import { KEPT_TRAFFIC_COMMANDS, runKeptTrafficCommand, type KeptTrafficCommand } from './keptTrafficCommands.ts';
import { EVENT_CATALOG } from '../../../shared/eventCatalog/eventCatalog.ts';
import { defaultOutbound } from '../../services/http/defaultOutbound.ts';
import { DataFolderInUse, lockDataFolder, type DataFolderLock } from '../../app/dataFolderLock.ts';
import { startControlServer } from '../../app/controlSocket.ts';
import { runHostedLedger } from '../../app/hostedLedger.ts';
import { openDataFolderSecrets } from '../../app/dataFolderSecrets.ts';

function write(line: string): void {
  process.stdout.write(line + '\n');
}

function tell(line: string): void {
  process.stderr.write(line + '\n');
}

async function configure(listener: Listener, options: ListenArguments, bank: ListenerBank | null): Promise<void> {
  listener.setBank(bank?.port ?? null);
  if (options.basic === null) await listener.clearCredentials();
  else await listener.setCredentials(options.basic.user, options.basic.secret);
  listener.setRules(options.rule === null ? [] : [options.rule]);
  // Typed on the command line by the user: that is the confirmation another host needs.
  if (options.forwardTo !== null) listener.allowTarget(options.forwardTo);
  listener.configure({
    forwardTo: options.forwardTo,
    forwardAppendPath: options.forwardAppendPath,
    forwardUnverified: !options.forwardVerifiedOnly,
    allowedHosts: options.allowedHosts,
    allowedOrigins: options.allowedOrigins,
    rejectUnverified: options.rejectUnverified,
    // Each verified notification's url is fetched from the --profile's bank; without one, nothing to hydrate from.
    hydrate: bank !== null,
    publicUrl: options.publicUrl,
    tls: options.tls,
    ...(options.maxBodyBytes === undefined ? {} : { maxBodyBytes: options.maxBodyBytes }),
    ...(options.bodyTimeoutMs === undefined ? {} : { bodyTimeoutMs: options.bodyTimeoutMs }),
  });
}

/** Ctrl+C (or SIGTERM) asks to stop; a second one stops at once. Listened for from the start, so none is missed. */
const stopRequested = new Promise<void>((resolve) => {
  let stopping = false;
  const stop = (): void => {
    if (stopping) process.exit(130);
    stopping = true;
    resolve();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
});

async function main(): Promise<number> {
  const first = process.argv[2];
  if (KEPT_TRAFFIC_COMMANDS.includes(first as KeptTrafficCommand)) {
    // inspect, replay, export: read what was kept; no server is started.
    return runKeptTrafficCommand(process.argv.slice(2), { out: write, err: tell });
  }
  let options: ListenArguments;
  try {
    options = readListenArguments(process.argv.slice(2));
  } catch (error) {
    if (error instanceof UsageError) {
      tell(`listen: ${error.message}\n\n${LISTEN_USAGE}`);
      return 2;
    }
    throw error;
  }
  if (options.help) {
    write(LISTEN_USAGE);
    return 0;
  }
  const dataFolder = dataFolderOf(options.dataFolder);
  // One writer per data folder (issue 34): the listener holds it while it runs, as the app does.
  let lock: DataFolderLock;
  try {
    lock = lockDataFolder(dataFolder, 'listener');
  } catch (error) {
    if (!(error instanceof DataFolderInUse)) throw error;
    tell(`listen: ${error.message}`);
    return 1;
  }
  try {
    return await listenOnFolder(dataFolder, options, lock);
  } finally {
    lock.release();
  }
}

async function listenOnFolder(dataFolder: string, options: ListenArguments, lock: DataFolderLock): Promise<number> {
  let bank: ListenerBank | null = null;
  if (options.profile !== null) {
    // Loaded only when asked for: a listener without a bank opens no keychain and no cache.
    const { openListenerBank } = await import('./cliBank.ts');
    try {
      const { store } = await openDataFolderSecrets(dataFolder, {
        file: options.passphraseFile,
        env: process.env,
        terminal: { stdin: process.stdin, prompt: process.stderr },
      });
      bank = await openListenerBank(dataFolder, options.profile, store);
    } catch (error) {
      tell(`listen: ${error instanceof Error ? error.message : String(error)}`);
      return 2;
    }
  }
  const opened = openListenerDatabase(join(dataFolder, LISTENER_DATABASE_FILE));
  const listener = await openListener({
    database: opened.database,
    secrets: new InMemorySecretStore(),
    listenerId: options.listenerId,
    batching: { flushMs: 20 },
    // Forwards without --profile follow HTTPS_PROXY / HTTP_PROXY / NO_PROXY, as curl does.
    outbound: defaultOutbound({ environment: process.env, systemResolver: null }),
  });
  let registered: RegisteredWebhook[] = [];
  // With a bank, each verified arrival is also paired with the bank's send log: its word on retry or new event.
  const pairing =
    bank === null
      ? null
      : new SendLogPairing(bank.port, {
          webhookFor: (event) => registered.find((webhook) => webhook.event === event)?.id ?? null,
        });
  listener.on('batch', ({ items, dropped }) => {
    if (dropped > 0) tell(`(${dropped} lines skipped: the terminal fell behind; every request is kept)`);
    for (const event of items) {
      if (event.type === 'request') {
        write(options.json ? jsonLineOf(event.request) : humanLineOf(event.request));
        const request = event.request;
        if (options.printBody) write(bodyLinesOf(listener, request.id, options.json));
        void pairing?.pair(request)?.then((result) => {
          write(
            options.json
              ? JSON.stringify({ pairing: { requestId: request.id, ...result } })
              : pairingLineOf(request.id, result),
          );
        });
      } else if (event.type === 'delivery') {
        const line = humanDeliveryLineOf(event.delivery);
        if (options.json) tell(line);
        else write(line);
      } else if (event.type === 'refused') {
        write(options.json ? JSON.stringify({ refused: event.refusal }) : refusalLineOf(event.refusal));
      } else if (event.type === 'snapshot') {
        if (options.json) write(JSON.stringify({ snapshot: event }));
        else write(snapshotLineOf(event));
      } else if (event.type === 'warning' || event.type === 'failure') tell(`listen: ${event.message}`);
    }
  });

  let state;
  try {
    await configure(listener, options, bank);
    state = await listener.start({
      ...(options.port === undefined ? {} : { port: options.port }),
      ...(options.host === undefined ? {} : { host: options.host }),
      allowNonLoopback: options.expose,
    });
  } catch (error) {
    await listener.close();
    await opened.close();
    await bank?.close();
    if (
      error instanceof PortTakenError ||
      error instanceof ExposureRefusedError ||
      error instanceof TargetRefused ||
      error instanceof ListenerUserError
    ) {
      tell(`listen: ${error.message}`);
      return 2;
    }
    if (error instanceof Error && error.name === 'ZodError') {
      tell(`listen: invalid option: ${error.message}`);
      return 2;
    }
    throw error;
  }
  const url = state.url ?? '';
  if (options.json) write(JSON.stringify({ listening: url }));
  else {
    const basic = listener.credentialsConfigured
      ? `expects Basic user "${options.basic?.user ?? ''}"`
      : 'no Basic credentials expected (verdict: not_configured)';
    // This command has no keychain key to seal with (review N9): the banner says so.
    write(
      `Listening on ${url} (any path; ${basic}). Kept in ${dataFolder}, bodies and headers in clear ` +
        '(readable by your user only; the app seals them). Ctrl+C to stop.',
    );
    if (options.publicUrl !== null)
      write(`The bank reaches it at ${options.publicUrl} (its host is answered as the listener's own).`);
  }
  if (bank !== null && options.register !== null && options.basic !== null) {
    const events =
      options.register.events === 'all' ? EVENT_CATALOG.map((entry) => entry.event) : options.register.events;
    try {
      registered = await bank.register(events, options.publicUrl ?? url, options.basic, {
        allowHttp: options.register.allowHttp,
      });
    } catch (error) {
      tell(`listen: ${error instanceof Error ? error.message : String(error)}`);
      await listener.close();
      await opened.close();
      await bank.close();
      return 1;
    }
    if (options.json) write(JSON.stringify({ registered }));
    else {
      // Every webhook made is named with its own address (issue 38), not the first one's for all.
      const addresses = new Set(registered.map((webhook) => webhook.url));
      const one = addresses.size === 1 ? ` posting to ${registered[0]?.url ?? url}` : '';
      write(
        `Registered with ${bank.profile.name}: ${String(registered.length)} webhook${registered.length === 1 ? '' : 's'}${one} as Basic user "${options.basic.user}" (removed at Ctrl+C):`,
      );
      for (const webhook of registered)
        write(
          `  ${webhook.event.padEnd(28)} ${webhook.id}${addresses.size === 1 ? '' : `  posting to ${webhook.url}`}`,
        );
    }
  } else if (bank !== null && !options.json) {
    write(`Each verified notification's url is fetched from ${bank.profile.name}.`);
  }

  // `ledger` commands started while the listener runs are run here (one writer), on its bank's services.
  const control = await startControlServer(dataFolder, {
    ledger: (args, stdin) =>
      runHostedLedger(args, stdin, {
        services: bank?.services ?? null,
        secretStore: bank?.secretStore ?? null,
        env: process.env,
      }),
  }).catch((error: unknown) => {
    tell(
      `listen: control socket: ${error instanceof Error ? error.message : String(error)}; ledger commands are refused while it runs.`,
    );
    return null;
  });
  if (control !== null) lock.announceSocket(control.path);

  await stopRequested;
  await control?.close();
  if (bank !== null && registered.length > 0) {
    const { removed, failed } = await bank.unregister();
    if (options.json) write(JSON.stringify({ unregistered: removed, failed }));
    if (removed.length > 0 && !options.json)
      tell(
        `Removed the ${String(removed.length)} webhook${removed.length === 1 ? '' : 's'} registered at start: ${removed.map((webhook) => `${webhook.id} (${webhook.event})`).join(', ')}.`,
      );
    for (const { webhook, reason } of failed) {
      tell(
        `listen: webhook ${webhook.id} (${webhook.event}) is still at the bank: ${reason} Remove it with: npm run ledger -- webhooks remove ${webhook.id} --profile "${bank.profile.name}"`,
      );
    }
  }
  await listener.close();
  await opened.close();
  await bank?.close();
  if (!options.json) tell('Stopped. Every request received is kept.');
  return 0;
}

/** Control characters shown as `?`: a body cannot move the terminal's cursor or change its colours. */
function withoutControls(line: string): string {
  let shown = '';
  for (let index = 0; index < line.length; index += 1) {
    const code = line.charCodeAt(index);
    shown += (code < 0x20 && code !== 0x09) || code === 0x7f ? '?' : line.charAt(index);
  }
  return shown;
}

/** The kept body under its request line: text indented, anything else as base64; --json: one object. */
function bodyLinesOf(listener: Listener, requestId: number, json: boolean): string {
  const kept = listener.request(requestId);
  const text = kept?.bodyText ?? null;
  const base64 = kept?.bodyBase64 ?? null;
  if (json) return JSON.stringify({ body: { requestId, text, base64, truncated: kept?.bodyTruncated ?? false } });
  const shown = text ?? (base64 === null ? '(no body kept)' : `(not UTF-8; base64) ${base64}`);
  const cut = kept?.bodyTruncated === true ? '\n    (kept only in part)' : '';
  return (
    shown
      .split('\n')
      .map((line) => `    ${withoutControls(line)}`)
      .join('\n') + cut
  );
}

function snapshotLineOf(event: { requestId: number; ok: boolean; error: string | null }): string {
  return event.ok
    ? `  <- object of request ${String(event.requestId)} fetched from the bank (its url answered)`
    : `  <- object of request ${String(event.requestId)} not fetched: ${event.error ?? 'unknown failure'}`;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    tell(`listen: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
