/**
 * N1 of the security review of 3b75e6a: the anchor decides. Someone who can write the data
 * folder's files but not the keychain empties, truncates, rolls back or swaps the audit log (in
 * `record.sqlite` since the record cut-over, issue 34), with or without the cache id; `ledger
 * audit verify` must fail and say what is missing, because the keychain records which log this
 * data folder has (audit/folderLogs.ts) and where each of its logs ended. Real files, real Secret
 * Service (scripts/with-keyring.sh), the real `ledger` command.
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OfflineCache } from '../../src/main/services/cache/offlineCache.ts';
import {
  auditChainHeadAccount,
  auditChainKeyAccount,
  auditFolderAccount,
  cacheDataKeyAccount,
  Credentials,
} from '../../src/main/services/credentials/credentials.ts';
import { KeyringSecretStore } from '../../src/main/services/credentials/keyringSecretStore.ts';
import { folderKeyOf } from '../../src/main/services/audit/folderLogs.ts';
import { openCacheWithRecord } from '../integration/services/support/cacheWithRecord.ts';
import { ledger, type LedgerResult } from '../integration/services/support/ledgerRun.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';

const secretServiceHere = process.env['LEDGERDESK_TEST_SECRET_SERVICE'] === '1';

interface VerifyJson {
  ok: boolean;
  entries: number;
  problem: { kind: string; entryId: number; message: string } | null;
}

describe.skipIf(!secretServiceHere)('N1: the keychain decides which audit log a data folder has', () => {
  const store = new KeyringSecretStore(`Ledgerdesk-test-n1-${randomUUID()}`);
  const cacheIds = new Set<string>();
  const folders: { folder: string; remove: () => void }[] = [];
  let folder: string;
  let file: string;
  /** The file that holds the log: the officer's record. */
  let logFile: string;

  beforeEach(() => {
    const temp = makeTempFolder('ledgerdesk-n1-');
    folders.push(temp);
    folder = temp.folder;
    file = join(folder, 'cache.db');
    logFile = join(folder, 'record.sqlite');
  });

  /** The cache as the app opens it, the record attached (issue 34). */
  async function openCache(at = folder): Promise<OfflineCache> {
    return openCacheWithRecord(at, new Credentials(store));
  }

  afterEach(async () => {
    for (const cacheId of cacheIds) {
      for (const account of [cacheDataKeyAccount, auditChainKeyAccount, auditChainHeadAccount]) {
        await store.delete(account(cacheId));
      }
    }
    for (const temp of folders.splice(0)) {
      await store.delete(auditFolderAccount(folderKeyOf(temp.folder)));
      temp.remove();
    }
    cacheIds.clear();
  });

  function cacheIdOf(path = file): string | null {
    const raw = new DatabaseSync(path, { readOnly: true });
    const row = raw.prepare("SELECT value FROM cache_meta WHERE key = 'cache_id'").get() as
      { value: string } | undefined;
    raw.close();
    if (row !== undefined) cacheIds.add(row.value);
    return row?.value ?? null;
  }

  /** Eight audited changes through the app's own log, then the app closes (the head anchored). */
  async function logWrites(at = folder, count = 8): Promise<void> {
    const cache = await openCache(at);
    for (let n = 1; n <= count; n += 1) {
      cache.audit.record({
        profileId: 'prof_1',
        profileName: 'Operations',
        action: n === 7 ? 'profile.production-off' : 'profile.update',
        target: 'prof_1',
        result: 'ok',
      });
    }
    await cache.close();
    cacheIdOf(join(at, 'cache.db'));
  }

  /** What the review did: the app closed, the WAL folded in, the triggers dropped, then the edit. */
  function tamper(sql: string, on = logFile): void {
    const raw = new DatabaseSync(on);
    raw.exec('PRAGMA wal_checkpoint(TRUNCATE)');
    raw.exec('DROP TRIGGER IF EXISTS audit_log_no_update; DROP TRIGGER IF EXISTS audit_log_no_delete;');
    raw.exec(sql);
    raw.close();
  }

  async function verify(json = true): Promise<LedgerResult> {
    const result = await ledger(['--data', folder, 'audit', 'verify', ...(json ? ['--json'] : [])], store);
    try {
      cacheIdOf();
    } catch {
      // No file (a command that failed before opening it).
    }
    return result;
  }

  function parsed(result: LedgerResult): VerifyJson {
    return JSON.parse(result.stdout) as VerifyJson;
  }

  it('an untouched log verifies (the control of every case below)', async () => {
    await logWrites();
    const result = await verify(false);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^The audit log verifies: 8 entries, chain head [0-9a-f]{64}\.\n$/);
  });

  it('an edited entry, a deleted tail and a deleted middle entry fail (as before)', async () => {
    await logWrites();
    copyFileSync(logFile, join(folder, 'copy.db'));
    tamper("UPDATE audit_log SET detail = 'nothing happened' WHERE action = 'profile.production-off'");
    expect(parsed(await verify()).problem).toMatchObject({ kind: 'entry-changed', entryId: 7 });
    copyFileSync(join(folder, 'copy.db'), logFile);
    tamper('DELETE FROM audit_log WHERE id >= 7');
    expect(parsed(await verify()).problem?.message).toMatch(
      /it ends at entry #6, but the keychain recorded 8 entries up to #8/,
    );
    copyFileSync(join(folder, 'copy.db'), logFile);
    tamper("DELETE FROM audit_log WHERE action = 'profile.production-off'");
    expect(parsed(await verify()).problem?.message).toMatch(/entry #7 was deleted/);
  });

  it('an emptied log whose cache id was deleted fails and names the anchored entries, never "empty"', async () => {
    await logWrites();
    const cacheId = cacheIdOf();
    tamper('DELETE FROM audit_log');
    tamper("DELETE FROM cache_meta WHERE key = 'cache_id'", file);
    const text = await verify(false);
    expect(text.code).toBe(1);
    expect(text.stdout).not.toMatch(/empty: nothing to verify/);
    expect(text.stdout).toMatch(/the keychain recorded 8 entries up to #8/);
    // The file got back the id the keychain names for this folder.
    expect(cacheIdOf()).toBe(cacheId);
  });

  it('an emptied log under a new cache id fails and names the earlier log and its anchor', async () => {
    await logWrites();
    const cacheId = cacheIdOf() ?? '';
    // The log is named by the cache id the record's mark keeps (record/recordCopy.ts).
    tamper(
      `UPDATE record_meta SET value = json_set(value, '$.cacheId', '00000000-0000-4000-8000-000000000000')
         WHERE key = 'copied_from_cache'; DELETE FROM audit_log`,
    );
    const json = await verify();
    expect(json.code).toBe(1);
    const answer = parsed(json);
    expect(answer.ok).toBe(false);
    expect(answer.problem?.kind).toBe('log-replaced');
    expect(answer.problem?.message).toContain(`earlier log (cache ${cacheId}) is not in this file`);
    expect(answer.problem?.message).toMatch(/its 8 entries up to #8 \(head [0-9a-f]{64}\)/);
    // It stays failed: the next open and verify say the same (the keychain keeps the evidence).
    expect(parsed(await verify()).problem?.kind).toBe('log-replaced');
    // The change itself is the first entry of the new chain.
    const cache = await openCache();
    expect(cache.audit.list({ limit: 10 }).rows.map((row) => row.action)).toContain('audit.log.replaced');
    await cache.close();
  });

  it('a deleted cache id alone is given back from the keychain, and the intact log verifies', async () => {
    await logWrites();
    const cacheId = cacheIdOf();
    tamper("DELETE FROM cache_meta WHERE key = 'cache_id'", file);
    const json = await verify();
    expect(json.code).toBe(0);
    expect(parsed(json)).toMatchObject({ ok: true, entries: 9 });
    expect(cacheIdOf()).toBe(cacheId);
  });

  it("a file swapped for another data folder's fails", async () => {
    await logWrites();
    const other = makeTempFolder('ledgerdesk-n1-other-');
    folders.push(other);
    await logWrites(other.folder, 3);
    rmSync(`${logFile}-wal`, { force: true });
    rmSync(`${logFile}-shm`, { force: true });
    copyFileSync(join(other.folder, 'record.sqlite'), logFile);
    const answer = parsed(await verify());
    expect(answer.problem?.kind).toBe('log-replaced');
    expect(answer.problem?.message).toMatch(/its 8 entries up to #8/);
  });

  it('a whole record.sqlite deleted fails against the anchor of the log the folder had', async () => {
    await logWrites();
    for (const suffix of ['', '-wal', '-shm']) rmSync(logFile + suffix, { force: true });
    const answer = parsed(await verify());
    expect(answer.ok).toBe(false);
    expect(answer.problem?.message).toMatch(/the keychain recorded 8 entries up to #8/);
  });

  it('a whole cache.db deleted leaves the log where it is: it verifies', async () => {
    await logWrites();
    for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
    const answer = parsed(await verify());
    expect(answer).toMatchObject({ ok: true, problem: null });
  });

  it('a damaged cache file set aside leaves the log where it is: it verifies', async () => {
    await logWrites();
    for (const suffix of ['-wal', '-shm']) rmSync(file + suffix, { force: true });
    writeFileSync(file, Buffer.alloc(70_000, 7));
    const answer = parsed(await verify());
    expect(answer).toMatchObject({ ok: true, problem: null });
  });
});
