/**
 * The applicant words a rewritten or dropped applicant leaves are found by profile and
 * applicant through an index (cache migration 23), never by reading every word of the profile:
 * without it each delete walked the whole table and a book sync of 24,000 records slowed as the
 * cache grew (docs/applications.md, "Benchmarks"). Checked on SQLite's own plan for the delete
 * an applicant's rewrite runs (the trigger of a dropped applicant runs the same one).
 */
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CACHE_MIGRATIONS } from '../../../src/main/services/cache/cacheMigrations.ts';
import { applyMigrations } from '../../../src/main/services/migrations/migrationRunner.ts';

let database: DatabaseSync;

beforeEach(() => {
  database = new DatabaseSync(':memory:');
  applyMigrations(database, CACHE_MIGRATIONS, 'cache_migrations');
});

afterEach(() => {
  database.close();
});

function planOf(sql: string): string {
  const steps = database.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[];
  return steps.map((step) => step.detail).join(' | ');
}

describe('applicant words by applicant', () => {
  it('deletes an applicant’s words through the index, not a scan of the profile’s words', () => {
    const plan = planOf('DELETE FROM applicant_words WHERE profile_id = ? AND applicant_id = ?');
    expect(plan).toMatch(/USING (COVERING )?INDEX applicant_words_by_applicant/);
    expect(plan).not.toMatch(/^SCAN applicant_words$/);
  });
});
