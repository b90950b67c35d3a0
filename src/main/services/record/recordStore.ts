/**
 * The officer's record: record.sqlite in the data folder, beside the cache, with its own key
 * in the keychain (`record-key:<record id>`, Credentials.readRecordKey) and its own numbered
 * migrations (`record_migrations`, recordMigrations.ts) through the shared runner. It holds what
 * only the officer made; nothing that happens to the cache reaches it.
 *
 * It opens in one of three states, and is never emptied or re-keyed to get past a problem:
 * - open: read and written;
 * - read-only: its schema is one this build does not know (a newer build's, or a changed
 *   migration); read and exported, nothing written;
 * - locked: its key is not in the keychain (or is another key); nothing is read or written
 *   until the key is recovered (`ledger record recover`), and the window and CLI say so.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { Credentials } from '../credentials/credentials.ts';
import { RecordSealer, SealBroken } from '../cache/sealing.ts';
import { applyMigrations, checksumOf } from '../migrations/migrationRunner.ts';
import { enterReadOnly } from '../migrations/readOnly.ts';
import { RecordError } from './recordError.ts';
import { openRecordFile, RECORD_FILE_NAME } from './recordFile.ts';
import { RECORD_MIGRATIONS, RECORD_MIGRATIONS_TABLE } from './recordMigrations.ts';
import { backupTimeText, makeBackup, type MadeBackup, newestVerifiedBackup, restoreCommandOf } from './recordBackup.ts';

export type RecordState = 'open' | 'read-only' | 'locked';

const KEY_CHECK_TEXT = "Ledgerdesk officer's record key check";
const KEY_CHECK_IDENTITY = 'record_meta\u0000key_check';

/** What the CLI names for a lost record key (the recovery key is written at first use). */
const RECOVER_COMMAND = 'ledger record recover --recovery-key FILE';

export interface RecordOpenOptions {
  /** The app data folder; the file is `<folder>/record.sqlite`. */
  folder: string;
  credentials: Credentials;
  /** The clock of backup names (tests). */
  now?: () => Date;
}

function metaOf(database: DatabaseSync, key: string): string | null {
  const row = database.prepare('SELECT value FROM record_meta WHERE key = ?').get(key) as { value: string } | undefined;
  return row?.value ?? null;
}

export class RecordStore {
  readonly file: string;
  /** Null only for a record that was never written (a read-only file from another build). */
  readonly recordId: string | null;
  readonly state: RecordState;
  /** The sentence for the window's top banner and the CLI; null when open. */
  readonly problem: string | null;
  readonly #database: DatabaseSync;
  readonly #sealer: RecordSealer | null;
  readonly #options: RecordOpenOptions;
  #closed = false;

  private constructor(
    options: RecordOpenOptions,
    file: string,
    database: DatabaseSync,
    opened: { recordId: string | null; state: RecordState; problem: string | null; sealer: RecordSealer | null },
  ) {
    this.#options = options;
    this.file = file;
    this.#database = database;
    this.recordId = opened.recordId;
    this.state = opened.state;
    this.problem = opened.problem;
    this.#sealer = opened.sealer;
  }

  static async open(options: RecordOpenOptions): Promise<RecordStore> {
    const file = join(options.folder, RECORD_FILE_NAME);
    let database: DatabaseSync;
    try {
      database = openRecordFile(file);
    } catch (error) {
      if (!(error instanceof RecordError) || error.kind !== 'unreadable') throw error;
      throw new RecordError('unreadable', `${error.message} ${await backupOffer(options)}`, { cause: error });
    }
    try {
      await backupBeforeMigrating(database, options);
      const migrated = applyMigrations(database, RECORD_MIGRATIONS, RECORD_MIGRATIONS_TABLE, {
        name: "The officer's record",
      });
      const readOnly = migrated.unknown?.sentence ?? null;
      if (readOnly !== null) enterReadOnly(database);
      const opened = await resolveRecordKey(database, options.credentials, file, readOnly);
      if (opened.state === 'locked') enterReadOnly(database);
      return new RecordStore(options, file, database, opened);
    } catch (error) {
      database.close();
      throw error;
    }
  }

  /** The open connection; a locked record has none to give. */
  get database(): DatabaseSync {
    if (this.#closed) throw new RecordError('closed', "The officer's record is closed.");
    if (this.state === 'locked') throw new RecordError('locked', this.problem ?? "The officer's record is locked.");
    return this.#database;
  }

  /**
   * A value of record_meta (the record's identity, the mark of the move out of the cache): read
   * even from a locked record, since it is bookkeeping, never the officer's data.
   */
  meta(key: string): string | null {
    if (this.#closed) throw new RecordError('closed', "The officer's record is closed.");
    return metaOf(this.#database, key);
  }

  /** The record's sealer (its own key, never the cache's). */
  get sealer(): RecordSealer {
    if (this.#closed) throw new RecordError('closed', "The officer's record is closed.");
    if (this.#sealer === null) {
      throw new RecordError(
        this.state === 'locked' ? 'locked' : 'read-only',
        this.problem ?? "The officer's record has no key.",
      );
    }
    return this.#sealer;
  }

  /** Runs `write` in one IMMEDIATE transaction on the record; a read-only record says why. */
  transaction<Result>(write: () => Result): Result {
    const database = this.database;
    if (this.state !== 'open') throw new RecordError('read-only', this.problem ?? "The officer's record is read-only.");
    database.exec('BEGIN IMMEDIATE');
    try {
      const result = write();
      database.exec('COMMIT');
      return result;
    } catch (error) {
      if (database.isTransaction) database.exec('ROLLBACK');
      throw error;
    }
  }

  /**
   * A verified backup of the record in `<data folder>/backups` (recordBackup.ts), the newest
   * seven kept. Only an open record is backed up: a locked or read-only one cannot be verified.
   */
  async backup(now: Date = new Date()): Promise<MadeBackup> {
    if (this.#closed) throw new RecordError('closed', "The officer's record is closed.");
    if (this.state !== 'open' || this.recordId === null) {
      throw new RecordError(
        this.state === 'locked' ? 'locked' : 'read-only',
        this.problem ?? "The officer's record cannot be backed up now.",
      );
    }
    return makeBackup(this.#database, this.#options.folder, this.#options.credentials, this.recordId, now);
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#database.close();
  }
}

/** The sentence a damaged record's error ends with: the newest backup that verifies, and how to restore it. */
async function backupOffer(options: RecordOpenOptions): Promise<string> {
  let newest;
  try {
    newest = await newestVerifiedBackup(options.folder, options.credentials, null);
  } catch {
    newest = null;
  }
  if (newest === null) return 'No backup of it in the data folder verifies.';
  return `The newest backup that verifies is ${newest.name}, made ${backupTimeText(newest.madeAt)}: restore it with \`${restoreCommandOf(newest)}\` (the damaged file is kept aside, never deleted), or in Settings → Record.`;
}

/**
 * A record that has migrations to run is backed up first (issue 34, item 7), so a migration that
 * fails, or one that does the wrong thing, has the record as it was to go back to. A new record
 * (nothing applied yet) has nothing to keep; a record whose key is not here (locked) cannot be
 * verified, and migrates as before.
 */
async function backupBeforeMigrating(database: DatabaseSync, options: RecordOpenOptions): Promise<void> {
  const table = database
    .prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?")
    .get(RECORD_MIGRATIONS_TABLE);
  if (table === undefined) return;
  const applied = database
    .prepare(`SELECT version, checksum FROM ${RECORD_MIGRATIONS_TABLE} ORDER BY version`)
    .all() as { version: number; checksum: string }[];
  if (applied.length === 0 || applied.length >= RECORD_MIGRATIONS.length) return;
  // A history this build does not know opens read-only (the runner says why): nothing to migrate.
  if (
    applied.some(
      (row, index) => row.checksum !== checksumOf(RECORD_MIGRATIONS[index] ?? { version: 0, name: '', sql: '' }),
    )
  )
    return;
  const recordId = metaOf(database, 'record_id');
  if (recordId === null || (await options.credentials.readRecordKey(recordId).catch(() => null)) === null) return;
  try {
    await makeBackup(database, options.folder, options.credentials, recordId, options.now?.() ?? new Date());
  } catch (error) {
    throw new RecordError(
      'unreadable',
      `The officer's record was not migrated to this build: its backup before the migration failed (${(error as Error).message}). Nothing in it was changed.`,
      { cause: error },
    );
  }
}

async function resolveRecordKey(
  database: DatabaseSync,
  credentials: Credentials,
  file: string,
  readOnly: string | null,
): Promise<{ recordId: string | null; state: RecordState; problem: string | null; sealer: RecordSealer | null }> {
  let recordId = metaOf(database, 'record_id');
  if (recordId === null) {
    if (readOnly !== null) return { recordId: null, state: 'read-only', problem: readOnly, sealer: null };
    // A new record: its key is stored in the keychain before anything is sealed with it.
    recordId = randomUUID();
    const key = await credentials.createRecordKey(recordId);
    const sealer = new RecordSealer(key, recordId);
    const check = sealer.seal(KEY_CHECK_TEXT, KEY_CHECK_IDENTITY).toString('base64');
    database.exec('BEGIN IMMEDIATE');
    try {
      const put = database.prepare('INSERT INTO record_meta (key, value) VALUES (?, ?)');
      put.run('record_id', recordId);
      put.run('key_check', check);
      database.exec('COMMIT');
    } catch (error) {
      database.exec('ROLLBACK');
      throw error;
    }
    return { recordId, state: 'open', problem: null, sealer };
  }
  const key = await credentials.readRecordKey(recordId);
  const locked = (why: string) => ({
    recordId,
    state: 'locked' as const,
    problem: `The officer's record (${file}) is locked: ${why}. Nothing in it was dropped or changed; recover its key with \`${RECOVER_COMMAND}\`, then start Ledgerdesk again.`,
    sealer: null,
  });
  // A key the folder's recovery escrow holds is not null here: Credentials throws its own
  // sentence naming `ledger record recover`. Null means no recovery key holds it, so the way back
  // is the keychain entry itself, and recover is not offered.
  if (key === null) {
    return {
      recordId,
      state: 'locked' as const,
      problem: `The officer's record (${file}) is locked: its key is not in the keychain, and no recovery key of this data folder holds it. Nothing in it was dropped or changed; bring the keychain's entry back (the login and keychain that made it, or a backup of that keychain), then start Ledgerdesk again.`,
      sealer: null,
    };
  }
  const sealer = new RecordSealer(key, recordId);
  const check = metaOf(database, 'key_check');
  try {
    if (check === null) throw new SealBroken(KEY_CHECK_IDENTITY);
    sealer.open(Buffer.from(check, 'base64'), KEY_CHECK_IDENTITY);
  } catch (error) {
    if (!(error instanceof SealBroken)) throw error;
    return locked('the key in the keychain is not the one that sealed it');
  }
  return readOnly === null
    ? { recordId, state: 'open', problem: null, sealer }
    : { recordId, state: 'read-only', problem: readOnly, sealer };
}
