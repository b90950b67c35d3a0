/**
 * N10 of the security review of 3b75e6a: watch-rule names sealed, and never in clear in audit
 * targets. An officer names a rule after a customer ("Payments to Quillfeather Holdings"), a
 * sync lets it flag items; the name must be in no byte of the cache file (rules, the flags'
 * reviews and history, the audit log), while the app still shows it, filters the queue by it,
 * and `ledger audit verify` passes. Real services behind the real IPC router, a real sandbox
 * bank, a real cache file and the real Secret Service.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { ledger } from '../integration/services/support/ledgerRun.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';
import { startHarness, syncPending } from './support/harness.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

const RULE = 'Payments to Quillfeather Holdings';
const OTHER_RULE = 'Quillfeather refunds';

describe.skipIf(!secretServiceHere)('N10: watch-rule names sealed at rest', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-n10-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let sandbox: RunningSandbox;
  let profileId: string;
  let accountId: string;
  let file: string;

  beforeAll(async () => {
    temp = makeTempFolder('ledgerdesk-n10-');
    // The officer's record's file: reviews, rules and the audit log are there since the cut-over.
    file = join(temp.folder, 'record.sqlite');
    sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 10 });
    const harness = await startHarness(temp.folder, sandbox, store);
    try {
      const { api } = harness;
      profileId = (await api.profiles.list()).activeProfileId ?? '';
      accountId = (await api.accounts.list({ profileId })).rows[0]?.id ?? '';
      await api.reviews.saveRule({
        profileId,
        rule: { name: RULE, kind: 'pending-transaction', amountBeyond: '-0.01' },
      });
      await api.reviews.saveRule({ profileId, rule: { name: OTHER_RULE, kind: 'webhook-send', sendStatus: 'error' } });
      await syncPending(api, profileId, accountId);
      await api.reviews.removeRule({ profileId, name: OTHER_RULE });
    } finally {
      await harness.stop();
    }
    const raw = new DatabaseSync(file);
    raw.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    raw.close();
  });

  afterAll(async () => {
    await sandbox.close();
    temp.remove();
  });

  it('the rule flagged items (the control: there is something to find)', () => {
    const raw = new DatabaseSync(file, { readOnly: true });
    try {
      const flagged = raw.prepare('SELECT COUNT(*) AS n FROM reviews WHERE rule_name IS NOT NULL').get() as {
        n: number;
      };
      expect(flagged.n).toBeGreaterThan(0);
      const audited = raw
        .prepare("SELECT action FROM audit_log WHERE action LIKE 'rule.%' OR action = 'review.rule-flag'")
        .all() as { action: string }[];
      expect(audited.map((row) => row.action)).toEqual(['rule.save', 'rule.save', 'review.rule-flag', 'rule.remove']);
    } finally {
      raw.close();
    }
  });

  it('no byte of the cache file holds a rule name, in the tables or the audit log', () => {
    const bytes = Buffer.concat(
      [file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path)),
    );
    for (const name of [RULE, OTHER_RULE, 'Quillfeather']) {
      expect(bytes.includes(Buffer.from(name, 'utf8'))).toBe(false);
    }
    const raw = new DatabaseSync(file, { readOnly: true });
    try {
      const targets = raw
        .prepare("SELECT target FROM audit_log WHERE action LIKE 'rule.%' OR action = 'review.rule-flag'")
        .all() as { target: string }[];
      for (const { target } of targets) expect(target).toMatch(/^rule#[\w-]{16}$/);
    } finally {
      raw.close();
    }
  });

  it('the app still shows the name, filters the queue by it, and verify passes', async () => {
    const harness = await startHarness(temp.folder, sandbox, store);
    try {
      const { api } = harness;
      const rules = await api.reviews.rules({ profileId });
      expect(rules.rows.map((rule) => rule.name)).toEqual([RULE]);
      const page = await api.reviewQueue.list({ profileId, state: 'flagged-by-rule', ruleName: RULE, limit: 5 });
      expect(page.rows.length).toBeGreaterThan(0);
      const first = page.rows[0];
      const detail = await api.reviews.detail({ profileId, kind: 'pending-transaction', ref: first?.ref ?? '' });
      expect(detail.review?.byRule).toBe(RULE);
      expect(detail.history[0]?.byRule).toBe(RULE);
      const none = await api.reviewQueue.list({
        profileId,
        state: 'flagged-by-rule',
        ruleName: 'No such rule',
        limit: 5,
      });
      expect(none.rows).toEqual([]);
    } finally {
      await harness.stop();
    }
    const verified = await ledger(['--data', temp.folder, 'audit', 'verify', '--json'], store);
    expect(verified.code).toBe(0);
  });
});
