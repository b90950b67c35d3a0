/**
 * The audit chain's pieces: the canonical encoding (unambiguous), the MAC (exactly
 * HMAC-SHA256(key, previous || canonical)), appends, the anchor that follows the head, and
 * verify naming the first entry that breaks. SQLite in memory with the cache's migrations;
 * tests/integration/services/auditChain.test.ts does the same on a real file and keychain.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseAnchor } from '../../../src/main/services/audit/auditAnchor.ts';
import {
  canonicalEntryBytes,
  CHAIN_GENESIS,
  chainKeyOf,
  entryMac,
  type ChainedFields,
} from '../../../src/main/services/audit/auditChain.ts';
import type { AuditLog } from '../../../src/main/services/audit/auditLog.ts';
import { openAuditLog } from '../../../src/main/services/audit/openAuditLog.ts';
import {
  CACHE_MIGRATIONS,
  CACHE_MIGRATIONS_TABLE,
  CACHE_MIGRATIONS_WITH_THE_RECORD,
} from '../../../src/main/services/cache/cacheMigrations.ts';
import { applyMigrations } from '../../../src/main/services/migrations/migrationRunner.ts';
import {
  auditChainHeadAccount,
  auditChainKeyAccount,
  Credentials,
} from '../../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';

const CACHE_ID = 'cache-under-test';

const entry: ChainedFields = {
  id: 7,
  profileId: 'prof_1',
  profileName: 'Sandbox',
  action: 'webhook.delete',
  target: 'wh_1',
  at: '2026-11-23T10:00:00.000Z',
  result: 'failed',
  detail: null,
};

describe('the canonical entry bytes', () => {
  it('change with every field, including where one field ends and the next begins', () => {
    const base = canonicalEntryBytes(entry);
    const variants: ChainedFields[] = [
      { ...entry, id: 8 },
      { ...entry, profileName: 'Sandbox ' },
      { ...entry, action: 'webhook.delet', target: 'ewh_1' },
      { ...entry, target: 'wh_1', detail: '' },
      { ...entry, at: '2026-11-23T10:00:00.001Z' },
      { ...entry, result: 'ok' },
      { ...entry, detail: 'DELETE /webhook/{id} (404)' },
    ];
    const encodings = new Set(variants.map((variant) => canonicalEntryBytes(variant).toString('hex')));
    expect(encodings.size).toBe(variants.length);
    expect(encodings.has(base.toString('hex'))).toBe(false);
  });

  it('tells a null detail from an empty one, and encodes text as UTF-8 with its byte length', () => {
    expect(canonicalEntryBytes({ ...entry, detail: null }).equals(canonicalEntryBytes({ ...entry, detail: '' }))).toBe(
      false,
    );
    const bytes = canonicalEntryBytes({ ...entry, detail: 'é€' });
    expect(bytes.subarray(-9).equals(Buffer.from([0, 0, 0, 5, ...Buffer.from('é€', 'utf8')]))).toBe(true);
    expect(bytes.subarray(0, 26).toString('utf8')).toBe('ledgerdesk-audit-entry-v1\u0000');
  });

  it('is the input of HMAC-SHA256 after the previous MAC', () => {
    const key = randomBytes(32);
    const previous = randomBytes(32);
    const expected = createHmac('sha256', key)
      .update(Buffer.concat([previous, canonicalEntryBytes(entry)]))
      .digest();
    expect(entryMac(chainKeyOf(key), previous, canonicalEntryBytes(entry)).equals(expected)).toBe(true);
    expect(() => chainKeyOf(Buffer.alloc(16))).toThrow(/32 bytes/);
  });
});

describe('the audit log as a chain', () => {
  let database: DatabaseSync;
  let store: InMemorySecretStore;
  let credentials: Credentials;
  let log: AuditLog;

  async function open(): Promise<{ log: AuditLog; messages: string[] }> {
    const opened = await openAuditLog(database, credentials, CACHE_ID);
    log = opened.log;
    return opened;
  }

  function append(count: number): void {
    for (let n = 0; n < count; n += 1) {
      log.record({
        profileId: 'prof_1',
        profileName: 'Sandbox',
        action: 'document.create',
        target: `doc_${String(n)}`,
        result: 'ok',
      });
    }
  }

  function tamper(sql: string): void {
    database.exec('DROP TRIGGER IF EXISTS audit_log_no_update; DROP TRIGGER IF EXISTS audit_log_no_delete;');
    database.exec(sql);
  }

  beforeEach(async () => {
    database = new DatabaseSync(':memory:');
    applyMigrations(database, CACHE_MIGRATIONS_WITH_THE_RECORD, CACHE_MIGRATIONS_TABLE);
    store = new InMemorySecretStore();
    credentials = new Credentials(store);
    await open();
  });

  it('keeps the key in the keychain and chains each entry from the one before', async () => {
    append(3);
    const key = Buffer.from((await store.get(auditChainKeyAccount(CACHE_ID))) ?? '', 'base64');
    expect(key).toHaveLength(32);
    const rows = database
      .prepare(
        'SELECT id, profile_id, profile_name, action, target, at, result, detail, mac FROM audit_log ORDER BY id',
      )
      .all() as { id: number; mac: Uint8Array; [column: string]: unknown }[];
    let previous: Uint8Array = CHAIN_GENESIS;
    for (const row of rows) {
      const fields: ChainedFields = {
        id: row.id,
        profileId: String(row['profile_id']),
        profileName: String(row['profile_name']),
        action: String(row['action']),
        target: String(row['target']),
        at: String(row['at']),
        result: String(row['result']),
        detail: null,
      };
      const expected = createHmac('sha256', key).update(previous).update(canonicalEntryBytes(fields)).digest();
      expect(Buffer.from(row.mac).equals(expected)).toBe(true);
      previous = row.mac;
    }
    const verification = await log.verify();
    expect(verification).toMatchObject({ ok: true, entries: 3, lastId: 3, problem: null, notes: [] });
    expect(verification.head).toBe(Buffer.from(previous).toString('hex'));
    expect(log.chainHead()).toEqual({ entries: 3, lastId: 3, head: verification.head });
  });

  it('copies the head to the keychain after appends, and only forward', async () => {
    append(5);
    await log.settled();
    const anchor = parseAnchor(await store.get(auditChainHeadAccount(CACHE_ID)));
    expect(anchor).toEqual({ entries: 5, id: 5, mac: log.chainHead().head });
    tamper('DELETE FROM audit_log WHERE id = 5');
    await open();
    append(1);
    await log.settled();
    // The entry #5 the keychain names is not the one in the log now: the anchor stays.
    expect(parseAnchor(await store.get(auditChainHeadAccount(CACHE_ID)))).toEqual(anchor);
    const verification = await log.verify();
    expect(verification.problem).toMatchObject({ kind: 'head-changed', entryId: 5 });
  });

  it('joins the caller’s transaction: a rolled-back append leaves no entry and no anchor', async () => {
    append(2);
    await log.settled();
    database.exec('BEGIN IMMEDIATE');
    append(1);
    database.exec('ROLLBACK');
    await log.settled();
    expect(parseAnchor(await store.get(auditChainHeadAccount(CACHE_ID)))).toMatchObject({ id: 2, entries: 2 });
    append(1);
    expect(await log.verify()).toMatchObject({ ok: true, entries: 3 });
  });

  it('names an edited entry', async () => {
    append(5);
    tamper("UPDATE audit_log SET result = 'refused' WHERE id = 3");
    const verification = await log.verify();
    expect(verification).toMatchObject({ ok: false, head: null, entries: 5 });
    expect(verification.problem).toMatchObject({ kind: 'entry-changed', entryId: 3, entry: { result: 'refused' } });
    expect(verification.problem?.message).toMatch(/entry #3 \(.*document\.create doc_2, Sandbox\) does not match/);
  });

  it('names the entry after a deleted one, and says which was deleted', async () => {
    append(5);
    tamper('DELETE FROM audit_log WHERE id IN (2, 3)');
    const { problem } = await log.verify();
    expect(problem).toMatchObject({ kind: 'entry-missing', entryId: 4 });
    expect(problem?.message).toMatch(/entries #2–#3 were deleted/);
  });

  it('names a deleted first entry', async () => {
    append(3);
    tamper('DELETE FROM audit_log WHERE id = 1');
    expect((await log.verify()).problem).toMatchObject({ kind: 'entry-missing', entryId: 2 });
  });

  it('names the first of two swapped entries', async () => {
    append(5);
    tamper(
      'UPDATE audit_log SET id = -2 WHERE id = 2; UPDATE audit_log SET id = 2 WHERE id = 4; UPDATE audit_log SET id = 4 WHERE id = -2;',
    );
    expect((await log.verify()).problem).toMatchObject({
      kind: 'entry-changed',
      entryId: 2,
      entry: { target: 'doc_3' },
    });
  });

  it('names a MAC copied from another entry, and one removed', async () => {
    append(4);
    tamper('UPDATE audit_log SET mac = (SELECT mac FROM audit_log WHERE id = 1) WHERE id = 2');
    expect((await log.verify()).problem).toMatchObject({ kind: 'entry-changed', entryId: 2 });
    tamper('UPDATE audit_log SET mac = NULL WHERE id = 1');
    expect((await log.verify()).problem).toMatchObject({ kind: 'mac-missing', entryId: 1 });
  });

  it('finds a deleted tail through the keychain’s anchor', async () => {
    append(6);
    await log.settled();
    tamper('DELETE FROM audit_log WHERE id >= 5');
    const verification = await log.verify();
    expect(verification).toMatchObject({ ok: false, entries: 4, lastId: 4 });
    expect(verification.problem).toMatchObject({ kind: 'tail-deleted', entryId: 5, entry: null });
    expect(verification.problem?.message).toMatch(/recorded 6 entries up to #6; entries from #5 on were deleted/);
  });

  it('finds a log emptied of everything', async () => {
    append(2);
    await log.settled();
    tamper('DELETE FROM audit_log');
    expect((await log.verify()).problem).toMatchObject({ kind: 'tail-deleted', entryId: 1 });
  });

  it('does not re-chain entries whose MACs were removed once the log is chained', async () => {
    append(3);
    await log.settled();
    tamper('UPDATE audit_log SET mac = NULL');
    await open();
    expect((await log.verify()).problem).toMatchObject({ kind: 'mac-missing', entryId: 1 });
  });

  it('says the chain cannot be verified when the key is lost, and chains what follows with a new key', async () => {
    append(3);
    await log.settled();
    await store.delete(auditChainKeyAccount(CACHE_ID));
    const reopened = await open();
    expect(reopened.messages[0]).toMatch(/no longer in the keychain.*3 earlier entries can no longer be verified/);
    append(2);
    const verification = await log.verify();
    expect(verification).toMatchObject({ ok: false, entries: 6, head: null });
    expect(verification.problem).toMatchObject({ kind: 'key-lost', entryId: 4, entry: { action: 'audit.key.lost' } });
    expect(verification.problem?.message).toMatch(/the 3 entries before entry #4 .* The 3 from there on verify/);
    tamper("UPDATE audit_log SET target = 'doc_x' WHERE id = 5");
    expect((await log.verify()).problem).toMatchObject({ kind: 'entry-changed', entryId: 5 });
  });

  it('does not honour a forged key-lost entry', async () => {
    append(3);
    tamper("UPDATE audit_log SET action = 'audit.key.lost' WHERE id = 2");
    expect((await log.verify()).problem).toMatchObject({ kind: 'entry-changed', entryId: 2 });
  });

  it('chains entries written before the upgrade on first open, and says so in the log', async () => {
    const legacy = new DatabaseSync(':memory:');
    applyMigrations(legacy, CACHE_MIGRATIONS.slice(0, 7), CACHE_MIGRATIONS_TABLE);
    const insert = legacy.prepare(
      `INSERT INTO audit_log (profile_id, profile_name, action, target, at, result, detail) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    insert.run('prof_1', 'Sandbox', 'webhook.create', 'wh_1', '2026-11-01T00:00:00.000Z', 'ok', null);
    insert.run('prof_1', 'Sandbox', 'webhook.delete', 'wh_1', '2026-11-02T00:00:00.000Z', 'failed', 'not found');
    applyMigrations(legacy, CACHE_MIGRATIONS_WITH_THE_RECORD, CACHE_MIGRATIONS_TABLE);
    database = legacy;
    credentials = new Credentials((store = new InMemorySecretStore()));
    await open();
    const verification = await log.verify();
    expect(verification).toMatchObject({ ok: true, entries: 3, lastId: 3 });
    expect(log.list().rows[0]).toMatchObject({
      action: 'audit.chain.begin',
      detail: expect.stringMatching(/^2 entries written before the log was chained/) as string,
    });
    // Chained once: opening again changes nothing.
    await open();
    expect(await log.verify()).toMatchObject({ ok: true, entries: 3, head: verification.head });
  });

  it('refuses an UPDATE of anything but a missing MAC, and any DELETE', () => {
    append(1);
    expect(() => {
      database.exec("UPDATE audit_log SET target = 'x'");
    }).toThrow(/append-only/);
    expect(() => {
      database.exec('UPDATE audit_log SET mac = zeroblob(32)');
    }).toThrow(/append-only/);
    expect(() => {
      database.exec('DELETE FROM audit_log');
    }).toThrow(/append-only/);
  });
});
