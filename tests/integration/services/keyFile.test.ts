/**
 * The key file of a machine without a keychain (credentials/keyFile.ts, passphraseSecretStore.ts),
 * on real files: what it keeps survives a new process's unlock, nothing in it is in clear, an
 * entry copied under another name does not open, a wrong passphrase and a weak new one change
 * nothing, and the escrow (recoveryEscrow.ts) opens only with its own recovery key.
 */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WeakPassphrase, WrongPassphrase } from '../../../src/main/services/credentials/keyFile.ts';
import { PassphraseSecretStore } from '../../../src/main/services/credentials/passphraseSecretStore.ts';
import {
  KeyLostButRecoverable,
  openEscrow,
  readRecoveryKeyFile,
  RecoveryEscrow,
  RecoveryProblem,
  type RecoveryKeyMade,
} from '../../../src/main/services/credentials/recoveryEscrow.ts';
import { Credentials } from '../../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const PASSPHRASE = 'a long enough passphrase';
let temp: { folder: string; remove: () => void };
let data: string;

beforeEach(() => {
  temp = makeTempFolder();
  data = join(temp.folder, 'data');
  mkdirSync(data);
});

afterEach(() => {
  temp.remove();
});

describe('the key file', () => {
  it('keeps secrets sealed under the passphrase, 0600, across unlocks', async () => {
    const made = PassphraseSecretStore.create(data, PASSPHRASE);
    await made.set('profile:p1', 'the-profile-secret');
    await made.set('cache:data-key:c1', 'AAAAkeyBase64');
    expect(await made.delete('cache:data-key:c1')).toBe(true);
    const file = join(data, 'keys.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).not.toContain('the-profile-secret');
    expect(readdirSync(data)).toEqual(['keys.json']);
    const again = PassphraseSecretStore.unlock(data, PASSPHRASE);
    expect(await again.get('profile:p1')).toBe('the-profile-secret');
    expect(await again.has('cache:data-key:c1')).toBe(false);
    expect(() => PassphraseSecretStore.create(data, PASSPHRASE)).toThrow(/already exists/);
  });

  it('does not open an entry copied under another name', async () => {
    const store = PassphraseSecretStore.create(data, PASSPHRASE);
    await store.set('profile:p1', 'secret-one');
    const file = join(data, 'keys.json');
    const content = JSON.parse(readFileSync(file, 'utf8')) as { entries: Record<string, unknown> };
    content.entries['profile:p2'] = content.entries['profile:p1'];
    writeFileSync(file, JSON.stringify(content));
    expect(await PassphraseSecretStore.unlock(data, PASSPHRASE).get('profile:p2')).toBeNull();
  });

  it('refuses a wrong passphrase and a weak new one, changing nothing', () => {
    PassphraseSecretStore.create(data, PASSPHRASE);
    const before = readFileSync(join(data, 'keys.json'));
    expect(() => PassphraseSecretStore.unlock(data, 'not the passphrase')).toThrow(WrongPassphrase);
    expect(readFileSync(join(data, 'keys.json')).equals(before)).toBe(true);
    const other = join(temp.folder, 'other');
    mkdirSync(other);
    expect(() => PassphraseSecretStore.create(other, 'short')).toThrow(WeakPassphrase);
    expect(readdirSync(other)).toEqual([]);
  });
});

describe('the recovery escrow', () => {
  it('seals each key to the recovery key made on first use, and gives them back only to it', async () => {
    const offline = join(temp.folder, 'offline');
    mkdirSync(offline);
    const shown: RecoveryKeyMade[] = [];
    const escrow = new RecoveryEscrow(data, (made) => shown.push(made), { LEDGERDESK_RECOVERY_KEY_FOLDER: offline });
    const store = new InMemorySecretStore();
    const credentials = new Credentials(store, { escrow });
    const key = await credentials.createAuditChainKey('c1');
    const recordKey = await credentials.createRecordKey('r1');
    expect(shown).toHaveLength(1);
    expect(shown[0]?.file.startsWith(offline)).toBe(true);
    expect(statSync(shown[0]?.file ?? '').mode & 0o777).toBe(0o600);
    expect(readFileSync(join(data, 'recovery-escrow.json'), 'utf8')).not.toContain(key.toString('base64'));

    // The keychain entry is lost: no new key is made in its place, the way back is named.
    await store.delete('audit:chain-key:c1');
    await expect(credentials.readAuditChainKey('c1')).rejects.toThrow(KeyLostButRecoverable);
    const opened = openEscrow(data, readRecoveryKeyFile(shown[0]?.file ?? ''));
    expect(opened.get('audit:chain-key:c1')).toBe(key.toString('base64'));
    expect(opened.get('record-key:r1')).toBe(recordKey.toString('base64'));

    // Another folder's recovery key opens nothing here.
    const elsewhere = join(temp.folder, 'elsewhere');
    mkdirSync(elsewhere);
    const theirs: RecoveryKeyMade[] = [];
    const theirEscrow = new RecoveryEscrow(elsewhere, (made) => theirs.push(made), {
      LEDGERDESK_RECOVERY_KEY_FOLDER: offline,
    });
    await new Credentials(new InMemorySecretStore(), { escrow: theirEscrow }).createRecordKey('r2');
    expect(() => openEscrow(data, readRecoveryKeyFile(theirs[0]?.file ?? ''))).toThrow(RecoveryProblem);
  });
});
