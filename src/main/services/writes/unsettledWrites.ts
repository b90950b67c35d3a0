/**
 * Creates the bank may have made without our knowing what it answered (issue 14, item 4): the
 * answer could not be read, or none came in time. Each is kept with the idempotency key it was
 * sent with, under a keyed digest of the request, until the same write is tried again and
 * answered: the retry sends the same key, so the bank returns the object it made the first
 * time instead of making a second one.
 */
import { randomUUID } from 'node:crypto';
import type { DatabaseSync } from 'node:sqlite';

export type UnsettledReason = 'unread' | 'no-answer';

export interface UnsettledWrite {
  profileId: string;
  action: string;
  idempotencyKey: string;
  /** The id the unreadable answer named, when it named one. */
  objectId: string | null;
  reason: UnsettledReason;
  firstTriedAt: string;
  lastTriedAt: string;
  tries: number;
}

export interface WriteAttempt {
  /** The key to send: the unsettled one of this same write, or a fresh one. */
  idempotencyKey: string;
  /** The earlier try this one repeats, if any. */
  earlier: UnsettledWrite | null;
}

export class UnsettledWrites {
  readonly #database: DatabaseSync;
  /** A keyed digest of a request's canonical text: the request is never stored. */
  readonly #digest: (text: string) => string;
  readonly #now: () => Date;

  constructor(database: DatabaseSync, digest: (text: string) => string, now: () => Date = () => new Date()) {
    this.#database = database;
    this.#digest = digest;
    this.#now = now;
  }

  /** What a write of `action` with this request sends: the key of an unsettled try of it, or a fresh one. */
  attempt(profileId: string, action: string, request: string): WriteAttempt {
    const earlier = this.#find(profileId, action, this.#digest(request));
    return { idempotencyKey: earlier?.idempotencyKey ?? randomUUID(), earlier };
  }

  /** The bank may have acted and we do not know its answer: keep the key for the next try. */
  keep(
    profileId: string,
    action: string,
    request: string,
    idempotencyKey: string,
    reason: UnsettledReason,
    objectId: string | null,
  ): UnsettledWrite {
    const at = this.#now().toISOString();
    this.#database
      .prepare(
        `INSERT INTO unsettled_writes (profile_id, action, request_digest, idempotency_key, object_id, reason,
                                       first_tried_at, last_tried_at, tries)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)
         ON CONFLICT (profile_id, action, request_digest) DO UPDATE SET
           object_id = COALESCE(excluded.object_id, object_id), reason = excluded.reason,
           last_tried_at = excluded.last_tried_at, tries = tries + 1`,
      )
      .run(profileId, action, this.#digest(request), idempotencyKey, objectId, reason, at, at);
    const kept = this.#find(profileId, action, this.#digest(request));
    if (kept === null) throw new Error('The unsettled write was not kept.');
    return kept;
  }

  /** The write was answered and read: nothing is owed any more. */
  settle(profileId: string, action: string, request: string): void {
    this.#database
      .prepare('DELETE FROM unsettled_writes WHERE profile_id = ? AND action = ? AND request_digest = ?')
      .run(profileId, action, this.#digest(request));
  }

  list(profileId: string): UnsettledWrite[] {
    return (
      this.#database
        .prepare('SELECT * FROM unsettled_writes WHERE profile_id = ? ORDER BY last_tried_at DESC')
        .all(profileId) as Record<string, unknown>[]
    ).map(unsettledOf);
  }

  dropProfile(profileId: string): void {
    this.#database.prepare('DELETE FROM unsettled_writes WHERE profile_id = ?').run(profileId);
  }

  #find(profileId: string, action: string, digest: string): UnsettledWrite | null {
    const row = this.#database
      .prepare('SELECT * FROM unsettled_writes WHERE profile_id = ? AND action = ? AND request_digest = ?')
      .get(profileId, action, digest) as Record<string, unknown> | undefined;
    return row === undefined ? null : unsettledOf(row);
  }
}

function unsettledOf(row: Record<string, unknown>): UnsettledWrite {
  return {
    profileId: String(row['profile_id']),
    action: String(row['action']),
    idempotencyKey: String(row['idempotency_key']),
    objectId: typeof row['object_id'] === 'string' ? row['object_id'] : null,
    reason: row['reason'] === 'no-answer' ? 'no-answer' : 'unread',
    firstTriedAt: String(row['first_tried_at']),
    lastTriedAt: String(row['last_tried_at']),
    tries: Number(row['tries']),
  };
}
