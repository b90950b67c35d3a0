/**
 * Record migration 3 on a record.sqlite made by the previous version (migrations 1 and 2): the
 * reviews table is rebuilt so its kind may be `screening-hit`, and nothing of the record is lost
 * on the way: every review keeps its id, body, MAC and state, the kept counts still add up, and
 * the count triggers work on the rebuilt table. A real file on disk, closed and opened again.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyMigrations } from '../../../src/main/services/migrations/migrationRunner.ts';
import { RECORD_MIGRATIONS, RECORD_MIGRATIONS_TABLE } from '../../../src/main/services/record/recordMigrations.ts';
import { makeTempFolder } from './support/tempFolder.ts';

let temp: { folder: string; remove: () => void };

beforeEach(() => {
  temp = makeTempFolder('ledgerdesk-record-003-');
});

afterEach(() => {
  temp.remove();
});

const INSERT_REVIEW = `INSERT INTO reviews (profile_id, kind, ref, account_id, posted_at, state, rule_name, record_digest, version, updated_at, body, row_listed, row_mac)
  VALUES (?, ?, ?, ?, NULL, ?, NULL, ?, 1, '2026-12-01T10:00:00.000Z', ?, 1, ?)`;

function counts(database: DatabaseSync) {
  return database
    .prepare('SELECT kind, state, total FROM review_counts WHERE total > 0 ORDER BY kind, state')
    .all() as { kind: string; state: string; total: number }[];
}

describe('record migration 3', () => {
  it('keeps every review of a record made before, and lets a screening hit be reviewed', () => {
    const file = join(temp.folder, 'record.sqlite');
    const before = new DatabaseSync(file);
    applyMigrations(before, RECORD_MIGRATIONS.slice(0, 2), RECORD_MIGRATIONS_TABLE);
    const insert = before.prepare(INSERT_REVIEW);
    insert.run('p1', 'pending-transaction', 'row-1', 'acc-1', 'flagged', 'd1', Buffer.from('sealed one'), 'mac1');
    insert.run('p1', 'application', 'app-1', null, 'cleared', 'd2', Buffer.from('sealed two'), 'mac2');
    // The previous schema refuses a hit's review: why the table is rebuilt.
    expect(() =>
      insert.run('p1', 'screening-hit', 'a:ofac-sdn:1', null, 'cleared', 'd3', Buffer.from('x'), null),
    ).toThrow(/CHECK constraint failed/);
    const rows = before.prepare('SELECT * FROM reviews ORDER BY id').all();
    const countsBefore = counts(before);
    before.close();

    const after = new DatabaseSync(file);
    const outcome = applyMigrations(after, RECORD_MIGRATIONS, RECORD_MIGRATIONS_TABLE);
    expect(outcome.unknown ?? null).toBeNull();
    expect(after.prepare('SELECT * FROM reviews ORDER BY id').all()).toEqual(rows);
    expect(counts(after)).toEqual(countsBefore);

    after
      .prepare(INSERT_REVIEW)
      .run('p1', 'screening-hit', 'a:ofac-sdn:1', null, 'cleared', 'd3', Buffer.from('x'), null);
    after.prepare(`UPDATE reviews SET state = 'changed' WHERE ref = 'row-1'`).run();
    expect(counts(after)).toEqual([
      { kind: 'application', state: 'cleared', total: 1 },
      { kind: 'pending-transaction', state: 'changed', total: 1 },
      { kind: 'screening-hit', state: 'cleared', total: 1 },
    ]);
    const indexes = (
      after
        .prepare(
          `SELECT name FROM sqlite_master WHERE tbl_name = 'reviews' AND type IN ('index', 'trigger') ORDER BY name`,
        )
        .all() as {
        name: string;
      }[]
    ).map((row) => row.name);
    expect(indexes).toEqual([
      'reviews_by_listed_state',
      'reviews_by_queue_part',
      'reviews_by_row_time',
      'reviews_by_state',
      'reviews_by_time',
      'reviews_counted',
      'reviews_flagged_by_person',
      'reviews_flagged_by_rule',
      'reviews_identity',
      'reviews_recounted',
      'reviews_uncounted',
    ]);
    after.close();
  });
});
