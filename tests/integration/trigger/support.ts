/**
 * The pieces of the trigger tests: `npm run listen` as a real child process (the listener a
 * developer runs), webhooks registered at the sandbox to reach it with Basic credentials, and
 * the services with the sandbox as the "Local sandbox" profile (as the app starts it).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { EMBEDDED_SANDBOX_PROFILE_ID } from '../../../src/main/services/profiles/profile.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import type { RunningSandbox } from '../../../src/sandbox/index.ts';
import { basicOf } from '../services/support/sandboxBank.ts';

const root = join(import.meta.dirname, '..', '..', '..');

export const LISTENER_USER = 'bank';
export const LISTENER_SECRET = 'trigger-test-secret';

/** One request as `listen --json` prints it. */
export interface HeardRequest {
  path: string;
  verdict: string;
  event: string | null;
  id: string | null;
  status: number | null;
  requestId: number;
}

export interface ListenProcess {
  url: string;
  folder: string;
  heard: HeardRequest[];
  /** Resolves with the first request (from `from` on) that `matches`; rejects if the process ends first. */
  waitFor(matches: (request: HeardRequest) => boolean, from?: number): Promise<HeardRequest>;
  /** The op the listener parsed from a request's body, from its own database. */
  opOf(requestId: number): string | null;
  stop(): Promise<void>;
}

export async function startListen(folder: string): Promise<ListenProcess> {
  const child: ChildProcessWithoutNullStreams = spawn(
    process.execPath,
    [
      join(root, 'src', 'main', 'cli', 'listen', 'listen.ts'),
      '--port',
      '0',
      '--json',
      '--data',
      folder,
      '--basic',
      `${LISTENER_USER}:${LISTENER_SECRET}`,
    ],
    { cwd: root, env: { ...process.env, NO_COLOR: '1' } },
  );
  const heard: HeardRequest[] = [];
  let url = '';
  let stderr = '';
  let pending = '';
  const wakers = new Set<() => void>();
  child.stderr.setEncoding('utf8').on('data', (text: string) => {
    stderr += text;
  });
  child.stdout.setEncoding('utf8').on('data', (text: string) => {
    pending += text;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      const value = JSON.parse(line) as Record<string, unknown>;
      if (typeof value.listening === 'string') url = value.listening;
      else heard.push(value as unknown as HeardRequest);
    }
    for (const wake of wakers) wake();
  });
  const exited = new Promise<void>((resolve) => {
    child.on('exit', () => {
      resolve();
    });
  });
  void exited.then(() => {
    for (const wake of wakers) wake();
  });

  async function until<Value>(find: () => Value | undefined): Promise<Value> {
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`listen ended: ${stderr}`);
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          wakers.delete(wake);
          resolve();
        };
        wakers.add(wake);
      });
    }
  }

  await until(() => (url === '' ? undefined : url));
  return {
    url,
    folder,
    heard,
    waitFor: (matches, from = 0) => until(() => heard.slice(from).find(matches)),
    opOf(requestId) {
      const database = new DatabaseSync(join(folder, 'listener.sqlite'), { readOnly: true });
      try {
        const row = database.prepare('SELECT op FROM listener_requests WHERE id = ?').get(requestId) as
          { op: string | null } | undefined;
        return row?.op ?? null;
      } finally {
        database.close();
      }
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
    },
  };
}

/** Registers a webhook for `event` at the listener, with the listener's Basic credentials. */
export async function subscribe(sandbox: RunningSandbox, listenUrl: string, event: string): Promise<string> {
  const answer = await fetch(`${sandbox.baseUrl}/webhook`, {
    method: 'POST',
    headers: { authorization: basicOf(sandbox), 'content-type': 'application/json' },
    body: JSON.stringify({
      event,
      url: `${listenUrl}/hooks/${event}`,
      basic_user: LISTENER_USER,
      basic_secret: LISTENER_SECRET,
    }),
  });
  if (!answer.ok) throw new Error(`POST /webhook ${event}: ${String(answer.status)} ${await answer.text()}`);
  return ((await answer.json()) as { id: string }).id;
}

/** The services with `sandbox` as the embedded "Local sandbox" profile, as the app runs it. */
export async function servicesOnEmbedded(sandbox: RunningSandbox, folder: string): Promise<LedgerServices> {
  const services = await LedgerServices.open({
    dataFolder: folder,
    secretStore: new InMemorySecretStore(),
    profileStorage: new FileProfileStorage(folder),
    embeddedBaseUrl: () => sandbox.baseUrl,
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
  });
  services.credentials.useSessionCredentials(
    EMBEDDED_SANDBOX_PROFILE_ID,
    sandbox.keyId,
    sandbox.keySecret,
    sandbox.baseUrl,
  );
  return services;
}
