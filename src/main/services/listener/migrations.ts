/**
 * The listener's tables and their numbered migrations, one file each under listenerMigrations/.
 * In the app they live in the cache database, which other services migrate too, so the
 * listener keeps its own bookkeeping (`listener_migrations`), checked at every open by the
 * shared runner (migrations/migrationRunner.ts). A history this build does not know (a newer
 * Ledgerdesk's, or a changed migration) is not refused: the listener opens read-only, its kept
 * traffic listed and exported, and it says why instead of receiving (listener.ts).
 */
import type { DatabaseSync } from 'node:sqlite';
import { applyMigrations, type Migration, type MigrationOutcome } from '../migrations/migrationRunner.ts';
import { migration as m001 } from './listenerMigrations/001-received-requests-deliveries-settings-registrations.ts';
import { migration as m002 } from './listenerMigrations/002-sealed-bodies.ts';

const LISTENER_MIGRATIONS_TABLE = 'listener_migrations';

export const LISTENER_MIGRATIONS: readonly Migration[] = [m001, m002];

/** Checks the applied history against ours, then applies what is missing, each in its own transaction. */
export function migrateListenerTables(database: DatabaseSync, migrations = LISTENER_MIGRATIONS): MigrationOutcome {
  return applyMigrations(database, migrations, LISTENER_MIGRATIONS_TABLE, { name: "The listener's kept traffic" });
}
