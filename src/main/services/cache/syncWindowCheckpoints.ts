/**
 * The checkpoints of a windowed sync (migration 10): one row per date window of a job, with
 * the window's cursor and counts. A window's page carries its row's advance, committed with
 * the page's rows, so after a crash every window resumes after its own last page kept. The
 * job's row in sync_state keeps the generation and the totals; its cursor stays NULL.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { SyncKind } from './syncCheckpoints.ts';
import type { WriteBatch } from './writeBatch.ts';

export interface WindowCheckpoint {
  index: number;
  fromDate?: string;
  toDate?: string;
  weight: number;
  /** The days the window spans for the ETA, its open ends closed at the records known. */
  spanFrom: string;
  spanTo: string;
  cursor: string | null;
  done: boolean;
  fetched: number;
  written: number;
}

interface WindowRow {
  window_index: number;
  from_date: string | null;
  to_date: string | null;
  weight: number;
  span_from: string;
  span_to: string;
  cursor: string | null;
  done: number;
  fetched: number;
  written: number;
}

const ADVANCE_WINDOW_SQL = `UPDATE sync_windows SET cursor = ?, done = ?, fetched = fetched + ?, written = written + ?
  WHERE profile_id = ? AND kind = ? AND key = ? AND window_index = ?`;
/** The job's totals move with each window's page; its cursor is the windows'. */
const ADVANCE_JOB_SQL = `UPDATE sync_state SET fetched = fetched + ?, written = written + ?, checkpoint_at = ?
  WHERE profile_id = ? AND kind = ? AND key = ?`;
const FORGET_SQL = 'DELETE FROM sync_windows WHERE profile_id = ? AND kind = ? AND key = ?';

export class SyncWindowCheckpoints {
  readonly #database: DatabaseSync;

  constructor(database: DatabaseSync) {
    this.#database = database;
  }

  /** The job's windows, in order; empty when it walks no windows. */
  of(profileId: string, kind: SyncKind, key: string): WindowCheckpoint[] {
    const rows = this.#database
      .prepare(
        `SELECT window_index, from_date, to_date, weight, span_from, span_to, cursor, done, fetched, written FROM sync_windows
         WHERE profile_id = ? AND kind = ? AND key = ? ORDER BY window_index`,
      )
      .all(profileId, kind, key) as unknown as WindowRow[];
    return rows.map((row) => ({
      index: row.window_index,
      ...(row.from_date === null ? {} : { fromDate: row.from_date }),
      ...(row.to_date === null ? {} : { toDate: row.to_date }),
      weight: row.weight,
      spanFrom: row.span_from,
      spanTo: row.span_to,
      cursor: row.cursor,
      done: row.done === 1,
      fetched: row.fetched,
      written: row.written,
    }));
  }

  /** Whether the job has windows left to walk (a run that stopped half-way). */
  unfinished(profileId: string, kind: SyncKind, key: string): boolean {
    return this.of(profileId, kind, key).some((window) => !window.done);
  }

  /** Replaces the job's windows with freshly planned ones (nothing walked yet). */
  plan(
    profileId: string,
    kind: SyncKind,
    key: string,
    windows: readonly Pick<WindowCheckpoint, 'fromDate' | 'toDate' | 'weight' | 'spanFrom' | 'spanTo'>[],
  ): WindowCheckpoint[] {
    const insert = this.#database.prepare(
      `INSERT INTO sync_windows (profile_id, kind, key, window_index, from_date, to_date, weight, span_from, span_to)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.#database.exec('SAVEPOINT plan_windows');
    try {
      this.#database.prepare(FORGET_SQL).run(profileId, kind, key);
      windows.forEach((window, index) => {
        insert.run(
          profileId,
          kind,
          key,
          index,
          window.fromDate ?? null,
          window.toDate ?? null,
          window.weight,
          window.spanFrom,
          window.spanTo,
        );
      });
      this.#database.exec('RELEASE plan_windows');
    } catch (error) {
      this.#database.exec('ROLLBACK TO plan_windows');
      this.#database.exec('RELEASE plan_windows');
      throw error;
    }
    return this.of(profileId, kind, key);
  }

  /** Forgets the job's windows (a fresh run that walks none). */
  forget(profileId: string, kind: SyncKind, key: string): void {
    this.#database.prepare(FORGET_SQL).run(profileId, kind, key);
  }

  /** A window's page: its cursor and counts, and the job's totals, committed with the page. */
  advanceBatches(
    profileId: string,
    kind: SyncKind,
    key: string,
    window: number,
    cursor: string | null,
    fetched: number,
    written: number,
    now: string,
  ): WriteBatch[] {
    return [
      {
        sql: ADVANCE_WINDOW_SQL,
        rows: [[cursor, cursor === null ? 1 : 0, fetched, written, profileId, kind, key, window]],
      },
      { sql: ADVANCE_JOB_SQL, rows: [[fetched, written, now, profileId, kind, key]] },
    ];
  }

  /** Committed with the job's last page: the windows are done with. */
  forgetBatch(profileId: string, kind: SyncKind, key: string): WriteBatch {
    return { sql: FORGET_SQL, rows: [[profileId, kind, key]] };
  }
}
