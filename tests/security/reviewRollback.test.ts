/**
 * Issue 23, item 2: a review put back to an earlier version of itself. The row MAC proves a row
 * was written by Ledgerdesk, not that it is the latest one: an officer clears an item, later
 * escalates it; someone with the file (no keychain) puts the cleared row back with its own,
 * once valid, MAC, or deletes the escalated review so the item looks unreviewed. The chained
 * audit log holds each move with the version it made, so `ledger audit verify` fails naming the
 * item, the app refuses to open or review it, and the report is not "verified". Clearing the
 * profile's cache, an audited drop, is not taken for a deletion. Real services behind the real
 * IPC router, a real sandbox bank, a real cache file and the real Secret Service.
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { ledger } from '../integration/services/support/ledgerRun.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';
import { refusal, startHarness, syncPending, type Harness } from './support/harness.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

/** The columns of a review row that a replay puts back (all of them but its rowid). */
const ROW_COLUMNS = [
  'account_id',
  'posted_at',
  'state',
  'rule_name',
  'record_digest',
  'version',
  'updated_at',
  'body',
  'row_mac',
] as const;

describe.skipIf(!secretServiceHere)('a review put back to an earlier version is caught', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-rollback-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;
  let profileId: string;
  let accountId: string;
  let ref: string;
  let otherRef: string;
  let file: string;
  let pristine: string;
  /** The item's review as it stood when it was cleared (version 1), MAC and all. */
  let clearedRow: Record<string, SQLInputValue>;

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-rollback-');
    // The officer's record's file: reviews, rules and the audit log are there since the cut-over.
    file = join(temp.folder, 'record.sqlite');
    pristine = join(temp.folder, 'pristine.db');
    sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 10 });
    const harness = await startHarness(temp.folder, sandbox, store);
    const { api } = harness;
    profileId = (await api.profiles.list()).activeProfileId ?? '';
    accountId = (await api.accounts.list({ profileId })).rows[0]?.id ?? '';
    await syncPending(api, profileId, accountId);
    const rows = (await api.pendingTransactions.list({ profileId, accountId, limit: 3 })).rows;
    ref = rows[0]?.ref ?? '';
    otherRef = rows[1]?.ref ?? '';
    await api.reviews.give({ profileId, kind: 'pending-transaction', refs: [ref], disposition: 'cleared' });
    await api.reviews.give({ profileId, kind: 'pending-transaction', refs: [otherRef], disposition: 'cleared' });
    // What someone with the file copies aside while the item stands cleared.
    const reader = new DatabaseSync(file, { readOnly: true });
    clearedRow = reader.prepare(`SELECT ${ROW_COLUMNS.join(', ')} FROM reviews WHERE ref = ?`).get(ref) as Record<
      string,
      SQLInputValue
    >;
    reader.close();
    await api.reviews.give({
      profileId,
      kind: 'pending-transaction',
      refs: [ref],
      disposition: 'escalated',
      note: 'Suspected structuring: report to compliance',
    });
    await harness.stop();
    const raw = new DatabaseSync(file);
    raw.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    raw.close();
    copyFileSync(file, pristine);
  });

  afterAll(async () => {
    await sandbox.close();
    temp.remove();
  });

  function restore(): void {
    for (const suffix of ['-wal', '-shm']) rmSync(file + suffix, { force: true });
    copyFileSync(pristine, file);
  }

  function putClearedRowBack(options: { dropNewerHistory: boolean }): void {
    const raw = new DatabaseSync(file);
    raw
      .prepare(`UPDATE reviews SET ${ROW_COLUMNS.map((column) => `${column} = ?`).join(', ')} WHERE ref = ?`)
      .run(...ROW_COLUMNS.map((column) => clearedRow[column] ?? null), ref);
    if (options.dropNewerHistory) raw.prepare('DELETE FROM review_history WHERE ref = ? AND version > 1').run(ref);
    raw.close();
  }

  function deleteReview(): void {
    const raw = new DatabaseSync(file);
    raw.prepare('DELETE FROM reviews WHERE ref = ?').run(ref);
    raw.prepare('DELETE FROM review_history WHERE ref = ?').run(ref);
    raw.close();
  }

  async function verifyCli(folder = temp.folder): Promise<{ code: number; kind: string | undefined; message: string }> {
    const result = await ledger(['--data', folder, 'audit', 'verify', '--json'], store);
    const answer = JSON.parse(result.stdout) as { problem: { kind: string; message: string } | null };
    return { code: result.code, kind: answer.problem?.kind, message: answer.problem?.message ?? '' };
  }

  it('an untouched file verifies, and the escalated review stands at version 2 (the control)', async () => {
    restore();
    expect(clearedRow['state']).toBe('cleared');
    expect(clearedRow['version']).toBe(1);
    expect(await verifyCli()).toMatchObject({ code: 0, kind: undefined });
  });

  it('the cleared row put back with its own MAC, history trimmed to match, fails ledger audit verify', async () => {
    restore();
    putClearedRowBack({ dropNewerHistory: true });
    const verified = await verifyCli();
    expect(verified).toMatchObject({ code: 1, kind: 'review-altered' });
    expect(verified.message).toContain(ref);
    expect(verified.message).toMatch(/put back to version 1 \(cleared\).*says version 2 \(escalated\)/);
  });

  it('the cleared row put back, its newer history left in place, fails ledger audit verify', async () => {
    restore();
    putClearedRowBack({ dropNewerHistory: false });
    expect(await verifyCli()).toMatchObject({ code: 1, kind: 'review-altered' });
  });

  it('the escalated review deleted (the item looks unreviewed) fails ledger audit verify', async () => {
    restore();
    deleteReview();
    const verified = await verifyCli();
    expect(verified).toMatchObject({ code: 1, kind: 'review-altered' });
    expect(verified.message).toMatch(/its review \(escalated, version 2, audit entry #\d+\) was deleted/);
  });

  it('the app refuses to open or review the put-back item, and the report is not verified', async () => {
    restore();
    putClearedRowBack({ dropNewerHistory: true });
    let harness: Harness | null = null;
    try {
      harness = await startHarness(temp.folder, sandbox, store);
      const { api } = harness;
      const detail = await refusal(api.reviews.detail({ profileId, kind: 'pending-transaction', ref }));
      expect(detail.code).toBe('storage_error');
      expect(detail.message).toMatch(
        /changed in the officer's record \(record\.sqlite\) outside Ledgerdesk \(its review was put back/,
      );
      const given = await refusal(
        api.reviews.give({ profileId, kind: 'pending-transaction', refs: [ref], disposition: 'cleared' }),
      );
      expect(given.code).toBe('storage_error');
      // The other item is untouched and still opens.
      const other = await api.reviews.detail({ profileId, kind: 'pending-transaction', ref: otherRef });
      expect(other.review?.state).toBe('cleared');
      const report = await api.reviews.saveReport({ profileId, format: 'csv' });
      const csv = readFileSync(report.path ?? '', 'utf8');
      expect(csv).toMatch(/NOT verified/);
      expect(csv).not.toMatch(/,verified:/);
      const verified = await api.audit.verify();
      expect(verified.ok).toBe(false);
      expect(verified.problem?.message).toContain(ref);
    } finally {
      await harness?.stop();
    }
  });

  it('the app refuses to open or review the item whose review was deleted', async () => {
    restore();
    deleteReview();
    let harness: Harness | null = null;
    try {
      harness = await startHarness(temp.folder, sandbox, store);
      const { api } = harness;
      const detail = await refusal(api.reviews.detail({ profileId, kind: 'pending-transaction', ref }));
      expect(detail.code).toBe('storage_error');
      expect(detail.message).toMatch(
        /changed in the officer's record \(record\.sqlite\) outside Ledgerdesk \(its review .* was deleted\)/,
      );
      const given = await refusal(
        api.reviews.give({ profileId, kind: 'pending-transaction', refs: [ref], disposition: 'cleared' }),
      );
      expect(given.code).toBe('storage_error');
    } finally {
      await harness?.stop();
    }
  });

  it("clearing the profile's cache keeps the review, and is not taken for a deletion", async () => {
    // A folder of its own: the anchor of the file above has moved on with the app's runs.
    const own = makeTempFolder('ledgerdesk-rollback-clear-');
    let harness: Harness | null = null;
    try {
      harness = await startHarness(own.folder, sandbox, store);
      const { api } = harness;
      const profile = (await api.profiles.list()).activeProfileId ?? '';
      const account = (await api.accounts.list({ profileId: profile })).rows[0]?.id ?? '';
      await syncPending(api, profile, account);
      const item = (await api.pendingTransactions.list({ profileId: profile, accountId: account, limit: 1 })).rows[0];
      await api.reviews.give({
        profileId: profile,
        kind: 'pending-transaction',
        refs: [item?.ref ?? ''],
        disposition: 'escalated',
      });
      await api.cache.clear({ profileId: profile });
      const detail = await api.reviews.detail({
        profileId: profile,
        kind: 'pending-transaction',
        ref: item?.ref ?? '',
      });
      // The officer's record outlives the cache (issue 34): the review is there as given.
      expect(detail.review).toMatchObject({ ref: item?.ref, state: 'escalated' });
      await harness.stop();
      harness = null;
      expect(await verifyCli(own.folder)).toMatchObject({ code: 0, kind: undefined });
    } finally {
      await harness?.stop();
      own.remove();
    }
  });
});
