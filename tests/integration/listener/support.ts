/** Shared pieces of the listener's integration tests: a listener on a real SQLite file, and raw HTTP on loopback. */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type Agent, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import type { BankPort } from '../../../src/main/services/listener/bankPort.ts';
import type { Batch } from '../../../src/main/services/listener/eventBatcher.ts';
import { openListener, type Listener, type ListenerEvent } from '../../../src/main/services/listener/listener.ts';
import { openListenerDatabase } from '../../../src/main/services/listener/listenerDatabase.ts';

export interface TestListener {
  listener: Listener;
  database: DatabaseSync;
  file: string;
  folder: string;
  secrets: InMemorySecretStore;
  url: string;
  port: number;
  batches: Batch<ListenerEvent>[];
  close(): Promise<void>;
}

export function temporaryFolder(): { folder: string; remove(): void } {
  const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-listener-'));
  return {
    folder,
    remove: () => {
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** A started listener on a fresh database file (or the given folder's), on any free loopback port. */
export async function startTestListener(
  options: {
    folder?: string;
    settings?: Record<string, unknown>;
    basic?: { user: string; secret: string };
    secrets?: InMemorySecretStore;
    bank?: BankPort;
    port?: number;
    start?: boolean;
  } = {},
): Promise<TestListener> {
  const temporary = options.folder === undefined ? temporaryFolder() : null;
  const folder = options.folder ?? (temporary as { folder: string }).folder;
  const file = join(folder, 'listener.sqlite');
  const opened = openListenerDatabase(file);
  const database = opened.database;
  const secrets = options.secrets ?? new InMemorySecretStore();
  const listener = await openListener({ database, secrets, bank: options.bank ?? null, batching: { flushMs: 5 } });
  const batches: Batch<ListenerEvent>[] = [];
  listener.on('batch', (batch) => batches.push(batch));
  if (options.settings !== undefined) listener.configure(options.settings);
  if (options.basic !== undefined) await listener.setCredentials(options.basic.user, options.basic.secret);
  const state = options.start === false ? null : await listener.start({ port: options.port ?? 0 });
  return {
    listener,
    database,
    file,
    folder,
    secrets,
    url: state?.url ?? '',
    port: state?.port ?? 0,
    batches,
    async close() {
      await listener.close();
      await opened.close();
      temporary?.remove();
    },
  };
}

export function basicHeader(user: string, secret: string): string {
  return 'Basic ' + Buffer.from(`${user}:${secret}`, 'utf8').toString('base64');
}

export function notificationOf(id: string, event = 'ach.update', base = 'http://127.0.0.1:1') {
  const [resource, op] = event.split('.') as [string, string];
  return { event, op, id, url: `${base}/${resource}/${id}` };
}

export interface Answered {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  requestId: number;
}

/** One request with node:http; resolves with the answer, rejects when the connection fails. */
export function send(
  url: string,
  options: {
    method?: string;
    headers?: Record<string, string | number | string[]>;
    body?: string | Buffer;
    agent?: Agent | false;
  } = {},
): Promise<Answered> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method: options.method ?? 'POST', headers: options.headers ?? {}, agent: options.agent ?? false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString(),
            requestId: Number(response.headers['x-ledgerdesk-request'] ?? 0),
          });
        });
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

export function postNotification(
  url: string,
  notification: unknown,
  headers: Record<string, string> = {},
  agent?: Agent,
): Promise<Answered> {
  return send(url, {
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(notification),
    ...(agent === undefined ? {} : { agent }),
  });
}

/** Write raw bytes on a socket and collect whatever comes back until the server closes it. */
export function rawExchange(port: number, bytes: Buffer | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => {
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.on('error', (error) => {
      if (chunks.length > 0) resolve(Buffer.concat(chunks).toString('latin1'));
      else reject(error);
    });
    socket.write(bytes);
  });
}

/** Wait until `check` holds, re-checking as events arrive; bounded by a number of rounds, not by a clock. */
export async function eventually(check: () => boolean, rounds = 2000): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('The condition never held.');
}

export function requestEvents(batches: Batch<ListenerEvent>[]) {
  return batches.flatMap((batch) => batch.items.flatMap((item) => (item.type === 'request' ? [item.request] : [])));
}
