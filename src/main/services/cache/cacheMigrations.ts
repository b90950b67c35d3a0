/**
 * The cache's tables. Every bank record's body is a sealed BLOB (sealing.ts); the columns
 * beside it are the ones reads filter and sort on, kept in clear so SQLite can index them:
 * ids, statuses, types, dates and amounts. Descriptions, names, URLs, userdata and every
 * other field stay sealed. Text search uses keyed token hashes, never the words (searchTokens.ts).
 *
 * Each migration is its own file under cacheMigrations/, listed here in order (a static list, so
 * the build bundles them); the runner is migrations/migrationRunner.ts.
 */
import type { Migration } from '../migrations/migrationRunner.ts';
import { migration as m001 } from './cacheMigrations/001-bank-records-sync-checkpoints-and-the-audit.ts';
import { migration as m002 } from './cacheMigrations/002-type-source-of-pending-transactions-for-filtering.ts';
import { migration as m003 } from './cacheMigrations/003-account-applications-by-update-time.ts';
import { migration as m004 } from './cacheMigrations/004-pending-transactions-by-scope-with-record-digests.ts';
import { migration as m005 } from './cacheMigrations/005-webhook-sends-in-attempt-order-within-a.ts';
import { migration as m006 } from './cacheMigrations/006-webhook-sends-by-attempt-number.ts';
import { migration as m007 } from './cacheMigrations/007-webhook-sends-still-retrying.ts';
import { migration as m008 } from './cacheMigrations/008-the-audit-log-as-a-hash-chain.ts';
import { migration as m009 } from './cacheMigrations/009-officer-reviews-their-history-watch-rules-and.ts';
import { migration as m010 } from './cacheMigrations/010-sync-windows.ts';
import { migration as m011 } from './cacheMigrations/011-reviews-in-the-order-of-their-rows.ts';
import { migration as m012 } from './cacheMigrations/012-reviews-that-know-whether-their-row-is.ts';
import { migration as m013 } from './cacheMigrations/013-authenticated-clear-columns-of-reviews-and-watch.ts';
import { migration as m014 } from './cacheMigrations/014-who-acted-in-the-audit-log.ts';
import { migration as m015 } from './cacheMigrations/015-the-application-book-applicants-their-links-to.ts';
import { migration as m016 } from './cacheMigrations/016-team-mode-the-verified-mirror-of-the.ts';
import { migration as m017 } from './cacheMigrations/017-reviews-counted-by-part-of-the-queue.ts';
import { migration as m018 } from './cacheMigrations/018-watch-rule-names-sealed.ts';
import { migration as m019 } from './cacheMigrations/019-pending-transactions-by-bank-date-for-the.ts';
import { migration as m020 } from './cacheMigrations/020-counts-kept-with-the-rows-and-reviews.ts';
import { migration as m021 } from './cacheMigrations/021-flags-of-a-person-and-of-a.ts';
import { migration as m022 } from './cacheMigrations/022-audit-entries-of-each-reviewed-item-for.ts';
import { migration as m023 } from './cacheMigrations/023-applicant-words-by-applicant.ts';
import { migration as m024 } from './cacheMigrations/024-document-files-for-previews.ts';
import { migration as m025 } from './cacheMigrations/025-a-person-s-dispositions-per-day-kept.ts';
import { migration as m026 } from './cacheMigrations/026-pending-transactions-counted-by-amount-band.ts';
import { migration as m027 } from './cacheMigrations/027-account-applications-kept-as-received.ts';
import { migration as m028 } from './cacheMigrations/028-keyed-digests-of-applicants-personal-fields.ts';
import { migration as m029 } from './cacheMigrations/029-team-mode-reviews-as-the-rules-decide.ts';
import { migration as m030 } from './cacheMigrations/030-accounts-named.ts';
import { migration as m031 } from './cacheMigrations/031-kept-figures-of-new-pending-transactions-added.ts';
import { migration as m032 } from './cacheMigrations/032-the-officers-record-moved-to-record-sqlite.ts';

export const CACHE_MIGRATIONS_TABLE = 'cache_migrations';

export const CACHE_MIGRATIONS: readonly Migration[] = [
  m001,
  m002,
  m003,
  m004,
  m005,
  m006,
  m007,
  m008,
  m009,
  m010,
  m011,
  m012,
  m013,
  m014,
  m015,
  m016,
  m017,
  m018,
  m019,
  m020,
  m021,
  m022,
  m023,
  m024,
  m025,
  m026,
  m027,
  m028,
  m029,
  m030,
  m031,
  m032,
];

/**
 * The migration that drops the record's tables from the cache file (issue 34, the cut-over): the
 * cache is migrated to the one before it, the record copied out, and only then is it run.
 */
export const RECORD_MOVED_VERSION = m032.version;

/** The migrations of a cache file that still holds the record's tables: opened without the record, or before the move. */
export const CACHE_MIGRATIONS_WITH_THE_RECORD: readonly Migration[] = CACHE_MIGRATIONS.filter(
  (migration) => migration.version < RECORD_MOVED_VERSION,
);

/**
 * Tables whose rows are sealed with the data key: emptied when the key is lost or changed. The
 * record's (reviews to review_settings) are among them only while a cache file still holds them,
 * before the cut-over; after it they are in record.sqlite, under the record's key (dataKey.ts
 * empties only the tables of the cache file itself).
 */
export const SEALED_TABLES = [
  'pending_transactions',
  'accounts',
  'webhook_sends',
  'account_applications',
  'account_application_versions',
  'applicants',
  'application_applicants',
  'webhooks',
  'documents',
  'card_art_uploads',
  'reviews',
  'review_history',
  'watch_rules',
  'watch_rule_names',
  'review_settings',
  'document_files',
  'applicant_field_digests',
] as const;
