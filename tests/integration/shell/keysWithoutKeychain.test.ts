/**
 * Issue 34, items 2 and 3, the README's web-mode path on a machine without a keychain, with real
 * processes: web mode keeps its keys in the data folder's key file under a passphrase (file
 * given), so every review survives a restart; `ledger` against the folder while web mode runs is
 * run by web mode over its control socket (never a second writer, never a reset), and
 * `ledger serve --token` gets a new sign-in address from it; a wrong passphrase changes nothing;
 * after the passphrase is lost, `ledger record recover` with the recovery key brings the
 * reviews back.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempFolder } from '../services/support/tempFolder.ts';
import {
  noKeychainEnv,
  runLedgerProcess,
  runServeToEnd,
  startServe,
  type RunningServe,
} from './support/serveProcess.ts';
import { reviewedRefs, reviewTwo } from './support/reviews.ts';

let temp: { folder: string; remove: () => void };
let data: string;
let recoveryFolder: string;
let passphraseFile: string;
let env: NodeJS.ProcessEnv;
const running: RunningServe[] = [];

beforeEach(() => {
  temp = makeTempFolder();
  data = join(temp.folder, 'data');
  recoveryFolder = join(temp.folder, 'offline');
  mkdirSync(recoveryFolder);
  passphraseFile = join(temp.folder, 'passphrase');
  writeFileSync(passphraseFile, 'correct horse battery staple\n', { mode: 0o600 });
  env = noKeychainEnv(recoveryFolder);
});

afterEach(async () => {
  for (const serve of running.splice(0)) await serve.stop();
  temp.remove();
});

async function serve(passphrase: string = passphraseFile): Promise<RunningServe> {
  const started = await startServe(['--data', data, '--passphrase-file', passphrase], env);
  running.push(started);
  return started;
}

async function stop(started: RunningServe): Promise<string[]> {
  running.splice(running.indexOf(started), 1);
  const { code, lines } = await started.stop();
  expect(code).toBe(0);
  return lines;
}

function ledger(...args: string[]) {
  return runLedgerProcess(['--data', data, ...args], env);
}

describe('web mode without a keychain', () => {
  it('keeps every review across restarts in the key file, and ledger is run by the web mode that holds the folder', async () => {
    const first = await serve();
    expect(first.stderr()).toMatch(/Made the key file .*keys\.json/);
    // The recovery key: shown once on serve's terminal, written 0600 outside the data folder.
    // Printed once the services are up (after the open line since issue 36, still after it).
    expect(await first.stderrMatching(/ledgerdesk-recovery-key-v1:/)).toMatch(
      /ledgerdesk-recovery-key-v1:[A-Za-z0-9_-]+/,
    );
    const recoveryFiles = readdirSync(recoveryFolder);
    expect(recoveryFiles).toHaveLength(1);
    expect(statSync(join(recoveryFolder, recoveryFiles[0] ?? '')).mode & 0o777).toBe(0o600);
    const keyFile = join(data, 'keys.json');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFile, 'utf8')).toMatch(/"N": 131072/);

    const lock = JSON.parse(readFileSync(join(data, 'writer.lock'), 'utf8')) as { shell: string; socket: string };
    expect(lock.shell).toBe('web');
    expect(statSync(lock.socket).mode & 0o777).toBe(0o600);

    const refs = await reviewTwo(ledger);
    expect(await reviewedRefs(ledger)).toEqual([...refs].sort());
    // Each command was run by web mode (its process holds the lock throughout), not beside it.
    expect(JSON.parse(readFileSync(join(data, 'writer.lock'), 'utf8'))).toMatchObject({ pid: first.child.pid });

    // issue 35 W1: a new one-time sign-in address from the running web mode.
    const token = await runServeToEnd(['--token', '--data', data], env);
    expect(token.code, token.stderr).toBe(0);
    expect(token.stdout).toContain(`Sign in to Ledgerdesk at ${first.open.origin}/?`);
    expect(token.stdout).not.toContain(first.open.url);

    const stopped = await stop(first);
    expect(stopped.at(-1)).toBe('{"event":"stopped"}');

    const second = await serve();
    expect(second.stderr()).toMatch(/Unlocked the key file/);
    // No second recovery key: the first one still opens everything.
    expect(readdirSync(recoveryFolder)).toHaveLength(1);
    expect(await reviewedRefs(ledger)).toEqual([...refs].sort());
    const verified = await ledger('audit', 'verify');
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    await stop(second);
  });

  it('refuses a wrong passphrase in one sentence and changes nothing', async () => {
    await stop(await serve());
    const keyFile = join(data, 'keys.json');
    const before = readFileSync(keyFile);
    const wrong = join(temp.folder, 'wrong');
    writeFileSync(wrong, 'not the passphrase at all\n', { mode: 0o600 });
    const refused = await runServeToEnd(['--no-open', '--data', data, '--passphrase-file', wrong], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/That passphrase does not open .*keys\.json: nothing was changed\./);
    expect(readFileSync(keyFile).equals(before)).toBe(true);
    // And the folder is free again: the right passphrase opens it.
    await stop(await serve());
  });

  it('brings the reviews back with the recovery key after the passphrase is lost', async () => {
    const first = await serve();
    const refs = await reviewTwo(ledger);
    await stop(first);
    const recoveryKey = join(recoveryFolder, readdirSync(recoveryFolder)[0] ?? '');

    // The passphrase is forgotten: its key file cannot be opened by anyone.
    const newPassphrase = join(temp.folder, 'new-passphrase');
    writeFileSync(newPassphrase, 'a brand new passphrase here\n', { mode: 0o600 });
    const recovered = await ledger(
      'record',
      'recover',
      '--recovery-key',
      recoveryKey,
      '--passphrase-file',
      newPassphrase,
    );
    expect(recovered.stderr).toBe('');
    expect(recovered.code).toBe(0);
    // Every key the escrow holds (the cache's, the audit chain's, and the record's where it has one).
    const escrowed = Object.keys(
      (JSON.parse(readFileSync(join(data, 'recovery-escrow.json'), 'utf8')) as { entries: Record<string, unknown> })
        .entries,
    );
    expect(recovered.stdout).toMatch(
      new RegExp(
        `^Recovered ${String(escrowed.length)} keys \\(.*the audit log's chain key.*\\) into a new key file\\.`,
      ),
    );
    expect(readdirSync(data).some((name) => name.startsWith('keys.json.lost-'))).toBe(true);

    const after = await serve(newPassphrase);
    expect(await reviewedRefs(ledger)).toEqual([...refs].sort());
    await stop(after);
  });
});
