/**
 * `ledger screening import FILE` while `npm run listen` holds the data folder, with real
 * processes: the command is run by the listener (which has its own working folder), so the
 * FILE given relative to this terminal is made absolute before it is sent; the listener reads
 * the file this terminal meant, and the list is there.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runNode } from '../services/support/childProcess.ts';
import { makeTempFolder } from '../services/support/tempFolder.ts';
import { noKeychainEnv } from './support/serveProcess.ts';

const LISTEN = join(process.cwd(), 'src', 'main', 'cli', 'listen', 'listen.ts');
const LEDGER = join(process.cwd(), 'src', 'main', 'cli', 'ledger', 'ledger.ts');
const FIXTURES = join(process.cwd(), 'tests', 'fixtures', 'screening');
let temp: { folder: string; remove: () => void };
let data: string;
let passphrase: string;
let env: NodeJS.ProcessEnv;
let listener: ReturnType<typeof spawn> | null = null;

beforeEach(() => {
  temp = makeTempFolder();
  data = join(temp.folder, 'data');
  const offline = join(temp.folder, 'offline');
  mkdirSync(offline);
  env = noKeychainEnv(offline);
  passphrase = join(temp.folder, 'passphrase');
  writeFileSync(passphrase, 'the listener test passphrase\n', { mode: 0o600 });
});

afterEach(() => {
  listener?.kill('SIGKILL');
  listener = null;
  temp.remove();
});

/** `npm run listen` on the folder, from another working folder; resolves once it listens. */
function startListener(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LISTEN, '--data', data, '--port', '0'], {
      env,
      cwd: temp.folder,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    listener = child;
    let said = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      said += chunk;
      if (said.includes('Listening on')) resolve();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (said += chunk));
    child.once('exit', (code) => {
      reject(new Error(`the listener ended (${String(code)}) before it listened: ${said}`));
    });
  });
}

function ledgerIn(cwd: string, args: string[]) {
  return runNode([LEDGER, '--data', data, '--passphrase-file', passphrase, ...args], { env, cwd });
}

describe('ledger screening import while npm run listen holds the data folder', () => {
  it('sends the file as this terminal named it, made absolute, and the listener imports it', async () => {
    await startListener();
    const imported = await ledgerIn(FIXTURES, ['screening', 'import', 'SDN.XML']);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/^Imported OFAC SDN of 2025-03-14 \(sha256 [0-9a-f]{12}…\): 4 entries/);
    const lists = await ledgerIn(temp.folder, ['--json', 'screening', 'lists']);
    expect(lists.code).toBe(0);
    expect((JSON.parse(lists.stdout) as { lists: { source: string }[] }).lists.map((list) => list.source)).toEqual([
      'ofac-sdn',
    ]);
  });
});
