/**
 * Issue 23, item 2: a watch rule's flag deleted from the cache file, or put back after a person
 * moved the item on. A rule flags items during a real sync against the real sandbox bank; each
 * flag is a review (state `flagged`, version 1) with its own chained audit entry
 * (ruleFlagAudit.ts), so `ledger audit verify` fails naming the item when its flag row is
 * deleted with sqlite, or when an officer's later disposition is undone by putting the rule's
 * flag row back; the untouched file (the control) verifies. Real services behind the real IPC
 * router, a real cache file and the real Secret Service. A cache whose flags an earlier version
 * wrote (the rule's summary entry only) gets their baseline entries on its next open, and a flag
 * deleted after that is caught too.
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync, type SQLInputValue } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import { ruleFlagEntriesAsBefore } from '../../src/main/services/review/ruleFlagAudit.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { ledger } from '../integration/services/support/ledgerRun.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';
import { refusal, startHarness, syncPending, type Harness } from './support/harness.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

const RULE = 'Every debit';

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

describe.skipIf(!secretServiceHere)("a watch rule's flag deleted or put back is caught", () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-rule-flag-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;
  let profileId: string;
  /** An item the rule flagged and no one touched since. */
  let flaggedRef: string;
  /** An item the rule flagged that an officer then cleared (version 2). */
  let clearedRef: string;
  /** The rule's flag of clearedRef as it stood before the officer cleared it, MAC and all. */
  let flagRow: Record<string, SQLInputValue>;
  let flags: number;
  let file: string;
  let pristine: string;

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-rule-flag-');
    // The officer's record's file: reviews and the audit log are there since the cut-over.
    file = join(temp.folder, 'record.sqlite');
    pristine = join(temp.folder, 'pristine.db');
    sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 10 });
    const harness = await startHarness(temp.folder, sandbox, store);
    try {
      const { api } = harness;
      profileId = (await api.profiles.list()).activeProfileId ?? '';
      const accountId = (await api.accounts.list({ profileId })).rows[0]?.id ?? '';
      await api.reviews.saveRule({
        profileId,
        rule: { name: RULE, kind: 'pending-transaction', amountBeyond: '-0.01' },
      });
      await syncPending(api, profileId, accountId);
      const reader = new DatabaseSync(file, { readOnly: true });
      const flagged = reader.prepare('SELECT ref FROM reviews WHERE rule_name IS NOT NULL ORDER BY ref').all() as {
        ref: string;
      }[];
      flags = flagged.length;
      flaggedRef = flagged[0]?.ref ?? '';
      clearedRef = flagged[1]?.ref ?? '';
      flagRow = reader.prepare(`SELECT ${ROW_COLUMNS.join(', ')} FROM reviews WHERE ref = ?`).get(clearedRef) as Record<
        string,
        SQLInputValue
      >;
      reader.close();
      await api.reviews.give({ profileId, kind: 'pending-transaction', refs: [clearedRef], disposition: 'cleared' });
    } finally {
      await harness.stop();
    }
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

  function edit(sql: string, ...parameters: SQLInputValue[]): void {
    const raw = new DatabaseSync(file);
    raw.prepare(sql).run(...parameters);
    raw.close();
  }

  async function verifyCli(): Promise<{ code: number; kind: string | undefined; message: string }> {
    const result = await ledger(['--data', temp.folder, 'audit', 'verify', '--json'], store);
    const answer = JSON.parse(result.stdout) as { problem: { kind: string; message: string } | null };
    return { code: result.code, kind: answer.problem?.kind, message: answer.problem?.message ?? '' };
  }

  it('the rule flagged items in the sync, each with its own entry, and the untouched file verifies (the control)', async () => {
    restore();
    expect(flags).toBeGreaterThan(1);
    expect(flagRow['state']).toBe('flagged');
    expect(flagRow['version']).toBe(1);
    const raw = new DatabaseSync(file, { readOnly: true });
    try {
      const entries = raw
        .prepare("SELECT target, detail FROM audit_log WHERE action = 'review.flagged' ORDER BY id")
        .all() as { target: string; detail: string }[];
      // One per flag, then the officer's own `review.cleared` is another action.
      expect(entries).toHaveLength(flags);
      expect(entries.map((entry) => entry.target)).toContain(`pending-transaction:${flaggedRef}`);
      for (const entry of entries) expect(entry.detail).toMatch(/^version 1, flagged by watch rule rule#[\w-]{16}$/);
      const summary = raw.prepare("SELECT detail FROM audit_log WHERE action = 'review.rule-flag'").all() as {
        detail: string;
      }[];
      expect(summary).toEqual([{ detail: `${String(flags)} pending-transaction items flagged` }]);
    } finally {
      raw.close();
    }
    expect(await verifyCli()).toMatchObject({ code: 0, kind: undefined });
  });

  it('a flag row deleted from the file (the item looks unflagged) fails ledger audit verify, naming the item', async () => {
    restore();
    edit('DELETE FROM reviews WHERE ref = ?', flaggedRef);
    edit('DELETE FROM review_history WHERE ref = ?', flaggedRef);
    const verified = await verifyCli();
    expect(verified).toMatchObject({ code: 1, kind: 'review-altered' });
    expect(verified.message).toContain(flaggedRef);
    expect(verified.message).toMatch(/its review \(flagged, version 1, audit entry #\d+\) was deleted/);
  });

  it("the rule's flag put back over the officer's clearing fails ledger audit verify", async () => {
    restore();
    edit(
      `UPDATE reviews SET ${ROW_COLUMNS.map((column) => `${column} = ?`).join(', ')} WHERE ref = ?`,
      ...ROW_COLUMNS.map((column) => flagRow[column] ?? null),
      clearedRef,
    );
    edit('DELETE FROM review_history WHERE ref = ? AND version > 1', clearedRef);
    const verified = await verifyCli();
    expect(verified).toMatchObject({ code: 1, kind: 'review-altered' });
    expect(verified.message).toContain(clearedRef);
    expect(verified.message).toMatch(/put back to version 1 \(flagged\).*says version 2 \(cleared\)/);
  });

  it('the app refuses to open or review the item whose flag was deleted', async () => {
    restore();
    edit('DELETE FROM reviews WHERE ref = ?', flaggedRef);
    let harness: Harness | null = null;
    try {
      harness = await startHarness(temp.folder, sandbox, store);
      const { api } = harness;
      const detail = await refusal(api.reviews.detail({ profileId, kind: 'pending-transaction', ref: flaggedRef }));
      expect(detail.code).toBe('storage_error');
      expect(detail.message).toMatch(
        /changed in the officer's record \(record\.sqlite\) outside Ledgerdesk \(its review .* was deleted\)/,
      );
      const given = await refusal(
        api.reviews.give({ profileId, kind: 'pending-transaction', refs: [flaggedRef], disposition: 'cleared' }),
      );
      expect(given.code).toBe('storage_error');
    } finally {
      await harness?.stop();
    }
  });
});

describe.skipIf(!secretServiceHere)('flags written before per-item entries get a baseline on the next open', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-rule-flag-baseline-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;
  let file: string;

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-rule-flag-baseline-');
    // The officer's record's file: reviews and the audit log are there since the cut-over.
    file = join(temp.folder, 'record.sqlite');
    sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 10 });
    const harness = await startHarness(temp.folder, sandbox, store);
    // The sync's rule flags written as the version before this one wrote them.
    ruleFlagEntriesAsBefore(true);
    try {
      const { api } = harness;
      const profileId = (await api.profiles.list()).activeProfileId ?? '';
      const accountId = (await api.accounts.list({ profileId })).rows[0]?.id ?? '';
      await api.reviews.saveRule({
        profileId,
        rule: { name: RULE, kind: 'pending-transaction', amountBeyond: '-0.01' },
      });
      await syncPending(api, profileId, accountId);
    } finally {
      ruleFlagEntriesAsBefore(false);
      await harness.stop();
    }
    // That version's cache had no mark of this upgrade.
    const raw = new DatabaseSync(join(temp.folder, 'cache.db'));
    raw.prepare('DELETE FROM cache_meta WHERE key = ?').run('rule_flag_baselines');
    raw.close();
  });

  afterAll(async () => {
    await sandbox.close();
    temp.remove();
  });

  it('the next open writes a baseline entry per flag, and a flag deleted after it fails verify', async () => {
    const raw = new DatabaseSync(file, { readOnly: true });
    const before = raw.prepare("SELECT count(*) AS n FROM audit_log WHERE action = 'review.flagged'").get() as {
      n: number;
    };
    const flagged = raw.prepare('SELECT ref FROM reviews WHERE rule_name IS NOT NULL ORDER BY ref').all() as {
      ref: string;
    }[];
    raw.close();
    expect(before.n).toBe(0);
    expect(flagged.length).toBeGreaterThan(0);

    const first = await ledger(['--data', temp.folder, 'audit', 'verify', '--json'], store);
    expect(first.code).toBe(0);
    const reader = new DatabaseSync(file, { readOnly: true });
    const baselined = reader.prepare("SELECT detail FROM audit_log WHERE action = 'review.flagged'").all() as {
      detail: string;
    }[];
    reader.close();
    expect(baselined).toHaveLength(flagged.length);
    for (const entry of baselined) expect(entry.detail).toMatch(/^version 1, baseline: /);

    const ref = flagged[0]?.ref ?? '';
    const writer = new DatabaseSync(file);
    writer.prepare('DELETE FROM reviews WHERE ref = ?').run(ref);
    writer.close();
    const second = await ledger(['--data', temp.folder, 'audit', 'verify', '--json'], store);
    expect(second.code).toBe(1);
    const answer = JSON.parse(second.stdout) as { problem: { kind: string; message: string } | null };
    expect(answer.problem?.kind).toBe('review-altered');
    expect(answer.problem?.message).toContain(ref);
    expect(answer.problem?.message).toMatch(/its review \(flagged, version 1, audit entry #\d+\) was deleted/);
  });
});
