/**
 * Issue 23, item 2: a cached pending transaction's clear columns (amount, dates, time, type,
 * rail) decide filters, sorts, counts and watch-rule matches, so someone with the file (no
 * keychain) could change an amount to hide a row from a rule or make one match. Each column is a
 * function of the sealed record, and is checked against it wherever a record is opened: the
 * list, the drawer, the queue, the report; `ledger audit verify` opens every row. Real services
 * behind the real IPC router, a real sandbox bank, a real cache file and the real Secret Service.
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { ledger } from '../integration/services/support/ledgerRun.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';
import { refusal, startHarness, syncPending, type Harness } from './support/harness.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

/** A debit far beyond anything the sandbox makes (cents). */
const HUGE_DEBIT = -987_654_321;

describe.skipIf(!secretServiceHere)('pending transactions: clear columns checked against the sealed record', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-pending-columns-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;
  let profileId: string;
  let accountId: string;
  /** A transaction the officer escalated (reported), and one nobody reviewed. */
  let escalatedRef: string;
  let unreviewedRef: string;
  let file: string;
  let pristine: string;

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-pending-columns-');
    file = join(temp.folder, 'cache.db');
    pristine = join(temp.folder, 'pristine.db');
    sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 10 });
    const harness = await startHarness(temp.folder, sandbox, store);
    try {
      const { api } = harness;
      profileId = (await api.profiles.list()).activeProfileId ?? '';
      accountId = (await api.accounts.list({ profileId })).rows[0]?.id ?? '';
      await syncPending(api, profileId, accountId);
      const rows = (await api.pendingTransactions.list({ profileId, accountId, limit: 3 })).rows;
      escalatedRef = rows[0]?.ref ?? '';
      unreviewedRef = rows[2]?.ref ?? '';
      await api.reviews.give({
        profileId,
        kind: 'pending-transaction',
        refs: [escalatedRef],
        disposition: 'escalated',
        note: 'Structuring suspected',
      });
    } finally {
      await harness.stop();
    }
    // Both files, the cache and the officer's record (reviews and their counts since the cut-over).
    for (const [from, to] of [
      [file, pristine],
      [recordFile(), `${pristine}.record`],
    ] as const) {
      const raw = new DatabaseSync(from);
      raw.exec('PRAGMA wal_checkpoint(TRUNCATE)');
      raw.close();
      copyFileSync(from, to);
    }
  });

  function recordFile(): string {
    return join(temp.folder, 'record.sqlite');
  }

  afterAll(async () => {
    await sandbox.close();
    temp.remove();
  });

  function restore(): void {
    for (const suffix of ['-wal', '-shm']) {
      rmSync(file + suffix, { force: true });
      rmSync(recordFile() + suffix, { force: true });
    }
    copyFileSync(pristine, file);
    copyFileSync(`${pristine}.record`, recordFile());
  }

  /** SQL on the cache file with the record attached, as the app sees them: by unqualified names. */
  function tamper(sql: string, ...values: (string | number)[]): void {
    const raw = new DatabaseSync(file);
    raw.prepare('ATTACH DATABASE ? AS record').run(recordFile());
    try {
      const changed = raw.prepare(sql).run(...values).changes;
      expect(changed).toBe(1);
    } finally {
      raw.close();
    }
  }

  async function verifyCli(): Promise<{ code: number; kind: string | undefined; message: string }> {
    const result = await ledger(['--data', temp.folder, 'audit', 'verify', '--json'], store);
    const answer = JSON.parse(result.stdout) as { problem: { kind: string; message: string } | null };
    return { code: result.code, kind: answer.problem?.kind, message: answer.problem?.message ?? '' };
  }

  async function withApp(work: (harness: Harness) => Promise<void>): Promise<void> {
    const harness = await startHarness(temp.folder, sandbox, store);
    try {
      await work(harness);
    } finally {
      await harness.stop();
    }
  }

  it('an untouched file verifies and every page opens (the control)', async () => {
    restore();
    expect(await verifyCli()).toMatchObject({ code: 0, kind: undefined });
    await withApp(async ({ api }) => {
      const page = await api.pendingTransactions.list({ profileId, accountId, limit: 100 });
      expect(page.rows.length).toBe(10);
      const queue = await api.reviewQueue.list({ profileId, state: 'unreviewed', limit: 100 });
      expect(queue.rows.length).toBeGreaterThan(0);
    });
  });

  it.each([
    ['the amount', 'UPDATE pending_transactions SET amount_cents = amount_cents + 1 WHERE row_key = ?'],
    ['the date', "UPDATE pending_transactions SET date = '2001-01-01' WHERE row_key = ?"],
    ['the time', "UPDATE pending_transactions SET posted_at = '2001-01-01T00:00:00Z' WHERE row_key = ?"],
    ['the type', "UPDATE pending_transactions SET type = 'fee' WHERE row_key = ?"],
    ['the rail', "UPDATE pending_transactions SET type_source = 'ach' WHERE row_key = ?"],
  ])('%s changed in the file fails ledger audit verify, naming the row', async (_what, sql) => {
    restore();
    tamper(sql, unreviewedRef);
    const verified = await verifyCli();
    expect(verified.code).toBe(1);
    expect(verified.kind).toBe('record-altered');
    expect(verified.message).toContain(unreviewedRef);
    expect(verified.message).toMatch(/changed in the cache file outside Ledgerdesk/);
  });

  it.each([
    ['an account’s kept count', 'UPDATE pending_transaction_counts SET total = total + 5'],
    [
      'a day’s kept sum',
      `UPDATE pending_transaction_days SET cents = cents - 100000
      WHERE (scope, date, flow) IN (SELECT scope, date, flow FROM pending_transaction_days LIMIT 1)`,
    ],
    [
      'a kept review count',
      `UPDATE review_counts SET total = total + 3
      WHERE (profile_id, kind, account_key, state, by_rule, row_listed)
        IN (SELECT profile_id, kind, account_key, state, by_rule, row_listed FROM review_counts WHERE total > 0 LIMIT 1)`,
    ],
  ])('%s changed in the file (the queue’s and Overview’s figures) fails ledger audit verify', async (_what, sql) => {
    restore();
    const raw = new DatabaseSync(file);
    raw.prepare('ATTACH DATABASE ? AS record').run(recordFile());
    try {
      expect(raw.prepare(sql).run().changes).toBeGreaterThan(0);
    } finally {
      raw.close();
    }
    const verified = await verifyCli();
    expect(verified.code).toBe(1);
    expect(verified.kind).toBe('record-altered');
    expect(verified.message).toMatch(/kept (counts|figures|review counts) of 1 (account|day|group)/);
  });

  it('a review marked as having its row when the row is gone fails ledger audit verify', async () => {
    restore();
    const raw = new DatabaseSync(file);
    raw.prepare('ATTACH DATABASE ? AS record').run(recordFile());
    try {
      // The escalated item's transaction leaves the cache (as a sweep does: the trigger marks
      // its review unlisted), then the mark is set back by hand, so the counts include it.
      raw.prepare('DELETE FROM pending_transactions WHERE row_key = ?').run(escalatedRef);
      const marked = raw.prepare("UPDATE reviews SET row_listed = 1 WHERE ref = ? AND kind = 'pending-transaction'");
      expect(marked.run(escalatedRef).changes).toBe(1);
      raw.exec(
        `UPDATE review_counts SET total = (SELECT count(*) FROM reviews AS r WHERE r.profile_id = review_counts.profile_id
           AND r.kind = review_counts.kind AND coalesce(r.account_id, '') = review_counts.account_key
           AND r.state = review_counts.state AND (r.rule_name IS NOT NULL) = review_counts.by_rule
           AND r.row_listed = review_counts.row_listed)`,
      );
    } finally {
      raw.close();
    }
    const verified = await verifyCli();
    expect(verified.code).toBe(1);
    expect(verified.kind).toBe('record-altered');
    expect(verified.message).toMatch(/"row cached" mark of 1 review/);
  });

  it('a changed amount is refused by the list and the queue, not shown', async () => {
    restore();
    tamper('UPDATE pending_transactions SET amount_cents = ? WHERE row_key = ?', HUGE_DEBIT, unreviewedRef);
    await withApp(async ({ api }) => {
      const listed = await refusal(api.pendingTransactions.list({ profileId, accountId, limit: 100 }));
      expect(listed.code).toBe('storage_error');
      expect(listed.message).toContain(unreviewedRef);
      // A filter that picks the row by its changed amount does not show it either.
      const largest = await refusal(
        api.pendingTransactions.list({ profileId, accountId, sortBy: 'amount', sortDirection: 'desc', limit: 100 }),
      );
      expect(largest.code).toBe('storage_error');
      const queue = await refusal(api.reviewQueue.list({ profileId, state: 'unreviewed', limit: 100 }));
      expect(queue.code).toBe('storage_error');
      const verified = await api.audit.verify();
      expect(verified.ok).toBe(false);
      expect(verified.problem?.kind).toBe('record-altered');
    });
  });

  it('a watch rule matching a changed amount: its flag is not trusted silently', async () => {
    restore();
    tamper('UPDATE pending_transactions SET amount_cents = ? WHERE row_key = ?', HUGE_DEBIT, unreviewedRef);
    await withApp(async ({ api }) => {
      await api.reviews.saveRule({
        profileId,
        rule: { name: 'Debits beyond five million', kind: 'pending-transaction', amountBeyond: '-5000000.00' },
      });
      // Rules flag what a sync finds; the changed row is still what the bank sends, so it stays.
      await syncPending(api, profileId, accountId);
      const counts = await api.reviews.counts({ profileId, kind: 'pending-transaction' });
      expect(counts.flagged).toBeGreaterThan(0);
      const flagged = await refusal(api.reviewQueue.list({ profileId, state: 'flagged-by-rule', limit: 100 }));
      expect(flagged.code).toBe('storage_error');
      expect(flagged.message).toContain(unreviewedRef);
      const detail = await refusal(api.reviews.detail({ profileId, kind: 'pending-transaction', ref: unreviewedRef }));
      expect(detail.code).toBe('storage_error');
    });
  });

  it('an escalated item whose amount was changed: the drawer refuses it, the report is NOT verified', async () => {
    restore();
    tamper('UPDATE pending_transactions SET amount_cents = amount_cents - 100 WHERE row_key = ?', escalatedRef);
    await withApp(async ({ api }) => {
      const detail = await refusal(api.reviews.detail({ profileId, kind: 'pending-transaction', ref: escalatedRef }));
      expect(detail.code).toBe('storage_error');
      expect(detail.message).toMatch(/changed in the cache file outside Ledgerdesk/);
      const report = await api.reviews.saveReport({ profileId, format: 'csv' });
      const csv = readFileSync(report.path ?? '', 'utf8');
      expect(csv).toMatch(/NOT verified/);
      expect(csv).not.toMatch(/,verified:/);
    });
  });
});
