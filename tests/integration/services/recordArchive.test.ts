/**
 * Issue 34, item 6: an archive anyone can verify, with the real keychain (a throwaway
 * gnome-keyring under scripts/with-keyring.sh), real `ledger` processes and real files. A record
 * with reviews, notes and history is exported; the archive verifies in a process whose
 * environment has no Secret Service and no data folder; it is imported into an empty folder,
 * where `ledger review list` shows the same reviews and notes and `ledger audit verify` is ok. A
 * flipped byte anywhere (the header, an entry, the manifest, its signature) and a truncated
 * file fail verify naming what is wrong; a wrong passphrase and a non-empty folder are refused
 * with one sentence, and change nothing.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../../src/main/services/credentials/keyringSecretStore.ts';
import { RecoveryEscrow } from '../../../src/main/services/credentials/recoveryEscrow.ts';
import { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import { verifyArchiveBytes } from '../../../src/main/services/record/recordArchiveVerify.ts';
import { noKeychainEnv, runLedgerProcess } from '../shell/support/serveProcess.ts';
import { startBank, type RunningSandbox } from './support/sandboxBank.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';
if (!secretServiceHere) {
  process.stderr.write('record archive skipped: run it under sh scripts/with-keyring.sh (needs gnome-keyring).\n');
}

const PROFILE = 'Archive bank';
let sandbox: RunningSandbox;
let temp: { folder: string; remove: () => void };
let data: string;
let offline: string;
let archive: string;
let passphraseFile: string;
let env: NodeJS.ProcessEnv;
let reviewed: { ref: string; note: string | null; state: string }[] = [];

const ledger = (...args: string[]) => runLedgerProcess(args, env);

interface ListedReview {
  ref: string;
  review: { state: string; note: string | null } | null;
}

async function listed(folder: string): Promise<{ ref: string; note: string | null; state: string }[]> {
  const answer = await ledger('--data', folder, '--json', 'review', 'list', '--profile', PROFILE, '--limit', '100');
  expect(answer.code, answer.stderr).toBe(0);
  return (JSON.parse(answer.stdout) as { rows: ListedReview[] }).rows
    .map((row) => ({ ref: row.ref, note: row.review?.note ?? null, state: row.review?.state ?? '' }))
    .sort((a, b) => a.ref.localeCompare(b.ref));
}

describe.skipIf(!secretServiceHere)('a record archive', () => {
  beforeAll(async () => {
    sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 12 });
    temp = makeTempFolder('ledgerdesk-archive-test-');
    data = join(temp.folder, 'data');
    offline = join(temp.folder, 'offline');
    mkdirSync(offline);
    archive = join(temp.folder, 'record.ledgerarchive');
    passphraseFile = join(temp.folder, 'archive-passphrase.txt');
    writeFileSync(passphraseFile, 'correct horse battery staple\n', { mode: 0o600 });
    env = { ...process.env, LEDGERDESK_RECOVERY_KEY_FOLDER: offline };
    // The officer's work, made as the app makes it: the keychain, the recovery key on first use.
    const services = await LedgerServices.open({
      dataFolder: data,
      secretStore: new KeyringSecretStore(),
      escrow: new RecoveryEscrow(data, () => undefined, env),
      profileStorage: new FileProfileStorage(data),
      cacheWriter: 'inline',
    });
    try {
      const profile = await services.addProfile(
        { name: PROFILE, baseUrl: sandbox.baseUrl, authScheme: 'basic', keyId: sandbox.keyId, production: false },
        sandbox.keySecret,
      );
      const outcome = await services.sync.start({
        kind: 'pending-transactions',
        profileId: profile.id,
        accountId: sandbox.demo.accounts[0] ?? '',
      }).done;
      expect(outcome.state).toBe('done');
      const refs = (
        services.cache.database.prepare('SELECT row_key FROM pending_transactions ORDER BY id LIMIT 5').all() as {
          row_key: string;
        }[]
      ).map((row) => row.row_key);
      const given = [
        { refs: refs.slice(0, 2), disposition: 'cleared' as const, note: 'Payroll, as every month' },
        { refs: refs.slice(2, 4), disposition: 'flagged' as const, note: 'Asked the customer for the invoice' },
        { refs: refs.slice(4), disposition: 'escalated' as const, note: 'Sent to the BSA officer' },
      ];
      for (const each of given) {
        services.reviews.give({ profileId: profile.id, kind: 'pending-transaction', ...each });
      }
      // A second step of history on the first item.
      services.reviews.give({
        profileId: profile.id,
        kind: 'pending-transaction',
        refs: refs.slice(0, 1),
        disposition: 'flagged',
        note: 'On second thought: the amount is new',
      });
      await services.cache.audit.settled();
    } finally {
      await services.close();
    }
    reviewed = await listed(data);
    expect(reviewed).toHaveLength(5);
  });

  afterAll(async () => {
    await sandbox.close();
    temp.remove();
  });

  it('is exported, signed, and verified on a machine with no keychain and no data folder', async () => {
    const exported = await ledger(
      '--data',
      data,
      'record',
      'export',
      archive,
      '--archive-passphrase-file',
      passphraseFile,
    );
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/^Archived the officer's record to .*: 5 reviews, 6 steps of history/);
    const fingerprint = /Signed by the record's key ([0-9a-f ]{39})/.exec(exported.stdout)?.[1];
    expect(fingerprint).toBeDefined();
    // The notes are sealed: none of them stands in the file.
    const text = readFileSync(archive, 'utf8');
    expect(text).not.toContain('Payroll');
    expect(text).not.toContain('invoice');

    const elsewhere = join(temp.folder, 'auditor');
    mkdirSync(elsewhere);
    const auditorEnv = noKeychainEnv(offline, { HOME: elsewhere, XDG_CONFIG_HOME: elsewhere });
    const verified = await runLedgerProcess(['audit', 'verify', '--archive', archive], auditorEnv);
    expect(verified.stderr).toBe('');
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('The archive verifies: 5 reviews, 6 steps of history');
    expect(verified.stdout).toContain(`Signed by the record's key ${fingerprint ?? ''}`);
    // Nothing was made where the auditor ran it: no data folder, no key.
    expect(readdirSync(elsewhere)).toEqual([]);

    const deep = await runLedgerProcess(
      ['--json', 'audit', 'verify', '--archive', archive, '--archive-passphrase-file', passphraseFile],
      auditorEnv,
    );
    expect(deep.code, deep.stdout + deep.stderr).toBe(0);
    const answer = JSON.parse(deep.stdout) as { ok: boolean; macsChecked: boolean; counts: { reviews: number } };
    expect(answer).toMatchObject({ ok: true, macsChecked: true, counts: { reviews: 5 } });
  });

  it('fails verify for a byte flipped in the header, an entry, the manifest or its signature, naming where', async () => {
    const bytes = readFileSync(archive);
    const lines = bytes.toString('utf8').split('\n');
    const lineStart = (index: number) =>
      lines.slice(0, index).reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
    const flipped = (at: number) => {
      const copy = Buffer.from(bytes);
      copy[at] = (copy[at] ?? 0) ^ 0x01;
      return verifyArchiveBytes(archive, copy).verification;
    };
    // The header: its record id.
    const header = flipped(lineStart(0) + Buffer.from(lines[0] ?? '').indexOf('recordId') + 12);
    expect(header.ok).toBe(false);
    expect(header.problem?.message).toMatch(/its header \(line 1\) does not match/);
    // A review: its state column, in words.
    const reviewLine = lines.findIndex((line) => line.includes('"t":"review"'));
    const review = flipped(lineStart(reviewLine) + Buffer.from(lines[reviewLine] ?? '').indexOf('"state":"') + 9);
    expect(review.problem?.message).toMatch(
      new RegExp(`entry ${String(reviewLine)} \\(review of .+ on \\d{4}-\\d{2}-\\d{2}\\) does not match`),
    );
    expect(review.problem?.entry).toBe(reviewLine);
    // An audit entry.
    const auditLine = lines.findIndex((line) => line.includes('"t":"audit"'));
    const audit = flipped(lineStart(auditLine) + Buffer.from(lines[auditLine] ?? '').indexOf('"action":"') + 11);
    expect(audit.problem?.message).toMatch(new RegExp(`entry ${String(auditLine)} \\(audit log entry #1, `));
    // The manifest's head, and its signature.
    const manifestLine = lines.length - 2;
    const head = flipped(lineStart(manifestLine) + Buffer.from(lines[manifestLine] ?? '').indexOf('"head":"') + 9);
    expect(head.problem?.message).toMatch(/its manifest \(the last line\) does not match its \d+ entries/);
    // One character of the signature changed to another base64 character (a flipped bit can make
    // one that is not base64 at all, and then the line is no manifest: said otherwise, above).
    const signatureAt = lineStart(manifestLine) + Buffer.from(lines[manifestLine] ?? '').indexOf('"signature":"') + 14;
    const changedSignature = Buffer.from(bytes);
    changedSignature[signatureAt] = changedSignature[signatureAt] === 0x41 ? 0x42 : 0x41;
    const signature = verifyArchiveBytes(archive, changedSignature).verification;
    expect(signature.problem?.message).toMatch(/manifest's signature does not hold/);
    // And every byte of the file, one at a time: none is flipped unnoticed.
    for (let at = 0; at < bytes.length; at += 1) {
      expect(flipped(at).ok, `a byte flipped at ${String(at)}`).toBe(false);
    }
    // As a process: exit 1 and the sentence.
    const damaged = join(temp.folder, 'damaged.ledgerarchive');
    const copy = Buffer.from(bytes);
    const at = lineStart(reviewLine) + Buffer.from(lines[reviewLine] ?? '').indexOf('"state":"') + 9;
    copy[at] = (copy[at] ?? 0) ^ 0x01;
    writeFileSync(damaged, copy);
    const refused = await runLedgerProcess(['audit', 'verify', '--archive', damaged], noKeychainEnv(offline));
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(new RegExp(`entry ${String(reviewLine)} \\(review of .+\\) does not match`));
  });

  it('fails verify for a truncated file, and an empty one', () => {
    const bytes = readFileSync(archive);
    for (const length of [bytes.length - 1, Math.floor(bytes.length / 2), 40]) {
      const cut = verifyArchiveBytes(archive, bytes.subarray(0, length)).verification;
      expect(cut.ok).toBe(false);
      expect(cut.problem?.message).toMatch(/cut short|does not match/);
    }
    // Cut at a line's end: every entry there still matches, and the manifest is gone.
    const lastNewline = bytes.subarray(0, bytes.length - 1).lastIndexOf(0x0a);
    const atLine = verifyArchiveBytes(archive, bytes.subarray(0, lastNewline + 1)).verification;
    expect(atLine.problem?.message).toMatch(/without its manifest: the file was cut short/);
    expect(verifyArchiveBytes(archive, Buffer.alloc(0)).verification.problem?.message).toMatch(/the file is empty/);
  });

  it('refuses a wrong passphrase, and an import into a folder that is not empty, changing nothing', async () => {
    const wrong = join(temp.folder, 'wrong.txt');
    writeFileSync(wrong, 'not the passphrase at all\n');
    const verify = await runLedgerProcess(
      ['audit', 'verify', '--archive', archive, '--archive-passphrase-file', wrong],
      noKeychainEnv(offline),
    );
    expect(verify.code).toBe(1);
    expect(verify.stderr).toMatch(/That passphrase does not open this archive's sealed notes: nothing was changed/);

    const empty = join(temp.folder, 'refused-import');
    const importWrong = await ledger('--data', empty, 'record', 'import', archive, '--archive-passphrase-file', wrong);
    expect(importWrong.code).toBe(1);
    expect(importWrong.stderr).toMatch(/That passphrase does not open/);
    expect(readdirSync(empty).filter((name) => name !== 'writer.lock')).toEqual([]);

    const busy = join(temp.folder, 'busy');
    mkdirSync(busy);
    writeFileSync(join(busy, 'notes.txt'), 'mine');
    const refused = await ledger(
      '--data',
      busy,
      'record',
      'import',
      archive,
      '--archive-passphrase-file',
      passphraseFile,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /is not empty \(it holds notes\.txt\): an archive is imported only into an empty data folder/,
    );
    expect(readdirSync(busy).filter((name) => name !== 'writer.lock')).toEqual(['notes.txt']);
  });

  it('is imported into an empty folder with the recovery key: the same reviews and notes, and audit verify ok', async () => {
    const recoveryKey = join(
      offline,
      readdirSync(offline).find((name) => name.startsWith('ledgerdesk-recovery-key')) ?? '',
    );
    const restored = join(temp.folder, 'restored');
    const imported = await ledger('--data', restored, 'record', 'import', archive, '--recovery-key', recoveryKey);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/^Imported the archive into .*: 5 reviews, 6 steps of history/);
    expect(await listed(restored)).toEqual(reviewed);
    const verified = await ledger('--data', restored, 'audit', 'verify');
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/^The audit log verifies: /);
    // The import is said in the restored log, and the export in the original's.
    const actions = async (folder: string) =>
      (
        JSON.parse((await ledger('--data', folder, '--json', 'audit', '--limit', '200')).stdout) as {
          rows: { action: string }[];
        }
      ).rows.map((row) => row.action);
    expect(await actions(restored)).toContain('record.import');
    expect(await actions(data)).toContain('record.export');
    // The original folder is untouched by the import on the same keychain.
    expect(await listed(data)).toEqual(reviewed);
    const original = await ledger('--data', data, 'audit', 'verify');
    expect(original.code, original.stdout + original.stderr).toBe(0);
  });
});
