/**
 * The tables of working with a real bank (issue 14): drift counts per profile and resource,
 * and creates whose answer could not be read. They live in the cache database with their own
 * bookkeeping (`bank_compat_migrations`), like the listener's: they hold names, counts, ids
 * and keyed digests, never a record, so nothing here is sealed, and they survive a lost data
 * key (a digest made under the old key then simply never matches again).
 * Each migration is its own file under bankCompatMigrations/.
 */
import type { Migration } from '../migrations/migrationRunner.ts';
import { migration as m001 } from './bankCompatMigrations/001-drift-counts-and-unsettled-writes.ts';
import { migration as m002 } from './bankCompatMigrations/002-drift-counts-of-malformed-records.ts';
import { migration as m003 } from './bankCompatMigrations/003-drift-names-dropped-to-keep-the-ledger.ts';

export const BANK_COMPAT_MIGRATIONS_TABLE = 'bank_compat_migrations';

export const BANK_COMPAT_MIGRATIONS: readonly Migration[] = [m001, m002, m003];
