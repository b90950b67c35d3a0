/**
 * N2 of the security review of 3b75e6a: no clear column decides anything unauthenticated. An
 * officer escalates an item; someone with the file (no keychain) sets the review's state,
 * version, time, digest or rule in clear. The app refuses to show the altered review, the report
 * does not print "verified", and `ledger audit verify` fails naming it. Real services behind the
 * real IPC router, a real sandbox bank, a real cache file and the real Secret Service.
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

describe.skipIf(!secretServiceHere)('N2: a review changed in the file is caught', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-n2-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;
  let profileId: string;
  let accountId: string;
  let escalatedRef: string;
  let file: string;
  let pristine: string;

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-n2-');
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
    escalatedRef = rows[0]?.ref ?? '';
    await api.reviews.give({
      profileId,
      kind: 'pending-transaction',
      refs: [escalatedRef],
      disposition: 'escalated',
      note: 'Suspected structuring: report to compliance',
    });
    await api.reviews.give({
      profileId,
      kind: 'pending-transaction',
      refs: [rows[1]?.ref ?? ''],
      disposition: 'cleared',
    });
    await api.reviews.saveRule({
      profileId,
      rule: { name: 'Everything', kind: 'pending-transaction', amountBeyond: '-0.01' },
    });
    await syncPending(api, profileId, accountId);
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

  function tamper(sql: string): void {
    const raw = new DatabaseSync(file);
    raw.exec(sql);
    raw.close();
  }

  async function verifyCli(): Promise<{ code: number; kind: string | undefined; message: string }> {
    const result = await ledger(['--data', temp.folder, 'audit', 'verify', '--json'], store);
    const answer = JSON.parse(result.stdout) as { problem: { kind: string; message: string } | null };
    return { code: result.code, kind: answer.problem?.kind, message: answer.problem?.message ?? '' };
  }

  it('an untouched file verifies (the control)', async () => {
    restore();
    expect(await verifyCli()).toMatchObject({ code: 0, kind: undefined });
  });

  it.each([
    ['the state', "UPDATE reviews SET state = 'cleared' WHERE state = 'escalated'"],
    ['the version', "UPDATE reviews SET version = version + 5 WHERE state = 'escalated'"],
    ['the time', "UPDATE reviews SET updated_at = '2020-01-01T00:00:00.000Z' WHERE state = 'escalated'"],
    ['the reviewed digest', "UPDATE reviews SET record_digest = 'x' WHERE state = 'escalated'"],
    ['the rule that flagged it', "UPDATE reviews SET rule_name = 'Nothing' WHERE rule_name IS NOT NULL"],
    ['a step of history', "UPDATE review_history SET state = 'cleared' WHERE state = 'escalated'"],
    ['the MAC removed', "UPDATE reviews SET row_mac = NULL WHERE state = 'escalated'"],
    [
      'a body swapped for another item’s',
      `UPDATE reviews SET body = (SELECT body FROM reviews WHERE state = 'cleared') WHERE state = 'escalated'`,
    ],
  ])('%s changed in the file fails ledger audit verify', async (_what, sql) => {
    restore();
    tamper(sql);
    const verified = await verifyCli();
    expect(verified.code).toBe(1);
    expect(verified.kind).toBe('review-altered');
    expect(verified.message).toMatch(/changed in the officer's record \(record\.sqlite\) outside Ledgerdesk/);
  });

  it('escalated turned cleared: the app refuses to show it, the report is not verified, verify names it', async () => {
    restore();
    tamper("UPDATE reviews SET state = 'cleared' WHERE state = 'escalated'");
    let harness: Harness | null = null;
    try {
      harness = await startHarness(temp.folder, sandbox, store);
      const { api } = harness;
      const detail = await refusal(api.reviews.detail({ profileId, kind: 'pending-transaction', ref: escalatedRef }));
      expect(detail.code).toBe('storage_error');
      expect(detail.message).toMatch(/changed in the officer's record \(record\.sqlite\) outside Ledgerdesk/);
      const listed = await refusal(
        api.pendingTransactions.list({ profileId, accountId, review: 'cleared', limit: 10 }),
      );
      expect(listed.code).toBe('storage_error');
      const report = await api.reviews.saveReport({ profileId, format: 'csv' });
      const csv = readFileSync(report.path ?? '', 'utf8');
      expect(csv).toMatch(/NOT verified/);
      expect(csv).not.toMatch(/,verified:/);
      expect(csv).toContain(escalatedRef);
      const verified = await api.audit.verify();
      expect(verified.ok).toBe(false);
      expect(verified.problem?.kind).toBe('review-altered');
      expect(verified.problem?.message).toContain(escalatedRef);
    } finally {
      await harness?.stop();
    }
  });

  it('ledger review list on the altered review names the item and what to run, exit 1 (review I-C1)', async () => {
    restore();
    tamper("UPDATE reviews SET state = 'cleared' WHERE state = 'escalated'");
    const listed = await ledger(
      ['--data', temp.folder, 'review', 'list', '--profile', 'Local sandbox', '--status', 'cleared'],
      store,
    );
    expect(listed.code).toBe(1);
    const lines = listed.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toContain('unexpected failure');
    expect(lines[0]).toContain(`The review of pending-transaction ${escalatedRef}`);
    expect(lines[0]).toContain("was changed in the officer's record (record.sqlite) outside Ledgerdesk");
    expect(lines[0]).toContain('Run `ledger audit verify`');
  });
});
