/**
 * The tamper-evident audit log on a real cache file and the real keychain (a throwaway
 * gnome-keyring: scripts/with-keyring.sh). Each tamper is done the way an attacker who can
 * write the database file would: another SQLite connection, the protecting triggers dropped,
 * rows edited, deleted or reordered. `ledger audit verify` must then fail (exit 1) and name
 * the entry; an untouched log verifies (exit 0) with its count and head.
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OfflineCache } from '../../../src/main/services/cache/offlineCache.ts';
import { CACHE_MIGRATIONS, CACHE_MIGRATIONS_TABLE } from '../../../src/main/services/cache/cacheMigrations.ts';
import { applyMigrations } from '../../../src/main/services/migrations/migrationRunner.ts';
import {
  auditChainHeadAccount,
  auditChainKeyAccount,
  cacheDataKeyAccount,
  Credentials,
} from '../../../src/main/services/credentials/credentials.ts';
import { KeyringSecretStore } from '../../../src/main/services/credentials/keyringSecretStore.ts';
import { openCacheWithRecord } from './support/cacheWithRecord.ts';
import { ledger, type LedgerResult } from './support/ledgerRun.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';
if (!secretServiceHere) {
  process.stderr.write(
    'audit chain tests skipped: no throwaway Secret Service. Run them with: npm run test:integration -- tests/integration/services/auditChain.test.ts\n',
  );
}

interface VerifyJson {
  ok: boolean;
  entries: number;
  head: string | null;
  lastId: number | null;
  anchor: { entries: number; id: number; mac: string } | null;
  problem: { kind: string; entryId: number; entry: { id: number; action: string } | null; message: string } | null;
  notes: string[];
  verifiedAt: string;
}

describe.skipIf(!secretServiceHere)('the audit chain on a real cache file and keychain', () => {
  // A service of its own, so these entries never mix with another test's.
  const store = new KeyringSecretStore(`Ledgerdesk-test-audit-${randomUUID()}`);
  let temp: { folder: string; remove: () => void };
  let file: string;
  /** Where the log is since the cut-over (issue 34): the officer's record. */
  let recordFile: string;

  beforeEach(() => {
    temp = makeTempFolder('ledgerdesk-audit-');
    file = join(temp.folder, 'cache.db');
    recordFile = join(temp.folder, 'record.sqlite');
  });

  afterEach(async () => {
    const cacheId = cacheIdOf();
    if (cacheId !== null) {
      for (const account of [cacheDataKeyAccount, auditChainKeyAccount, auditChainHeadAccount]) {
        await store.delete(account(cacheId));
      }
    }
    temp.remove();
  });

  function cacheIdOf(): string | null {
    try {
      const raw = new DatabaseSync(file, { readOnly: true });
      const row = raw.prepare("SELECT value FROM cache_meta WHERE key = 'cache_id'").get() as
        { value: string } | undefined;
      raw.close();
      return row?.value ?? null;
    } catch {
      return null;
    }
  }

  /** The cache as the app opens it: with the officer's record, which holds the log, attached. */
  async function openCache(): Promise<OfflineCache> {
    return openCacheWithRecord(temp.folder, new Credentials(store));
  }

  /** Writes `count` entries through the app's API and closes the cache (head copied to the keychain). */
  async function logWrites(count: number): Promise<void> {
    const cache = await openCache();
    for (let n = 1; n <= count; n += 1) {
      cache.audit.record({
        profileId: 'prof_1',
        profileName: 'Operations',
        action: n % 2 === 0 ? 'webhook.update' : 'document.create',
        target: `target_${String(n)}`,
        result: n % 3 === 0 ? 'failed' : 'ok',
        ...(n % 3 === 0 ? { detail: 'PATCH /webhook/{id} (409): conflict.' } : {}),
      });
    }
    await cache.close();
  }

  /** What someone who can write the file does: triggers dropped, then any SQL. */
  function tamper(sql: string): void {
    const raw = new DatabaseSync(recordFile);
    raw.exec('DROP TRIGGER IF EXISTS audit_log_no_update; DROP TRIGGER IF EXISTS audit_log_no_delete;');
    raw.exec(sql);
    raw.close();
  }

  async function verify(json = true): Promise<LedgerResult> {
    return ledger(['--data', temp.folder, 'audit', 'verify', ...(json ? ['--json'] : [])], store);
  }

  function parsed(result: LedgerResult): VerifyJson {
    return JSON.parse(result.stdout) as VerifyJson;
  }

  it('verifies an untouched log: exit 0, the count and the head, in text and JSON', async () => {
    await logWrites(10);
    const cache = await openCache();
    const head = cache.audit.chainHead();
    await cache.close();
    const json = await verify();
    expect(json).toMatchObject({ code: 0, stderr: '' });
    const answer = parsed(json);
    expect(answer).toEqual({
      ok: true,
      entries: 10,
      head: head.head,
      lastId: 10,
      anchor: { entries: 10, id: 10, mac: head.head },
      problem: null,
      notes: [],
      verifiedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
    });
    expect(answer.head).toMatch(/^[0-9a-f]{64}$/);
    const text = await verify(false);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(`The audit log verifies: 10 entries, chain head ${String(head.head)}.\n`);
  });

  it('says an empty log has nothing to verify', async () => {
    await (await openCache()).close();
    const text = await verify(false);
    expect(text).toMatchObject({ code: 0, stdout: 'The audit log is empty: nothing to verify.\n' });
  });

  it('fails and names an entry edited in the file', async () => {
    await logWrites(10);
    tamper("UPDATE audit_log SET result = 'ok', detail = NULL WHERE id = 6");
    const json = await verify();
    expect(json.code).toBe(1);
    expect(parsed(json)).toMatchObject({
      ok: false,
      head: null,
      problem: { kind: 'entry-changed', entryId: 6, entry: { id: 6, action: 'webhook.update' } },
    });
    const text = await verify(false);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/^The audit log does not verify: entry #6 \(.*webhook\.update target_6, Operations\)/);
  });

  it('walks a log of several batches of 5,000 and names an edit in the third', async () => {
    await logWrites(12_001);
    const untouched = await verify();
    expect(untouched.code).toBe(0);
    expect(parsed(untouched)).toMatchObject({ ok: true, entries: 12_001, lastId: 12_001 });
    tamper("UPDATE audit_log SET target = 'target_x' WHERE id = 11000");
    const json = await verify();
    expect(json.code).toBe(1);
    expect(parsed(json).problem).toMatchObject({ kind: 'entry-changed', entryId: 11_000, entry: { id: 11_000 } });
    expect(parsed(json).problem?.message).toMatch(/entry #11000 \(.*target_x, Operations\)/);
  });

  it("chains a batch (recordMany, as a rule's flags are written) like single entries, and names an edit inside it", async () => {
    await logWrites(3);
    const cache = await openCache();
    expect(cache.audit.recordMany([])).toBe(0);
    const batch = Array.from({ length: 500 }, (_, index) => ({
      profileId: 'prof_1',
      profileName: 'Operations',
      // Not a review move: those are checked against the reviews table too (reviewRollbacks.ts).
      action: 'document.create',
      target: `doc_${String(index)}`,
      result: 'ok' as const,
      detail: 'one of a batch',
    }));
    expect(cache.transaction(() => cache.audit.recordMany(batch))).toBe(500);
    cache.audit.record({
      profileId: 'prof_1',
      profileName: 'Operations',
      action: 'rule.save',
      target: 't',
      result: 'ok',
    });
    const head = cache.audit.chainHead();
    await cache.close();
    const untouched = await verify();
    expect(untouched.code).toBe(0);
    expect(parsed(untouched)).toMatchObject({ ok: true, entries: 504, lastId: 504, head: head.head });
    tamper("UPDATE audit_log SET target = 'doc_x' WHERE id = 250");
    const json = await verify();
    expect(json.code).toBe(1);
    expect(parsed(json).problem).toMatchObject({ kind: 'entry-changed', entryId: 250 });
  });

  it('fails and names the entry after one deleted from the middle', async () => {
    await logWrites(10);
    tamper('DELETE FROM audit_log WHERE id = 4');
    const json = await verify();
    expect(json.code).toBe(1);
    expect(parsed(json).problem).toMatchObject({ kind: 'entry-missing', entryId: 5 });
    expect(parsed(json).problem?.message).toMatch(/entry #4 was deleted/);
  });

  it('fails and names the first entry of a reordering', async () => {
    await logWrites(10);
    tamper(`UPDATE audit_log SET id = -7 WHERE id = 7;
            UPDATE audit_log SET id = 7 WHERE id = 8;
            UPDATE audit_log SET id = 8 WHERE id = -7;`);
    const json = await verify();
    expect(json.code).toBe(1);
    expect(parsed(json).problem).toMatchObject({ kind: 'entry-changed', entryId: 7 });
  });

  it('fails when the last entries are deleted, even after the app appends again', async () => {
    await logWrites(10);
    tamper('DELETE FROM audit_log WHERE id > 8');
    const truncated = await verify();
    expect(truncated.code).toBe(1);
    expect(parsed(truncated)).toMatchObject({
      entries: 8,
      problem: { kind: 'tail-deleted', entryId: 9, entry: null },
      anchor: { entries: 10, id: 10 },
    });
    await logWrites(3);
    const appended = await verify();
    expect(appended.code).toBe(1);
    expect(parsed(appended).problem).toMatchObject({ kind: 'head-changed', entryId: 10 });
  });

  it('fails when the whole file is put back to an older copy', async () => {
    await logWrites(4);
    copyFileSync(recordFile, join(temp.folder, 'older.db'));
    await logWrites(2);
    copyFileSync(join(temp.folder, 'older.db'), recordFile);
    const json = await verify();
    expect(json.code).toBe(1);
    expect(parsed(json).problem).toMatchObject({ kind: 'tail-deleted', entryId: 5 });
  });

  it('chains the entries of an older version on first open', async () => {
    const legacy = new DatabaseSync(file);
    applyMigrations(legacy, CACHE_MIGRATIONS.slice(0, 7), CACHE_MIGRATIONS_TABLE);
    const insert = legacy.prepare(
      'INSERT INTO audit_log (profile_id, profile_name, action, target, at, result, detail) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    for (let n = 1; n <= 25; n += 1) {
      insert.run('prof_1', 'Operations', 'webhook.create', `wh_${String(n)}`, '2026-11-01T00:00:00.000Z', 'ok', null);
    }
    legacy.close();
    await logWrites(2);
    const json = await verify();
    expect(json.code).toBe(0);
    expect(parsed(json)).toMatchObject({ ok: true, entries: 28, lastId: 28 });
    const cache = await openCache();
    expect(cache.audit.list({ limit: 3 }).rows.map((row) => row.action)).toEqual([
      'webhook.update',
      'document.create',
      'audit.chain.begin',
    ]);
    await cache.close();
    // An old entry edited after the chaining is caught like any other.
    tamper("UPDATE audit_log SET target = 'wh_other' WHERE id = 3");
    expect(parsed(await verify()).problem).toMatchObject({ kind: 'entry-changed', entryId: 3 });
  });

  it('says the log cannot be verified when its key is gone from the keychain, never using a stand-in key', async () => {
    await logWrites(5);
    const cacheId = cacheIdOf() ?? '';
    await store.delete(auditChainKeyAccount(cacheId));
    const result = await verify();
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/audit log's key is no longer in the keychain, so its 5 earlier entries/);
    expect(parsed(result)).toMatchObject({
      ok: false,
      head: null,
      problem: { kind: 'key-lost', entryId: 6, entry: { action: 'audit.key.lost' } },
    });
    // A new random key was made (never a constant one), and stays: the next run says the same.
    expect(await store.get(auditChainKeyAccount(cacheId))).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    const again = await verify();
    expect(again).toMatchObject({ code: 1, stderr: '' });
    expect(parsed(again).problem).toMatchObject({ kind: 'key-lost', entryId: 6 });
  });

  it('keeps one valid chain when two connections append in turn (the app and the command line)', async () => {
    const app = await openCache();
    const cli = await openCache();
    for (let n = 1; n <= 20; n += 1) {
      (n % 2 === 0 ? app : cli).audit.record({
        profileId: 'prof_1',
        profileName: 'Operations',
        action: n % 2 === 0 ? 'review.cleared' : 'webhook.update',
        target: `target_${String(n)}`,
        result: 'ok',
      });
    }
    await cli.close();
    await app.close();
    const json = await verify();
    expect(json.code).toBe(0);
    expect(parsed(json)).toMatchObject({ ok: true, entries: 20, anchor: { entries: 20, id: 20 } });
  });

  it('refuses extra words and options with a usage error', async () => {
    expect(await ledger(['--data', temp.folder, 'audit', 'verify', 'now'], store)).toMatchObject({ code: 2 });
    const withOption = await ledger(['--data', temp.folder, 'audit', 'verify', '--profile', 'x'], store);
    expect(withOption).toMatchObject({ code: 2, stderr: 'ledger: `audit verify` has no option --profile.\n' });
  });
});
