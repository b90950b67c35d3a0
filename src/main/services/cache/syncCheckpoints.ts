/**
 * Sync checkpoints: where each sync job stopped, and when its data was last complete. The
 * sync advances a checkpoint inside the same transaction as the rows of the page, so after
 * a crash the cursor and the rows always agree and the next run resumes exactly there.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { WriteBatch } from './writeBatch.ts';

const ADVANCE_SQL = `UPDATE sync_state SET cursor = ?, fetched = fetched + ?, written = written + ?, checkpoint_at = ?
  WHERE profile_id = ? AND kind = ? AND key = ?`;
const DONE_SQL = `UPDATE sync_state SET state = 'done', cursor = NULL, finished_at = ?, last_success_at = ?,
    last_success_scope = scope, error = NULL
  WHERE profile_id = ? AND kind = ? AND key = ?`;

export type SyncKind = 'pending-transactions' | 'webhook-sends' | 'account-application' | 'applications' | 'webhooks';
export type CheckpointState = 'running' | 'done' | 'cancelled' | 'failed';

export interface Checkpoint {
  profileId: string;
  kind: SyncKind;
  key: string;
  /** JSON of the job's parameters (account, filters, date range). */
  scope: string;
  state: CheckpointState;
  /** page_cursor to resume after; null to start from the first page. */
  cursor: string | null;
  /** Rows written by this run carry it; rows of older runs not seen again are swept. */
  generation: number;
  fetched: number;
  written: number;
  startedAt: string;
  lastSuccessAt: string | null;
  lastSuccessScope: string | null;
  error: string | null;
}

interface CheckpointRow {
  profile_id: string;
  kind: string;
  key: string;
  scope: string;
  state: string;
  cursor: string | null;
  generation: number;
  fetched: number;
  written: number;
  started_at: string;
  last_success_at: string | null;
  last_success_scope: string | null;
  error: string | null;
}

function checkpointOf(row: CheckpointRow): Checkpoint {
  return {
    profileId: row.profile_id,
    kind: row.kind as SyncKind,
    key: row.key,
    scope: row.scope,
    state: row.state as CheckpointState,
    cursor: row.cursor,
    generation: row.generation,
    fetched: row.fetched,
    written: row.written,
    startedAt: row.started_at,
    lastSuccessAt: row.last_success_at,
    lastSuccessScope: row.last_success_scope,
    error: row.error,
  };
}

export class SyncCheckpoints {
  readonly #database: DatabaseSync;
  readonly #select: StatementSync;
  readonly #advance: StatementSync;
  /** Whether a windowed run stopped with windows left (syncWindowCheckpoints.ts). */
  readonly #windowsLeft: StatementSync;
  #completed: StatementSync | undefined;

  constructor(database: DatabaseSync) {
    this.#database = database;
    this.#select = database.prepare('SELECT * FROM sync_state WHERE profile_id = ? AND kind = ? AND key = ?');
    this.#advance = database.prepare(ADVANCE_SQL);
    this.#windowsLeft = database.prepare(
      'SELECT 1 FROM sync_windows WHERE profile_id = ? AND kind = ? AND key = ? AND done = 0 LIMIT 1',
    );
  }

  get(profileId: string, kind: SyncKind, key: string): Checkpoint | null {
    const row = this.#select.get(profileId, kind, key) as CheckpointRow | undefined;
    return row === undefined ? null : checkpointOf(row);
  }

  /**
   * Starts a run: resumes an unfinished one with the same scope (same cursor, generation and
   * counts), or starts afresh with a new generation.
   */
  begin(
    profileId: string,
    kind: SyncKind,
    key: string,
    scope: string,
    now: string,
  ): { checkpoint: Checkpoint; resumed: boolean } {
    const existing = this.get(profileId, kind, key);
    const walkedPart =
      existing !== null && (existing.cursor !== null || this.#windowsLeft.get(profileId, kind, key) !== undefined);
    if (existing !== null && existing.state !== 'done' && existing.scope === scope && walkedPart) {
      this.#database
        .prepare(`UPDATE sync_state SET state = 'running', error = NULL WHERE profile_id = ? AND kind = ? AND key = ?`)
        .run(profileId, kind, key);
      return { checkpoint: { ...existing, state: 'running', error: null }, resumed: true };
    }
    const generation = this.#nextGeneration();
    this.#database
      .prepare(
        `INSERT INTO sync_state (profile_id, kind, key, scope, state, cursor, generation, fetched, written, started_at)
         VALUES (?, ?, ?, ?, 'running', NULL, ?, 0, 0, ?)
         ON CONFLICT (profile_id, kind, key) DO UPDATE SET
           scope = excluded.scope, state = 'running', cursor = NULL, generation = excluded.generation,
           fetched = 0, written = 0, started_at = excluded.started_at, checkpoint_at = NULL,
           finished_at = NULL, error = NULL`,
      )
      .run(profileId, kind, key, scope, generation, now);
    // A fresh run plans its own windows; those of an abandoned one are dropped.
    this.#database
      .prepare('DELETE FROM sync_windows WHERE profile_id = ? AND kind = ? AND key = ?')
      .run(profileId, kind, key);
    const checkpoint = this.get(profileId, kind, key);
    if (checkpoint === null) throw new Error('sync_state row vanished');
    return { checkpoint, resumed: false };
  }

  /** Call inside the transaction that wrote the page. */
  advance(
    profileId: string,
    kind: SyncKind,
    key: string,
    cursor: string | null,
    fetched: number,
    written: number,
    now: string,
  ): void {
    this.#advance.run(cursor, fetched, written, now, profileId, kind, key);
  }

  /** advance(), as a statement for the cache writer: it commits with the page's rows. */
  advanceBatch(
    profileId: string,
    kind: SyncKind,
    key: string,
    cursor: string | null,
    fetched: number,
    written: number,
    now: string,
  ): WriteBatch {
    return { sql: ADVANCE_SQL, rows: [[cursor, fetched, written, now, profileId, kind, key]] };
  }

  /** finish('done'), as a statement for the cache writer: it commits with the last page. */
  doneBatch(profileId: string, kind: SyncKind, key: string, now: string): WriteBatch {
    return { sql: DONE_SQL, rows: [[now, now, profileId, kind, key]] };
  }

  finish(
    profileId: string,
    kind: SyncKind,
    key: string,
    state: Exclude<CheckpointState, 'running'>,
    now: string,
    error: string | null = null,
  ): void {
    if (state === 'done') {
      this.#database.prepare(DONE_SQL).run(now, now, profileId, kind, key);
      return;
    }
    this.#database
      .prepare(
        'UPDATE sync_state SET state = ?, finished_at = ?, error = ? WHERE profile_id = ? AND kind = ? AND key = ?',
      )
      .run(state, now, error, profileId, kind, key);
  }

  /** Every completed sync of a kind: its scope and when it completed (for `asOf`). */
  completed(profileId: string, kind: SyncKind): { scope: Record<string, unknown>; at: string }[] {
    this.#completed ??= this.#database.prepare(
      `SELECT last_success_scope AS scope, last_success_at AS at FROM sync_state
         WHERE profile_id = ? AND kind = ? AND last_success_at IS NOT NULL`,
    );
    const rows = this.#completed.all(profileId, kind) as { scope: string; at: string }[];
    return rows.map((row) => ({ scope: JSON.parse(row.scope) as Record<string, unknown>, at: row.at }));
  }

  /** Runs a crash left as 'running' (their process is gone): shown as interrupted. */
  interrupted(): Checkpoint[] {
    const rows = this.#database
      .prepare(`SELECT * FROM sync_state WHERE state = 'running'`)
      .all() as unknown as CheckpointRow[];
    return rows.map(checkpointOf);
  }

  #nextGeneration(): number {
    const row = this.#database
      .prepare(
        `INSERT INTO cache_meta (key, value) VALUES ('generation', '1')
         ON CONFLICT (key) DO UPDATE SET value = CAST(CAST(value AS INTEGER) + 1 AS TEXT)
         RETURNING value`,
      )
      .get() as { value: string };
    return Number(row.value);
  }
}

/**
 * The time of the latest completed sync whose scope covers a read: every parameter the sync
 * fixed must be fixed the same way by the read, and the sync's date range must contain the
 * read's. A sync of all webhook sends covers a read of the errors of one webhook; a sync of
 * one webhook's sends does not cover a read of all of them.
 */
export function asOfFor(
  completed: readonly { scope: Record<string, unknown>; at: string }[],
  read: Record<string, unknown>,
): string | null {
  let latest: string | null = null;
  for (const sync of completed) {
    if (!covers(sync.scope, read)) continue;
    if (latest === null || sync.at > latest) latest = sync.at;
  }
  return latest;
}

function covers(sync: Record<string, unknown>, read: Record<string, unknown>): boolean {
  for (const [name, value] of Object.entries(sync)) {
    if (value === undefined || value === null) continue;
    if (name === 'fromDate') {
      const readFrom = read['fromDate'];
      if (typeof readFrom !== 'string' || readFrom < (value as string)) return false;
    } else if (name === 'toDate') {
      const readTo = read['toDate'];
      if (typeof readTo !== 'string' || readTo > (value as string)) return false;
    } else if (read[name] !== value) {
      return false;
    }
  }
  return true;
}
