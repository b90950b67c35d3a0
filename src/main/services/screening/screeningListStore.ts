/**
 * The imported sanctions lists: per list (OFAC SDN, OFAC Consolidated, OpenSanctions) its
 * current version — publication date, digest, when imported, its entries — and the versions it
 * replaced (their dates and digests only). Built on any SQLite handle with its own migrations
 * (`screening_list_migrations`), so it can live in the record file of issue 34; until then it
 * has a file of its own in the data folder (openScreeningListFile).
 *
 * A new version replaces the current one atomically: its entries are written first under a
 * version marked 'writing', invisible to readers (who read through `screening_lists`), in
 * transactions of a few thousand entries so a 100 MB list never holds the write lock for long;
 * then one transaction points the list at the new version, marks the old one replaced and
 * drops its entries. A crash before the swap leaves the old version current and the half-written
 * one to be cleared at the next open. The replacement says what changed (entries added,
 * removed, changed), which is what tells open hits that their entry is gone.
 *
 * Lists are public data: entries are kept in clear (JSON), not sealed.
 */
import { createHash } from 'node:crypto';
import { chmodSync, closeSync, mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { ListEntry, ListFormat, ListSource, ParsedList } from '../../../shared/screening/listEntry.ts';
import { applyMigrations, type Migration } from '../migrations/migrationRunner.ts';

const SCREENING_LIST_MIGRATIONS_TABLE = 'screening_list_migrations';
const SCREENING_LIST_FILE_NAME = 'screening-lists.db';
const WRITE_CHUNK = 5_000;

export const SCREENING_LIST_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'screening lists, their versions and entries',
    sql: `
      CREATE TABLE screening_list_versions (
        id INTEGER PRIMARY KEY,
        source TEXT NOT NULL CHECK (source IN ('ofac-sdn', 'ofac-consolidated', 'opensanctions')),
        format TEXT NOT NULL,
        published_at TEXT,
        digest TEXT NOT NULL,
        entry_count INTEGER NOT NULL,
        imported_at TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('writing', 'current', 'replaced')),
        replaced_at TEXT
      ) STRICT;
      CREATE INDEX screening_list_versions_by_source ON screening_list_versions (source, id);
      -- The version readers see, one per list.
      CREATE TABLE screening_lists (
        source TEXT PRIMARY KEY,
        version_id INTEGER NOT NULL REFERENCES screening_list_versions (id)
      ) STRICT;
      -- entry_digest: SHA-256 of the entry as stored, which tells a changed entry from an unchanged one.
      CREATE TABLE screening_list_entries (
        version_id INTEGER NOT NULL,
        uid TEXT NOT NULL,
        kind TEXT NOT NULL,
        primary_name TEXT NOT NULL,
        entry_digest TEXT NOT NULL,
        body TEXT NOT NULL,
        PRIMARY KEY (version_id, uid)
      ) STRICT, WITHOUT ROWID;
    `,
  },
];

export interface ListVersion {
  id: number;
  source: ListSource;
  format: ListFormat;
  /** YYYY-MM-DD, or null when the file did not say. */
  publishedAt: string | null;
  digest: string;
  entryCount: number;
  importedAt: string;
  state: 'current' | 'replaced';
  replacedAt: string | null;
}

export interface ListReplacement {
  version: ListVersion;
  /** The version it replaced; null for a list imported the first time. */
  previous: ListVersion | null;
  /** True when the file is the current version already (same digest): nothing was written. */
  unchanged: boolean;
  added: string[];
  /** Entries the new version no longer holds, with their names (for the hits that name them). */
  removed: { uid: string; primaryName: string }[];
  changed: string[];
}

interface VersionRow {
  id: number;
  source: ListSource;
  format: ListFormat;
  published_at: string | null;
  digest: string;
  entry_count: number;
  imported_at: string;
  state: 'writing' | 'current' | 'replaced';
  replaced_at: string | null;
}

function versionOf(row: VersionRow): ListVersion {
  return {
    id: row.id,
    source: row.source,
    format: row.format,
    publishedAt: row.published_at,
    digest: row.digest,
    entryCount: row.entry_count,
    importedAt: row.imported_at,
    state: row.state === 'replaced' ? 'replaced' : 'current',
    replacedAt: row.replaced_at,
  };
}

function inTransaction<Result>(database: DatabaseSync, work: () => Result): Result {
  database.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    database.exec('COMMIT');
    return result;
  } catch (error) {
    if (database.isTransaction) database.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Today's home of the store: `<data folder>/screening-lists.db`, readable by its owner only.
 * Temporary: when the record file of issue 34 exists, the store moves there (same migrations).
 */
export function openScreeningListFile(folder: string): DatabaseSync {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const file = join(folder, SCREENING_LIST_FILE_NAME);
  closeSync(openSync(file, 'a', 0o600));
  chmodSync(file, 0o600);
  const database = new DatabaseSync(file);
  database.exec(
    'PRAGMA busy_timeout = 5000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON',
  );
  return database;
}

export class ScreeningListStore {
  readonly #database: DatabaseSync;

  /** Applies the store's migrations to `database` and clears a version a crash left half-written. */
  constructor(database: DatabaseSync) {
    this.#database = database;
    applyMigrations(database, SCREENING_LIST_MIGRATIONS, SCREENING_LIST_MIGRATIONS_TABLE);
    this.#clearUnfinished();
  }

  /** The current version of each imported list. */
  current(): ListVersion[] {
    return (
      this.#database
        .prepare(
          `SELECT v.* FROM screening_lists AS l JOIN screening_list_versions AS v ON v.id = l.version_id ORDER BY l.source`,
        )
        .all() as unknown as VersionRow[]
    ).map(versionOf);
  }

  /** Every version of a list, newest first: the record of what was screened against when. */
  history(source: ListSource): ListVersion[] {
    return (
      this.#database
        .prepare(`SELECT * FROM screening_list_versions WHERE source = ? AND state != 'writing' ORDER BY id DESC`)
        .all(source) as unknown as VersionRow[]
    ).map(versionOf);
  }

  /** The entries of a list's current version, in uid order; empty when it was never imported. */
  entries(source: ListSource): ListEntry[] {
    return (
      this.#database
        .prepare(
          `SELECT e.body AS body FROM screening_lists AS l
           JOIN screening_list_entries AS e ON e.version_id = l.version_id
           WHERE l.source = ? ORDER BY e.uid`,
        )
        .all(source) as { body: string }[]
    ).map((row) => JSON.parse(row.body) as ListEntry);
  }

  /** The digest of every entry of a list's current version, by uid: what tells a changed entry. */
  entryDigests(source: ListSource): Map<string, string> {
    const rows = this.#database
      .prepare(
        `SELECT e.uid AS uid, e.entry_digest AS digest FROM screening_lists AS l
         JOIN screening_list_entries AS e ON e.version_id = l.version_id WHERE l.source = ?`,
      )
      .all(source) as { uid: string; digest: string }[];
    return new Map(rows.map((row) => [row.uid, row.digest]));
  }

  /** One entry of a list's current version, or null (no such entry, or it was removed). */
  entry(source: ListSource, uid: string): ListEntry | null {
    const row = this.#database
      .prepare(
        `SELECT e.body AS body FROM screening_lists AS l
         JOIN screening_list_entries AS e ON e.version_id = l.version_id AND e.uid = ?
         WHERE l.source = ?`,
      )
      .get(uid, source) as { body: string } | undefined;
    return row === undefined ? null : (JSON.parse(row.body) as ListEntry);
  }

  /** Makes `list` its source's current version, atomically; says what changed. */
  replace(list: ParsedList, importedAt: string): ListReplacement {
    const previousRow = this.#database
      .prepare(
        `SELECT v.* FROM screening_lists AS l JOIN screening_list_versions AS v ON v.id = l.version_id WHERE l.source = ?`,
      )
      .get(list.source) as VersionRow | undefined;
    const previous = previousRow === undefined ? null : versionOf(previousRow);
    if (previous !== null && previous.digest === list.digest)
      return { version: previous, previous, unchanged: true, added: [], removed: [], changed: [] };
    const uids = new Set<string>();
    for (const entry of list.entries) {
      if (uids.has(entry.uid)) throw new Error(`The list holds entry ${entry.uid} twice.`);
      uids.add(entry.uid);
    }
    const versionId = Number(
      this.#database
        .prepare(
          `INSERT INTO screening_list_versions (source, format, published_at, digest, entry_count, imported_at, state)
           VALUES (?, ?, ?, ?, ?, ?, 'writing')`,
        )
        .run(list.source, list.format, list.publishedAt, list.digest, list.entries.length, importedAt).lastInsertRowid,
    );
    const insert = this.#database.prepare(
      'INSERT INTO screening_list_entries (version_id, uid, kind, primary_name, entry_digest, body) VALUES (?, ?, ?, ?, ?, ?)',
    );
    try {
      for (let start = 0; start < list.entries.length; start += WRITE_CHUNK) {
        inTransaction(this.#database, () => {
          for (const entry of list.entries.slice(start, start + WRITE_CHUNK)) {
            const body = JSON.stringify(entry);
            insert.run(
              versionId,
              entry.uid,
              entry.kind,
              entry.names[0]?.full ?? '',
              createHash('sha256').update(body).digest('hex'),
              body,
            );
          }
        });
      }
    } catch (error) {
      this.#clearUnfinished();
      throw error;
    }
    try {
      return this.#swap(list, importedAt, versionId, previous, uids);
    } catch (error) {
      this.#clearUnfinished();
      throw error;
    }
  }

  /** The one transaction that makes the written version current. */
  #swap(
    list: ParsedList,
    importedAt: string,
    versionId: number,
    previous: ListVersion | null,
    uids: Set<string>,
  ): ListReplacement {
    return inTransaction(this.#database, () => {
      const changes =
        previous === null
          ? { added: [...uids].sort(), removed: [], changed: [] }
          : this.#changes(previous.id, versionId);
      if (previous !== null) {
        this.#database
          .prepare(`UPDATE screening_list_versions SET state = 'replaced', replaced_at = ? WHERE id = ?`)
          .run(importedAt, previous.id);
        this.#database.prepare('DELETE FROM screening_list_entries WHERE version_id = ?').run(previous.id);
      }
      this.#database.prepare(`UPDATE screening_list_versions SET state = 'current' WHERE id = ?`).run(versionId);
      this.#database
        .prepare(
          'INSERT INTO screening_lists (source, version_id) VALUES (?, ?) ON CONFLICT (source) DO UPDATE SET version_id = excluded.version_id',
        )
        .run(list.source, versionId);
      const version = versionOf(
        this.#database
          .prepare('SELECT * FROM screening_list_versions WHERE id = ?')
          .get(versionId) as unknown as VersionRow,
      );
      return { version, previous, unchanged: false, ...changes };
    });
  }

  #changes(oldId: number, newId: number): Pick<ListReplacement, 'added' | 'removed' | 'changed'> {
    const added = this.#database
      .prepare(
        `SELECT n.uid AS uid FROM screening_list_entries AS n
         WHERE n.version_id = ? AND NOT EXISTS (SELECT 1 FROM screening_list_entries AS o WHERE o.version_id = ? AND o.uid = n.uid)
         ORDER BY n.uid`,
      )
      .all(newId, oldId) as { uid: string }[];
    const removed = this.#database
      .prepare(
        `SELECT o.uid AS uid, o.primary_name AS primary_name FROM screening_list_entries AS o
         WHERE o.version_id = ? AND NOT EXISTS (SELECT 1 FROM screening_list_entries AS n WHERE n.version_id = ? AND n.uid = o.uid)
         ORDER BY o.uid`,
      )
      .all(oldId, newId) as { uid: string; primary_name: string }[];
    const changed = this.#database
      .prepare(
        `SELECT n.uid AS uid FROM screening_list_entries AS n
         JOIN screening_list_entries AS o ON o.version_id = ? AND o.uid = n.uid AND o.entry_digest != n.entry_digest
         WHERE n.version_id = ? ORDER BY n.uid`,
      )
      .all(oldId, newId) as { uid: string }[];
    return {
      added: added.map((row) => row.uid),
      removed: removed.map((row) => ({ uid: row.uid, primaryName: row.primary_name })),
      changed: changed.map((row) => row.uid),
    };
  }

  #clearUnfinished(): void {
    inTransaction(this.#database, () => {
      this.#database.exec(
        `DELETE FROM screening_list_entries WHERE version_id IN (SELECT id FROM screening_list_versions WHERE state = 'writing');
         DELETE FROM screening_list_versions WHERE state = 'writing';`,
      );
    });
  }
}
