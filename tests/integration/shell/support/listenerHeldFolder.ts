/**
 * A data folder held by a real `npm run listen`, for tests of `ledger` while the listener is the
 * folder's one writer: no keychain (the folder's keys in a key file under a passphrase file), a
 * fresh folder per test, the listener killed after it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { makeTempFolder } from '../../services/support/tempFolder.ts';
import { noKeychainEnv } from './serveProcess.ts';

const LISTEN = join(process.cwd(), 'src', 'main', 'cli', 'listen', 'listen.ts');

export interface ListenerHeldFolder {
  temp: { folder: string; remove: () => void };
  data: string;
  passphrase: string;
  env: NodeJS.ProcessEnv;
  listener: ChildProcess | null;
}

/** Registers the per-test folder and the listener's end; the fields are set before each test. */
export function listenerHeldFolder(): ListenerHeldFolder {
  const held = { listener: null } as ListenerHeldFolder;
  beforeEach(() => {
    held.temp = makeTempFolder();
    held.data = join(held.temp.folder, 'data');
    const offline = join(held.temp.folder, 'offline');
    mkdirSync(offline);
    held.env = noKeychainEnv(offline);
    held.passphrase = join(held.temp.folder, 'passphrase');
    writeFileSync(held.passphrase, 'the listener test passphrase\n', { mode: 0o600 });
  });
  afterEach(() => {
    held.listener?.kill('SIGKILL');
    held.listener = null;
    held.temp.remove();
  });
  return held;
}

/** `npm run listen` on the folder (from `cwd`, the test's folder by default); its pid once it listens. */
export function startListener(held: ListenerHeldFolder, cwd: string = held.temp.folder): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LISTEN, '--data', held.data, '--port', '0'], {
      env: held.env,
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    held.listener = child;
    let said = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      said += chunk;
      if (said.includes('Listening on')) resolve(child.pid ?? 0);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
    child.once('exit', (code) => {
      reject(new Error(`the listener ended (${String(code)}) before it listened: ${said}`));
    });
  });
}
