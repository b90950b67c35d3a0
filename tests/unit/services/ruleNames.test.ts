/**
 * N10's upgrade: a cache written before watch-rule names were sealed (names in clear in
 * watch_rules, reviews and review_history) is turned into references on its first open. An
 * authentic row stays authentic under its new MAC; a row altered before the upgrade stays
 * altered (the upgrade never launders it); the rule's conditions open under their new identity.
 */
import { randomBytes } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import {
  CACHE_MIGRATIONS_TABLE,
  CACHE_MIGRATIONS_WITH_THE_RECORD,
} from '../../../src/main/services/cache/cacheMigrations.ts';
import { applyMigrations } from '../../../src/main/services/migrations/migrationRunner.ts';
import { RowMacs } from '../../../src/main/services/cache/rowMacs.ts';
import { RuleNames } from '../../../src/main/services/cache/ruleNames.ts';
import { RecordSealer } from '../../../src/main/services/cache/sealing.ts';
import { WatchRules } from '../../../src/main/services/review/watchRules.ts';

const NAME = 'Payments to Quillfeather Holdings';

function oldCache(): { database: DatabaseSync; sealer: RecordSealer; macs: RowMacs } {
  const database = new DatabaseSync(':memory:');
  applyMigrations(database, CACHE_MIGRATIONS_WITH_THE_RECORD, CACHE_MIGRATIONS_TABLE);
  const sealer = new RecordSealer(randomBytes(32), 'cache-n10');
  const macs = new RowMacs(() => sealer);
  macs.install(database);
  const rule = { name: NAME, kind: 'pending-transaction', amountBeyond: '-100.00' };
  const body = sealer.sealJson(rule, `watch_rule\u0000p1\u0000${NAME}`);
  const at = '2026-01-02T03:04:05.000Z';
  database
    .prepare('INSERT INTO watch_rules (profile_id, name, kind, created_at, body, row_mac) VALUES (?, ?, ?, ?, ?, ?)')
    .run(
      'p1',
      NAME,
      'pending-transaction',
      at,
      body,
      macs.of('watch_rules', ['p1', NAME, 'pending-transaction', at, body]),
    );
  const review = database.prepare(
    `INSERT INTO reviews (profile_id, kind, ref, account_id, posted_at, state, rule_name, record_digest, version, updated_at, body, row_mac)
     VALUES ('p1', 'pending-transaction', ?, 'a1', ?, 'flagged', ?, NULL, 1, ?, NULL, ?)`,
  );
  for (const ref of ['t1', 't2']) {
    review.run(
      ref,
      at,
      NAME,
      at,
      macs.of('reviews', ['p1', 'pending-transaction', ref, 'a1', at, 'flagged', NAME, null, 1, at, null]),
    );
  }
  database
    .prepare(
      `INSERT INTO review_history (profile_id, kind, ref, version, at, state, rule_name, body, row_mac)
       VALUES ('p1', 'pending-transaction', 't1', 1, ?, 'flagged', ?, NULL, ?)`,
    )
    .run(at, NAME, macs.of('review_history', ['p1', 'pending-transaction', 't1', 1, at, 'flagged', NAME, null]));
  // Altered before the upgrade: its state changed in the file, its MAC left as it was.
  database.exec("UPDATE reviews SET state = 'escalated' WHERE ref = 't2'");
  database.exec("DELETE FROM cache_meta WHERE key = 'rule_names'");
  return { database, sealer, macs };
}

describe('watch-rule names: the upgrade of a cache written before N10', () => {
  it('turns every name into its reference, keeps authentic rows authentic and altered rows altered', () => {
    const { database, sealer, macs } = oldCache();
    const names = new RuleNames(database, () => sealer);
    names.install(database, macs);
    const ref = names.refOf('p1', NAME);
    expect(ref).toMatch(/^rule#[\w-]{16}$/);
    const clear = database
      .prepare(
        `SELECT (SELECT COUNT(*) FROM watch_rules WHERE name = ?) + (SELECT COUNT(*) FROM reviews WHERE rule_name = ?)
           + (SELECT COUNT(*) FROM review_history WHERE rule_name = ?) AS n`,
      )
      .get(NAME, NAME, NAME) as { n: number };
    expect(clear.n).toBe(0);
    const reviews = database.prepare('SELECT * FROM reviews ORDER BY ref').all() as Record<string, unknown>[];
    expect(reviews.map((row) => row['rule_name'])).toEqual([ref, ref]);
    expect(reviews.map((row) => macs.holds('reviews', row))).toEqual([true, false]);
    const step = database.prepare('SELECT * FROM review_history').get() as Record<string, unknown>;
    expect(macs.holds('review_history', step)).toBe(true);
    const rules = new WatchRules(database, () => sealer, macs, names);
    expect(rules.list('p1')).toEqual([{ name: NAME, kind: 'pending-transaction', amountBeyond: '-100.00' }]);
    expect(new RuleNames(database, () => sealer).nameOf('p1', ref)).toBe(NAME);
  });

  it('runs once: a second open changes nothing', () => {
    const { database, sealer, macs } = oldCache();
    new RuleNames(database, () => sealer).install(database, macs);
    const before = JSON.stringify(database.prepare('SELECT * FROM reviews ORDER BY ref').all());
    new RuleNames(database, () => sealer).install(database, macs);
    expect(JSON.stringify(database.prepare('SELECT * FROM reviews ORDER BY ref').all())).toBe(before);
  });

  it('a name swapped for another reference’s is not shown as that rule’s name', () => {
    const { database, sealer, macs } = oldCache();
    const names = new RuleNames(database, () => sealer);
    names.install(database, macs);
    const other = names.remember('p1', 'Another rule');
    database
      .prepare('UPDATE watch_rule_names SET name = (SELECT name FROM watch_rule_names WHERE ref = ?) WHERE ref = ?')
      .run(other, names.refOf('p1', NAME));
    expect(new RuleNames(database, () => sealer).nameOf('p1', names.refOf('p1', NAME))).toBe(names.refOf('p1', NAME));
  });
});
