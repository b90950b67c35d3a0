/**
 * Issue 34, the recovery key with a real keychain (a throwaway gnome-keyring under
 * scripts/with-keyring.sh) and real processes: web mode makes the recovery key on first use;
 * the keychain's entries of the record's keys are then lost; the next start makes no new key in
 * their place (the reviews would go with it) and `ledger` says how to get them back;
 * `ledger record recover --recovery-key FILE` puts them into the keychain, and the reviews are back.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../../src/main/services/credentials/keyringSecretStore.ts';
import { makeTempFolder } from '../services/support/tempFolder.ts';
import { runLedgerProcess, startServe, type RunningServe } from './support/serveProcess.ts';
import { reviewedRefs, reviewTwo } from './support/reviews.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';
if (!secretServiceHere) {
  process.stderr.write(
    'recovery with the keychain skipped: run it under sh scripts/with-keyring.sh (needs gnome-keyring).\n',
  );
}

let temp: { folder: string; remove: () => void };
let data: string;
let offline: string;
let env: NodeJS.ProcessEnv;
const running: RunningServe[] = [];

beforeEach(() => {
  temp = makeTempFolder();
  data = join(temp.folder, 'data');
  offline = join(temp.folder, 'offline');
  mkdirSync(offline);
  env = { ...process.env, LEDGERDESK_RECOVERY_KEY_FOLDER: offline, LEDGERDESK_SANDBOX_LEAN: '1' };
});

afterEach(async () => {
  for (const serve of running.splice(0)) await serve.stop();
  temp.remove();
});

async function serve(): Promise<RunningServe> {
  const started = await startServe(['--data', data], env);
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

describe.skipIf(!secretServiceHere)('the keychain entries of the record lost', () => {
  it('are not replaced by new keys, and come back with the recovery key, and the reviews with them', async () => {
    const first = await serve();
    expect(readdirSync(data)).not.toContain('keys.json');
    const refs = await reviewTwo(ledger);
    await stop(first);
    const recoveryKey = join(offline, readdirSync(offline)[0] ?? '');

    // The keychain loses every key the escrow holds (a new profile, a reinstalled machine).
    const escrowed = Object.keys(
      (JSON.parse(readFileSync(join(data, 'recovery-escrow.json'), 'utf8')) as { entries: Record<string, unknown> })
        .entries,
    );
    expect(escrowed.some((account) => account.startsWith('cache:data-key:'))).toBe(true);
    const keychain = new KeyringSecretStore();
    for (const account of escrowed) expect(await keychain.delete(account)).toBe(true);

    // The next start resets nothing: it says the keys are missing and how to get them back.
    const lost = await serve();
    const asked = await ledger('review', 'list', '--profile', 'Local sandbox');
    expect(asked.code).toBe(1);
    expect(asked.stderr).toMatch(
      /is missing from this machine's keychain \(or key file\), and nothing was reset: bring it back with `ledger record recover --recovery-key FILE`/,
    );
    const said = await stop(lost);
    const stopped = JSON.parse(said.at(-1) ?? '{}') as { event: string; atRisk?: string };
    expect(stopped.event).toBe('stopped');
    expect(stopped.atRisk).toMatch(/record did not open/);
    for (const account of escrowed) expect(await keychain.has(account)).toBe(false);

    const recovered = await ledger('record', 'recover', '--recovery-key', recoveryKey);
    expect(recovered.stderr).toBe('');
    expect(recovered.stdout).toMatch(new RegExp(`^Recovered ${String(escrowed.length)} keys .* into the keychain\\.`));

    const back = await serve();
    expect(await reviewedRefs(ledger)).toEqual([...refs].sort());
    const verified = await ledger('audit', 'verify');
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    await stop(back);
  });
});
