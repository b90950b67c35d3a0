/**
 * Moving the officer's record out of a cache file made before issue 34 (record/recordCopy.ts):
 * once, in one transaction, every table checked row for row, the audit chain still verifying in
 * the record, and a kill -9 of a real child process at any moment losing nothing. Real files, a
 * real Secret Service (scripts/with-keyring.sh).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAuditLog } from '../../../src/main/services/audit/openAuditLog.ts';
import { OfflineCache } from '../../../src/main/services/cache/offlineCache.ts';
import {
  auditChainHeadAccount,
  auditChainKeyAccount,
  cacheDataKeyAccount,
  Credentials,
  recordKeyAccount,
} from '../../../src/main/services/credentials/credentials.ts';
import { KeyringSecretStore } from '../../../src/main/services/credentials/keyringSecretStore.ts';
import { copyRecordFromCache, recordCopiedFrom } from '../../../src/main/services/record/recordCopy.ts';
import { RECORD_FILE_NAME } from '../../../src/main/services/record/recordFile.ts';
import { RECORD_TABLES } from '../../../src/main/services/record/recordMigrations.ts';
import { RecordStore } from '../../../src/main/services/record/recordStore.ts';
import { ReviewService } from '../../../src/main/services/review/reviewService.ts';
import { pendingTransactionOf } from './support/records.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';
if (!secretServiceHere) {
  process.stderr.write(
    'record copy tests skipped: no throwaway Secret Service. Run them with: npm run test:integration -- tests/integration/services/recordCopy.test.ts\n',
  );
}

const PROFILE = 'prof_copy';
const ACCOUNT = 'acct_copy';
const CHILD = resolve(import.meta.dirname, 'support/recordCopyChild.ts');

describe.skipIf(!secretServiceHere)("the officer's record moved out of an old cache file", () => {
  const service = `Ledgerdesk-test-record-copy-${randomUUID()}`;
  const store = new KeyringSecretStore(service);
  const credentials = new Credentials(store);
  let temp: { folder: string; remove: () => void };
  let cacheId: string;
  let cacheFile: string;

  /** A cache as a pre-34 build leaves it: 1,000 items reviewed with notes, their audit entries. */
  async function makeOldFolder(): Promise<void> {
    const cache = await OfflineCache.open({ folder: temp.folder, credentials, writer: 'inline' });
    try {
      const { checkpoint } = cache.checkpoints.begin(
        PROFILE,
        'pending-transactions',
        ACCOUNT,
        '{}',
        new Date().toISOString(),
      );
      const rows = Array.from({ length: 1_000 }, (_, n) => pendingTransactionOf(ACCOUNT, n, 1_000));
      cache.transaction(() => {
        cache.pendingTransactions.writePage(PROFILE, ACCOUNT, rows, checkpoint.generation);
      });
      const refs = (
        cache.database.prepare('SELECT row_key FROM pending_transactions ORDER BY id').all() as { row_key: string }[]
      ).map((row) => row.row_key);
      const reviews = new ReviewService({ cache, profileName: () => 'Copy' });
      reviews.give({ profileId: PROFILE, kind: 'pending-transaction', refs, disposition: 'cleared', note: 'all seen' });
      reviews.give({
        profileId: PROFILE,
        kind: 'pending-transaction',
        refs: refs.slice(0, 100),
        disposition: 'flagged',
        note: 'looked again: these need a second look',
      });
      cacheId = (
        cache.database.prepare("SELECT value FROM cache_meta WHERE key = 'cache_id'").get() as { value: string }
      ).value;
      cacheFile = cache.file;
    } finally {
      await cache.close();
    }
  }

  function countsOf(file: string): Record<string, number> {
    const database = new DatabaseSync(file, { readOnly: true });
    try {
      return Object.fromEntries(
        RECORD_TABLES.map((table) => [
          table,
          (database.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n,
        ]),
      );
    } finally {
      database.close();
    }
  }

  beforeEach(async () => {
    temp = makeTempFolder('ledgerdesk-record-copy-');
    await makeOldFolder();
  });

  afterEach(async () => {
    for (const account of [cacheDataKeyAccount, auditChainKeyAccount, auditChainHeadAccount]) {
      await store.delete(account(cacheId));
    }
    const raw = new DatabaseSync(join(temp.folder, RECORD_FILE_NAME), { readOnly: true });
    const row = raw.prepare("SELECT value FROM record_meta WHERE key = 'record_id'").get() as
      { value: string } | undefined;
    raw.close();
    if (row !== undefined) await store.delete(recordKeyAccount(row.value));
    temp.remove();
  });

  it('copies every row once, checked, and the audit chain verifies in the record', async () => {
    const before = countsOf(cacheFile);
    expect(before['reviews']).toBe(1_000);
    expect(before['review_history']).toBe(1_100);
    const record = await RecordStore.open({ folder: temp.folder, credentials });
    try {
      const copy = copyRecordFromCache(record, cacheFile, cacheId);
      expect(copy.copied).toBe(true);
      expect(copy.rows).toEqual(before);
      expect(recordCopiedFrom(record)).toContain(cacheId);
      // Once: a second open copies nothing again.
      expect(copyRecordFromCache(record, cacheFile, cacheId)).toEqual({ copied: false, rows: {}, resealed: null });
      // The chain copied byte for byte verifies against its key and the keychain's anchor.
      const audit = await openAuditLog(record.database, credentials, cacheId);
      const verification = await audit.log.verify();
      expect(verification.problem).toBeNull();
      expect(verification.entries).toBe(before['audit_log']);
      await audit.log.close();
    } finally {
      record.close();
    }
    expect(countsOf(join(temp.folder, RECORD_FILE_NAME))).toEqual(before);
    // The cache still holds its rows: they leave it only with the cut-over's cache migration.
    expect(countsOf(cacheFile)).toEqual(before);
  });

  it('loses nothing when the copying process is killed with SIGKILL at any moment', async () => {
    const before = countsOf(cacheFile);
    const empty = Object.fromEntries(RECORD_TABLES.map((table) => [table, 0]));
    for (const delayMs of [0, 2, 5, 10, 20, 40]) {
      const child = spawn(process.execPath, [CHILD, temp.folder, cacheFile, cacheId, 'loop'], {
        env: { ...process.env, LEDGERDESK_TEST_KEYRING_SERVICE: service },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const exited = new Promise<NodeJS.Signals | null>((done) =>
        child.once('exit', (_code, signal) => {
          done(signal);
        }),
      );
      await new Promise<void>((started, failed) => {
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          if (chunk.includes('copying')) started();
        });
        child.once('exit', () => {
          failed(new Error(`the child stopped before copying: ${stderr}`));
        });
      });
      await new Promise((wait) => setTimeout(wait, delayMs));
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      // All of it or none of it: never a half copy.
      const after = countsOf(join(temp.folder, RECORD_FILE_NAME));
      expect([empty, before]).toContainEqual(after);
      expect(countsOf(cacheFile)).toEqual(before);
    }
    const record = await RecordStore.open({ folder: temp.folder, credentials });
    try {
      copyRecordFromCache(record, cacheFile, cacheId);
      expect(recordCopiedFrom(record)).toContain(cacheId);
      const audit = await openAuditLog(record.database, credentials, cacheId);
      expect((await audit.log.verify()).problem).toBeNull();
      await audit.log.close();
    } finally {
      record.close();
    }
    expect(countsOf(join(temp.folder, RECORD_FILE_NAME))).toEqual(before);
  });
});
