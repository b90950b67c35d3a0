/**
 * Every shipped migration of every store, pinned by the checksum of what it executes (issue 34,
 * item 4). A migration that has shipped is never edited: a database that applied it would no
 * longer match this build (it would open read-only). So a change to a pinned migration's SQL
 * fails here; a change to its comments or layout does not, and a database made before keeps
 * opening. A new migration adds its own line below.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { BANK_COMPAT_MIGRATIONS } from '../../../src/main/services/cache/bankCompatMigrations.ts';
import { CACHE_MIGRATIONS, CACHE_MIGRATIONS_TABLE } from '../../../src/main/services/cache/cacheMigrations.ts';
import { LISTENER_MIGRATIONS } from '../../../src/main/services/listener/migrations.ts';
import { executedSql } from '../../../src/main/services/migrations/executedSql.ts';
import { applyMigrations, checksumOf, type Migration } from '../../../src/main/services/migrations/migrationRunner.ts';
import { RECORD_MIGRATIONS } from '../../../src/main/services/record/recordMigrations.ts';
import { SCREENING_LIST_MIGRATIONS } from '../../../src/main/services/screening/screeningListStore.ts';

const SHIPPED: Record<string, { migrations: readonly Migration[]; pinned: [number, string][] }> = {
  cache: {
    migrations: CACHE_MIGRATIONS,
    pinned: [
      [1, '08b9c13efa7001bc29eb80c0c39b3a4eb4fe8a33a6eef5567222a99e321898c1'],
      [2, 'b62364284581a52a0046a12f6abc6295d10e068f7e2acad893675fc2ddb30b28'],
      [3, '2e67f75eba6d2b6df66bcb39a019637f3244ea9c239d8c80dee21cc75d4e07bb'],
      [4, '4ca69c225e20ba985dbaeea7e71eb50387616086658a7e9e3d5080a4006eb025'],
      [5, '868e5fc1549e8a6d8bcc98c337880cd406a534d8942f8d24d6cec346b0045dfe'],
      [6, 'a9bcdee0f4db17faa3fdca8b016196ffd4247dec542bee06c59ab1d5c3bc5d2a'],
      [7, '4f7ca34ef50b05ef5411dc999602447cc5401f1ed3f9d57d21dd262adce8a521'],
      [8, '11050d0f91fd88b03756c244e62fae128fa0c01748bdd4e6a1747fa2d2589b26'],
      [9, 'fd57cde0720d2df9b015604c75a97747ddf217cfa996b64bb7cd7c2383c82eb6'],
      [10, '97463f1fba9483f2a8a59c66dfa76d44169ed556cabd0bc136a25c39eb348a1d'],
      [11, '651ba2066fcc37c8cec760b0a25aeeec4d710529a1f8ed833f82f4e347491a1a'],
      [12, '0abe0dc0a45be804d758845908dc648c38caaa7a0413b816fa4fa330f8e2c772'],
      [13, '4c7281115e5b3911a68d0c1a1fd0609dc9262f21c5a8142020a5cdecb92f99db'],
      [14, '2bdc67439832b072c710296ac28e282872da3787cf1a1e59dd06de2b91b07f36'],
      [15, '19883889717efefb07bdfaf0922fa686f5092862afd86ef4d8a8ab2c95a4c23f'],
      [16, '35feb91440662ad21f5ad79e77a6ee8e28b538b1d36e416c7404c47a9ee463fb'],
      [17, '4702cf88c6f92f09eb26d6ac9a3cf99c088fe61f703fc27096ab28685dd8dce8'],
      [18, '03439f7bed4617b51d7f2563edb1028858572861b0c7c9dccf6cc4fcd25341a4'],
      [19, 'fd3c7218ecf643fa85458bc624cf08466c7ba6ac14e61b46b59f527a92305926'],
      [20, 'bf1f3d75b4668d9929703aa4fc7450e1c7d901a0738283cf65424dca2db8bd05'],
      [21, '85ef646b27352c451811e71b1e46bb0ee27126baa6d24bbb3e5b50bc0fb6361d'],
      [22, 'b022a9ab3601f0e78672019ba177f67a1cddd0d3857791e990db4596d970704e'],
      [23, '6c4f042d64909353c718a2dcf0227d2b74ec6d4706411a3ead3690106bbc46e5'],
      [24, 'bc993212d7221d06a157787e8e72d4eb830a7f01258a47a2e368ff6f07865aa0'],
      [25, '6faa3d3f8216999671ca2c20b717e172ffffc0ebefbc788e44c22bf1c921035e'],
      [26, 'b348b96455cb47b0c28fa6075cc9b913e7ca73776147715c4dfc52b7b7ea5045'],
      [27, '2d211e916836546b6fe1489d1af7cbe8c0a339ae68b9615c4137b615c7e9f2e1'],
      [28, '46d8c9d7b54103aacbdcd8ffff77695133a5aaffb5e0112a3636ced2094a3e72'],
      [29, '07a40b7ea2d2d8ed24843de3e5a1d77f778072445e734f548ecc6bd130f0c8c2'],
      [30, '314bc9bdb1419737876850be8660b179f586d59646ebcf875e9a039ab9b79097'],
      [31, '87fe20bf3b8e1bec29d744f8f32bd4ee7d3ba58a8663482665d8ad8ffd3058c3'],
      [32, '00378cbe097e3f226aa1f7414a1aabb0c43970b76648e5d97c6fff271dd1b3d1'],
    ],
  },
  'bank compat': {
    migrations: BANK_COMPAT_MIGRATIONS,
    pinned: [
      [1, '30574ed3ddd54d4f16e120194653a8f4c1deddca3d4d327c37343659f4da4962'],
      [2, 'bf71a9d07b289083d197d0a58d3f8c0e58a07112ec2e219e083b0cab1597b587'],
      [3, '45463fbd55c93057e48607714ef48819d5b9ef88ba1b931ed9f5e451bde91055'],
    ],
  },
  listener: {
    migrations: LISTENER_MIGRATIONS,
    pinned: [
      [1, '5fb71393348354dc760eb3881415bf170b32bf397cc79d21bf11c5e35022a60e'],
      [2, '9dba899b06b6999bd68f0c951754bbc290f2669f127e2880e854e9a6a6f2df6c'],
    ],
  },
  "officer's record": {
    migrations: RECORD_MIGRATIONS,
    pinned: [
      [1, '4c370dc0e05bd2c1bb7d19b8633d08fb1a17cf0e0c82a13175b9efa1a14b900c'],
      [2, '352a07231617c96ffe6f31b97dc2655e105f708b03a9b1f68929b4d1f780eed8'],
      [3, '7b07f247ac6313036a33caea0ad73b9b9b90370c1c919e73f92738ee9f1bb480'],
    ],
  },
  'screening lists': {
    migrations: SCREENING_LIST_MIGRATIONS,
    pinned: [[1, '0146690868bd32bab6c25d3cf40f794500383644ec37e888ec73a8bc3ac876a7']],
  },
};

/** The checksum builds before issue 34 stored: of the raw text. */
const rawChecksum = (sql: string): string => createHash('sha256').update(sql).digest('hex');

describe('shipped migrations', () => {
  for (const [store, { migrations, pinned }] of Object.entries(SHIPPED)) {
    it(`keep the ${store}'s checksums as shipped`, () => {
      expect(migrations.map((migration) => [migration.version, checksumOf(migration)])).toEqual(pinned);
    });
  }
});

describe('a checksum covers what a migration executes', () => {
  const shipped = CACHE_MIGRATIONS[0] as Migration;

  it('is the same when a comment or the layout changes', () => {
    const commented = {
      ...shipped,
      sql: `-- a comment fixed after shipping\n${shipped.sql.replace('-- One row per sync job key', '--  One row for each sync job key')}  /* and another */\n`,
    };
    expect(commented.sql).not.toBe(shipped.sql);
    expect(checksumOf(commented)).toBe(checksumOf(shipped));
    const reindented = { ...shipped, sql: shipped.sql.replace(/\n\s+/g, '\n  ').replace(/, /g, ' ,  ') };
    expect(checksumOf(reindented)).toBe(checksumOf(shipped));
  });

  it('differs when the SQL changes, even inside a string literal', () => {
    const renamed = { ...shipped, sql: shipped.sql.replace('cache_meta (key TEXT', 'cache_meta (name TEXT') };
    expect(checksumOf(renamed)).not.toBe(checksumOf(shipped));
    const literal = { ...shipped, sql: shipped.sql.replace("'running'", "'running '") };
    expect(checksumOf(literal)).not.toBe(checksumOf(shipped));
  });

  it('keeps string literals and quoted names byte for byte, comment marks inside them included', () => {
    expect(executedSql("SELECT  'a  -- b' ,\n \"x  y\"  -- gone\nFROM t /* gone */ WHERE v = 'it''s'")).toBe(
      "SELECT'a  -- b',\"x  y\"FROM t WHERE v='it''s'",
    );
    expect(executedSql('SELECT 1.5 , [a b] FROM t')).toBe('SELECT 1.5,[a b]FROM t');
  });
});

describe('a database made before', () => {
  function withCopy(source: string, run: (database: DatabaseSync) => void): void {
    const folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-migrations-'));
    try {
      copyFileSync(source, join(folder, 'cache.db'));
      const database = new DatabaseSync(join(folder, 'cache.db'));
      try {
        run(database);
      } finally {
        database.close();
      }
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  }

  it('opens when a shipped migration only had its comment edited', () => {
    const database = new DatabaseSync(':memory:');
    expect(applyMigrations(database, CACHE_MIGRATIONS, CACHE_MIGRATIONS_TABLE).unknown).toBeNull();
    const edited = CACHE_MIGRATIONS.map((migration, index) =>
      index === 0 ? { ...migration, sql: `${migration.sql}\n-- a comment fixed after shipping\n` } : migration,
    );
    expect(applyMigrations(database, edited, CACHE_MIGRATIONS_TABLE)).toEqual({ applied: [], unknown: null });
  });

  it('is read-only, never refused, when a shipped migration had its SQL edited', () => {
    const database = new DatabaseSync(':memory:');
    applyMigrations(database, CACHE_MIGRATIONS, CACHE_MIGRATIONS_TABLE);
    const edited = CACHE_MIGRATIONS.map((migration, index) =>
      index === 0
        ? { ...migration, sql: migration.sql.replace('cache_meta (key TEXT', 'cache_meta (name TEXT') }
        : migration,
    );
    const outcome = applyMigrations(
      database,
      [...edited, { version: edited.length + 1, name: 'next', sql: 'CREATE TABLE next (x INTEGER)' }],
      CACHE_MIGRATIONS_TABLE,
      { name: 'The offline cache' },
    );
    expect(outcome.applied).toEqual([]);
    expect(outcome.unknown).toMatchObject({ kind: 'migration-changed', version: 1 });
    expect(outcome.unknown?.sentence).toMatch(
      /^The offline cache's migration 1 .* open read-only: it can be read and exported/,
    );
    expect(database.prepare("SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'next'").get()).toEqual({ n: 0 });
  });

  it('made by af86022 (raw-text checksums) opens, and its rows take the checksums of what they ran', () => {
    withCopy(resolve(import.meta.dirname, '../../fixtures/team-af86022/legacy_alice/cache.db'), (database) => {
      const before = database
        .prepare(`SELECT version, checksum FROM ${CACHE_MIGRATIONS_TABLE} ORDER BY version`)
        .all() as {
        version: number;
        checksum: string;
      }[];
      expect(before.length).toBeGreaterThan(20);
      for (const row of before)
        expect(row.checksum).toBe(rawChecksum((CACHE_MIGRATIONS[row.version - 1] as Migration).sql));
      const outcome = applyMigrations(database, CACHE_MIGRATIONS, CACHE_MIGRATIONS_TABLE);
      expect(outcome.unknown).toBeNull();
      expect(outcome.applied).toEqual(CACHE_MIGRATIONS.slice(before.length).map((migration) => migration.version));
      const after = database.prepare(`SELECT version, checksum FROM ${CACHE_MIGRATIONS_TABLE} ORDER BY version`).all();
      expect(after).toEqual(
        CACHE_MIGRATIONS.map((migration) => ({ version: migration.version, checksum: checksumOf(migration) })),
      );
      expect(applyMigrations(database, CACHE_MIGRATIONS, CACHE_MIGRATIONS_TABLE)).toEqual({
        applied: [],
        unknown: null,
      });
    });
  });
});
