/**
 * The offline cache: one SQLite file in the app data folder holding, per profile, what was
 * synced from the bank, sealed at rest. Opening it checks the file (a corrupt one is set
 * aside and rebuilt), applies the numbered migrations, and checks the data key (a lost or
 * changed one drops the sealed rows, which the next sync refills).
 *
 * Reads are named queries (callers never send SQL) returning CacheRead: rows, an opaque
 * cursor, `asOf` and `source`. The listener keeps its own tables in the same database:
 * `cache.database` is the open connection for its migrations.
 */
import { join } from 'node:path';
import type { DatabaseSync } from 'node:sqlite';
import type { AuditLog } from '../audit/auditLog.ts';
import { folderKeyOf, parseFolderRecord } from '../audit/folderLogs.ts';
import { openAuditLog } from '../audit/openAuditLog.ts';
import type { Credentials } from '../credentials/credentials.ts';
import { AccountApplicationsTable } from './accountApplicationsTable.ts';
import { ApplicantsTable } from './applicantsTable.ts';
import { DocumentFilesTable } from './documentFilesTable.ts';
import { CacheError, translateWriteError } from './cacheError.ts';
import { createCacheWriter, type CacheWriter } from './cacheWriter.ts';
import { openCacheFile } from './cacheFile.ts';
import { CACHE_MIGRATIONS_TABLE } from './cacheMigrations.ts';
import type { RecordStore } from '../record/recordStore.ts';
import type { AttachedRecord } from '../record/recordAttach.ts';
import { recordFileWords } from '../record/recordWhere.ts';
import { keepCacheIdentity, keptCacheIdentity } from '../record/cacheIdentity.ts';
import { cacheMigrationsFor, moveRecordOut } from './recordMove.ts';
import { resolveDataKey, type DataKeyReset } from './dataKey.ts';
import { applyMigrations } from '../migrations/migrationRunner.ts';
import { enterReadOnly } from '../migrations/readOnly.ts';
import { PendingTransactionsTable } from './pendingTransactionsTable.ts';
import { DATA_KEY_RESET_ACTION, ReviewRollbacks } from './reviewRollbacks.ts';
import { alteredRowsProblem, RowMacs } from './rowMacs.ts';
import { alteredPendingProblem } from './pendingColumns.ts';
import { RuleNames } from './ruleNames.ts';
import type { RecordSealer } from './sealing.ts';
import { registerSealedSearch } from './sealedSearch.ts';
import { registerApplicantRuleMatch } from './applicantRuleMatch.ts';
import { SearchTokens } from './searchTokens.ts';
import { SyncCheckpoints } from './syncCheckpoints.ts';
import { SyncWindowCheckpoints } from './syncWindowCheckpoints.ts';
import { CreationDays } from './creationDays.ts';
import { UploadsTable } from './uploadsTable.ts';
import { WebhookSendsTable } from './webhookSendsTable.ts';
import { WebhooksTable } from './webhooksTable.ts';
import { AccountsTable } from './accountsTable.ts';

export const CACHE_FILE_NAME = 'cache.db';

export interface CacheOpenOptions {
  /** The app data folder; the file is `<folder>/cache.db`. */
  folder: string;
  credentials: Credentials;
  now?: () => Date;
  /** Where bulk sync writes run: a worker thread (default, when its file is present) or inline. */
  writer?: 'worker' | 'inline';
  /** A cap on the cache file's size; writes beyond it fail as 'disk-full' (none by default). */
  sizeLimitBytes?: number;
  /**
   * The officer's record (record.sqlite, issue 34): its tables are moved out of the cache file at
   * the first open (recordMove.ts) and attached to every connection as schema `record`. Without
   * it (tests of the cache alone) the record's tables stay in the cache file, under its key.
   */
  record?: RecordStore;
}

/** What happened while opening, for a message to the user. */
export interface CacheOpenReport {
  /** Where a corrupt file was moved, if one was. */
  setAsideAs: string | null;
  /** Why the sealed data was dropped, if it was. */
  dataKeyReset: DataKeyReset | null;
  /** Sentences to show; empty when all was well. */
  messages: string[];
  /**
   * Why the cache is open read-only (a schema this build does not know: a newer build's, or a
   * changed migration), or null. Reads and exports work; every write is refused by SQLite.
   */
  readOnly: string | null;
  /** Where the officer's record's tables are: record.sqlite, attached, or (before the move) this file. */
  record: 'attached' | 'in-cache';
}

export class OfflineCache {
  readonly file: string;
  readonly opened: CacheOpenReport;
  readonly checkpoints: SyncCheckpoints;
  /** The cursors of a sync walking date windows side by side, one a window. */
  readonly windowCheckpoints: SyncWindowCheckpoints;
  /** Cached records per creation day: where a sync cuts its windows. */
  readonly creationDays: CreationDays;
  readonly pendingTransactions: PendingTransactionsTable;
  readonly webhookSends: WebhookSendsTable;
  readonly accountApplications: AccountApplicationsTable;
  /** The people and businesses the applications name (the application book). */
  readonly applicants: ApplicantsTable;
  /** The files behind applicants' documents, fetched for a preview (issue 24). */
  readonly documentFiles: DocumentFilesTable;
  readonly webhooks: WebhooksTable;
  /** The bank's accounts as last listed: their names (issue 38). */
  readonly accounts: AccountsTable;
  readonly uploads: UploadsTable;
  readonly audit: AuditLog;
  /** The MACs of the clear columns of reviews and watch rules (rowMacs.ts). */
  readonly rowMacs: RowMacs;
  /** Watch-rule names, sealed under their keyed references (ruleNames.ts, N10). */
  readonly ruleNames: RuleNames;
  /** Runs planned bulk writes (sync pages) off the main thread. */
  readonly writer: CacheWriter;
  readonly #database: DatabaseSync;
  readonly #sealer: RecordSealer;
  /** The sealer of the record's tables: the record's own once attached, the cache's before the move. */
  readonly #recordSealer: () => RecordSealer;
  readonly #searchTokens: SearchTokens;
  #closed = false;

  private constructor(
    file: string,
    database: DatabaseSync,
    sealer: RecordSealer,
    opened: CacheOpenReport,
    audit: AuditLog,
    writer: 'worker' | 'inline',
    sizeLimitBytes: number | undefined,
    record: { store: RecordStore; attached: AttachedRecord } | null,
  ) {
    this.file = file;
    this.#database = database;
    this.#sealer = sealer;
    this.#recordSealer = record === null ? () => this.#live(this.#sealer) : () => this.#live(record.store.sealer);
    this.#searchTokens = new SearchTokens((text, bytes) => sealer.keyedHash(text, bytes));
    this.opened = opened;
    const sealerOf = (): RecordSealer => this.#live(this.#sealer);
    const searchOf = (): SearchTokens => this.#searchTokens;
    registerSealedSearch(database, sealerOf);
    registerApplicantRuleMatch(database, sealerOf);
    // The MACs and rule references of the record's rows are under the record's key once it is
    // attached; their once-per-file upgrades were made in the cache before the move (recordMove.ts).
    this.rowMacs = new RowMacs(this.#recordSealer, () => recordFileWords(database));
    this.rowMacs.install(database, record === null);
    this.ruleNames = new RuleNames(database, this.#recordSealer);
    this.ruleNames.install(database, this.rowMacs, record === null);
    audit.addCheck(() => alteredRowsProblem(this.database));
    audit.addCheck(() => alteredPendingProblem(this.database, sealerOf));
    const rollbacks = new ReviewRollbacks(database);
    audit.addCheck(() => rollbacks.problem());
    // A read-only cache is verified as it is: its rollback baseline is not moved.
    if (opened.readOnly === null) {
      rollbacks.baseline(
        (row) => this.rowMacs.holds('reviews', row),
        (entry) => audit.record({ ...entry, profileName: '', result: 'ok' }),
      );
    }
    this.checkpoints = new SyncCheckpoints(database);
    this.windowCheckpoints = new SyncWindowCheckpoints(database);
    this.creationDays = new CreationDays(database);
    this.pendingTransactions = new PendingTransactionsTable(database, sealerOf, searchOf, this.checkpoints);
    this.webhookSends = new WebhookSendsTable(database, sealerOf, this.checkpoints);
    this.applicants = new ApplicantsTable(database, sealerOf, searchOf);
    this.accountApplications = new AccountApplicationsTable(database, sealerOf, () => this.applicants);
    this.webhooks = new WebhooksTable(database, sealerOf, this.checkpoints);
    this.accounts = new AccountsTable(database, sealerOf);
    this.uploads = new UploadsTable(database, sealerOf);
    this.documentFiles = new DocumentFilesTable(database, sealerOf);
    this.audit = audit;
    this.writer = createCacheWriter(
      database,
      file,
      writer,
      sizeLimitBytes,
      undefined,
      undefined,
      record?.attached ?? null,
    );
  }

  static async open(options: CacheOpenOptions): Promise<OfflineCache> {
    const now = options.now ?? (() => new Date());
    const file = join(options.folder, CACHE_FILE_NAME);
    const { database, setAsideAs, corruption } = openCacheFile(file, now, options.sizeLimitBytes);
    try {
      const record = options.record ?? null;
      // Migrated to just before the record's tables are dropped, unless the record holds them
      // already: moveRecordOut runs the rest once the copy is done.
      const migrated = applyMigrations(database, cacheMigrationsFor(record, database), CACHE_MIGRATIONS_TABLE, {
        name: 'The offline cache',
      });
      const readOnly = migrated.unknown?.sentence ?? null;
      if (readOnly !== null) enterReadOnly(database);
      // The keychain decides which log this data folder has (audit/folderLogs.ts).
      const credentials = options.credentials;
      const folderKey = folderKeyOf(options.folder);
      const store = {
        read: () => credentials.readAuditFolderRecord(folderKey),
        write: (text: string) => credentials.writeAuditFolderRecord(folderKey, text),
      };
      const folderCacheId = setAsideAs === null ? (parseFolderRecord(await store.read())?.cacheId ?? null) : null;
      // Row keys and keyed digests are made with the keys the record keeps, whatever the data
      // key, so the reviews stay on their items across a key reset (record/cacheIdentity.ts).
      const kept = keptCacheIdentity(record);
      const { cacheId, sealer, reset, restored } = await resolveDataKey(
        database,
        credentials,
        folderCacheId,
        readOnly,
        kept,
      );
      const move = moveRecordOut({ database, file, record, sealer, cacheId, readOnly });
      if (record !== null && move.attached !== null && kept === null) keepCacheIdentity(record, sealer);
      // After the move the log is the record's: named by the cache id it was born with, so a
      // cache file set aside or deleted leaves it where it is (the folder's record still names it).
      const audit = await openAuditLog(
        database,
        credentials,
        move.auditCacheId,
        now,
        { store, restored, setAsideAs },
        readOnly !== null || move.attached?.readOnly === true,
      );
      const messages: string[] = readOnly === null ? [] : [readOnly];
      messages.push(...move.messages);
      if (setAsideAs !== null) {
        messages.push(
          `The offline cache was damaged (${corruption ?? 'unknown damage'}); it was moved to ${setAsideAs} and a new one was started. Sync to fill it again.`,
        );
      }
      if (reset === 'data-key-lost') {
        messages.push(
          'The offline cache key is no longer in the keychain, so the cached data could not be read; it was cleared. Sync to fill it again.',
        );
      } else if (reset === 'data-key-changed') {
        messages.push(
          'The offline cache key in the keychain changed, so the cached data could not be read; it was cleared. Sync to fill it again.',
        );
      }
      messages.push(...audit.messages);
      if (reset !== null) {
        // Said in the chain. Before the move the reviews went with the sealed rows, and this entry
        // keeps theirs from being taken for reviews deleted behind the app's back
        // (reviewRollbacks.ts); after it the record, under its own key, keeps them.
        audit.log.record({
          profileId: '',
          profileName: '',
          action: DATA_KEY_RESET_ACTION,
          target: 'cache',
          // Never an "ok" (issue 34, item 5): the data was lost, and the log says it as a failure.
          result: 'failed',
          detail: `${reset === 'data-key-lost' ? 'the data key is no longer in the keychain' : 'the data key in the keychain changed'}: ${move.attached === null ? 'every cached record and review was dropped' : "every cached record was dropped; the officer's record (reviews, notes, watch rules) is kept in record.sqlite"}`,
        });
      }
      return new OfflineCache(
        file,
        database,
        sealer,
        {
          setAsideAs,
          dataKeyReset: reset,
          messages,
          readOnly,
          record: move.attached === null ? 'in-cache' : 'attached',
        },
        audit.log,
        // A read-only cache writes nothing: no worker with a connection of its own.
        readOnly === null ? (options.writer ?? 'worker') : 'inline',
        options.sizeLimitBytes,
        record === null || move.attached === null ? null : { store: record, attached: move.attached },
      );
    } catch (error) {
      database.close();
      throw error;
    }
  }

  /** The open connection, for the listener's own migrations and tables. */
  get database(): DatabaseSync {
    return this.#live(this.#database);
  }

  /**
   * Another store sharing this file (the bank-compat tables, issue 34) has a schema this build
   * does not know: the whole file becomes read-only, and the sentence is shown with the others.
   */
  enterReadOnly(sentence: string): void {
    enterReadOnly(this.database);
    this.opened.readOnly ??= sentence;
    this.opened.messages.push(sentence);
  }

  /**
   * The sealer of the officer's record's tables (reviews, their history, watch rules, review
   * settings): the record's own key once it is attached, the cache's while the cache holds them.
   */
  get recordSealer(): RecordSealer {
    return this.#recordSealer();
  }

  /** Throws the record's sentence (RecordError) unless its reviews can be read (a locked one's cannot). */
  requireReadableRecord(): void {
    this.#recordSealer();
  }

  /** The cache's sealer, for other tables in this database that keep sealed bodies. */
  get sealer(): RecordSealer {
    return this.#live(this.#sealer);
  }

  /**
   * Runs `write` in one IMMEDIATE transaction: all of it is kept or none. A full disk is
   * reported as CacheError 'disk-full' after the rollback, so nothing half-written remains.
   */
  transaction<Result>(write: () => Result): Result {
    const database = this.database;
    try {
      database.exec('BEGIN IMMEDIATE');
    } catch (error) {
      // A read-only cache refuses the BEGIN itself: said in words, like a full disk.
      translateWriteError(error, this.file);
    }
    try {
      const result = write();
      database.exec('COMMIT');
      return result;
    } catch (error) {
      if (database.isTransaction) database.exec('ROLLBACK');
      translateWriteError(error, this.file);
    }
  }

  /**
   * Lets SQLite refresh its statistics where they are stale (bounded work), so the planner
   * keeps choosing the right index as the cache grows. Called after syncs and on close.
   */
  optimize(): void {
    this.database.exec('PRAGMA analysis_limit = 400; PRAGMA optimize;');
  }

  /** Forgets everything cached for a profile (when the profile is removed); the audit log stays. */
  dropProfile(profileId: string): void {
    this.transaction(() => {
      this.pendingTransactions.dropProfile(profileId);
      this.applicants.dropProfile(profileId);
      for (const table of [
        'webhook_sends',
        'account_applications',
        'account_application_versions',
        'webhooks',
        'accounts',
        'documents',
        'card_art_uploads',
        'document_files',
        'sync_state',
      ]) {
        this.#database.prepare(`DELETE FROM ${table} WHERE profile_id = ?`).run(profileId);
      }
    });
  }

  /** Closes the cache, after the writer has finished any write in flight. */
  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      this.optimize();
    } catch {
      // Statistics are an optimisation: a full disk or a busy database must not block closing.
    }
    this.#closed = true;
    await this.audit.close();
    await this.writer.close();
    this.#database.close();
  }

  #live<Value>(value: Value): Value {
    if (this.#closed) throw new CacheError('closed', 'The offline cache is closed.');
    return value;
  }
}
