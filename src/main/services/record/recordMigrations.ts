/**
 * The officer's record's numbered migrations (`record_migrations`), one file each under
 * recordMigrations/, applied by the shared runner (migrations/migrationRunner.ts).
 */
import type { Migration } from '../migrations/migrationRunner.ts';
import { migration as m001 } from './recordMigrations/001-the-officers-record.ts';
import { migration as m002 } from './recordMigrations/002-retention-and-the-legal-hold.ts';
import { migration as m003 } from './recordMigrations/003-screening-hits-and-no-match.ts';

export const RECORD_MIGRATIONS_TABLE = 'record_migrations';

export const RECORD_MIGRATIONS: readonly Migration[] = [m001, m002, m003];

/** The record's tables a data folder made before issue 34 kept in its cache file, in copy order. */
export const RECORD_TABLES = [
  'reviews',
  'review_history',
  'review_counts',
  'review_days',
  'review_settings',
  'watch_rules',
  'watch_rule_names',
  'audit_log',
  'team_outbox',
  'team_acknowledged',
] as const;
