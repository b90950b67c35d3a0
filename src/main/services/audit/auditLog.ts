/**
 * The audit log: every write the user made (profile, action, target, time, result), in the
 * cache database, append-only (triggers refuse UPDATE and DELETE). It records ids and
 * outcomes only, never a secret or a record's content.
 */
import type { DatabaseSync } from 'node:sqlite';
import { pageLimitOf, type CacheRead } from '../cache/cacheRead.ts';
import { decodeCursor, encodeCursor, fingerprintOf } from '../cache/keysetCursor.ts';

export type AuditResult = 'ok' | 'failed' | 'refused';

export interface AuditEntry {
  id: number;
  profileId: string;
  profileName: string;
  /** What was done, e.g. `document.create`, `webhook.update`, `profile.remove`. */
  action: string;
  /** What it was done to, e.g. `doc_123` or `cdpt_9/front`. */
  target: string;
  at: string;
  result: AuditResult;
  /** The error sentence when it failed or was refused. */
  detail: string | null;
}

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'at' | 'detail'> & { detail?: string | null };

export interface AuditQuery {
  profileId?: string;
  action?: string;
  result?: AuditResult;
  /** Text in the action, target, profile name or message (the log is not sealed). */
  search?: string;
  limit?: number;
  cursor?: string | null;
}

interface AuditRow {
  id: number;
  profile_id: string;
  profile_name: string;
  action: string;
  target: string;
  at: string;
  result: AuditResult;
  detail: string | null;
}

export class AuditLog {
  readonly #database: DatabaseSync;
  readonly #now: () => Date;

  constructor(database: DatabaseSync, now: () => Date = () => new Date()) {
    this.#database = database;
    this.#now = now;
  }

  record(entry: NewAuditEntry): AuditEntry {
    const at = this.#now().toISOString();
    const row = this.#database
      .prepare(
        `INSERT INTO audit_log (profile_id, profile_name, action, target, at, result, detail)
         VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      )
      .get(entry.profileId, entry.profileName, entry.action, entry.target, at, entry.result, entry.detail ?? null) as {
      id: number;
    };
    return { ...entry, id: row.id, at, detail: entry.detail ?? null };
  }

  /** Newest first. The log is local, never synced, so `asOf` is null. */
  list(query: AuditQuery = {}): CacheRead<AuditEntry> {
    const limit = pageLimitOf(query.limit);
    const search = query.search?.trim().toLowerCase() ?? '';
    const fingerprint = fingerprintOf([
      'audit',
      query.profileId ?? null,
      query.action ?? null,
      query.result ?? null,
      search,
    ]);
    const where: string[] = [];
    const parameters: (string | number)[] = [];
    const equal: [string, string | undefined][] = [
      ['profile_id', query.profileId],
      ['action', query.action],
      ['result', query.result],
    ];
    for (const [column, value] of equal) {
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      parameters.push(value);
    }
    if (search !== '') {
      where.push(
        `(instr(lower(action), ?) > 0 OR instr(lower(target), ?) > 0 OR instr(lower(profile_name), ?) > 0
          OR instr(lower(COALESCE(detail, '')), ?) > 0)`,
      );
      parameters.push(search, search, search, search);
    }
    if (query.cursor !== undefined && query.cursor !== null) {
      const [, id] = decodeCursor(query.cursor, fingerprint);
      where.push('id < ?');
      parameters.push(Number(id));
    }
    const rows = this.#database
      .prepare(
        `SELECT * FROM audit_log ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`} ORDER BY id DESC LIMIT ?`,
      )
      .all(...parameters, limit + 1) as unknown as AuditRow[];
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      rows: page.map((row) => ({
        id: row.id,
        profileId: row.profile_id,
        profileName: row.profile_name,
        action: row.action,
        target: row.target,
        at: row.at,
        result: row.result,
        detail: row.detail,
      })),
      nextCursor: rows.length > limit && last !== undefined ? encodeCursor(fingerprint, null, String(last.id)) : null,
      asOf: null,
      source: 'cache',
    };
  }
}
