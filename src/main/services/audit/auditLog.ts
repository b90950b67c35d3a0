/**
 * The audit log: every write the user made to the bank and every review action (profile,
 * action, target, time, result), in the cache database, append-only (triggers refuse UPDATE
 * and DELETE) and tamper-evident: each entry carries a MAC chained from the one before it with
 * a key from the keychain (auditChain.ts), so an entry edited, deleted or moved in the file is
 * found by `verify()`. It records ids and outcomes only, never a secret or a record's content.
 *
 * Appending is synchronous and joins the caller's transaction when one is open (so a review
 * and its audit entry are kept or lost together); the head is then copied to the keychain in
 * the background (auditAnchor.ts).
 */
import { createHmac, type KeyObject } from 'node:crypto';
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { pageLimitOf, type CacheRead } from '../cache/cacheRead.ts';
import { decodeCursor, encodeCursor, fingerprintOf } from '../cache/keysetCursor.ts';
import type { AnchorKeeper } from './auditAnchor.ts';
import {
  canonicalEntryBytes,
  CHAIN_GENESIS,
  CHAINED_COLUMNS,
  entryMac,
  macText,
  type ChainedFields,
} from './auditChain.ts';
import type { AuditEntry, AuditResult } from './auditEntry.ts';
import { verifyAuditChain, type AuditChainProblem, type AuditVerification } from './auditVerify.ts';

/** A check `verify` runs after the chain's: the rows the log vouches for (cache/rowMacs.ts). */
export type AuditCheck = () => AuditChainProblem | null;
import { earlierLogMissing, missingEarlierLogs, type FolderRecord } from './folderLogs.ts';

/** The data folder's record as verify reads it: which log the keychain says this folder has. */
export interface FolderView {
  cacheId: string;
  read(): Promise<FolderRecord | null>;
}

export type { AuditEntry } from './auditEntry.ts';

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'at' | 'detail' | 'actor'> & {
  detail?: string | null;
  /** Who acted; by default the log's own actor (setActor). */
  actor?: string | null;
};

/** The chain's head as stored, without checking the chain (for the review report's footer). */
export interface AuditChainHead {
  entries: number;
  /** The last entry's id, or null for an empty log. */
  lastId: number | null;
  /** The last entry's MAC as hex, or null for an empty log (or a last entry without one). */
  head: string | null;
}

export interface AuditQuery {
  profileId?: string;
  action?: string;
  result?: AuditResult;
  /** Text in the action, target, profile name or message (the log is not sealed). */
  search?: string;
  limit?: number;
  cursor?: string | null;
}

export class AuditLog {
  readonly #database: DatabaseSync;
  readonly #key: KeyObject;
  readonly #anchor: AnchorKeeper;
  readonly #now: () => Date;
  readonly #folder: FolderView | null;
  readonly #checks: AuditCheck[] = [];
  #actor: () => string | null = () => null;
  /** Prepared once: an append runs them for every write and review action. */
  readonly #lastEntry: StatementSync;
  readonly #insert: StatementSync;

  constructor(
    database: DatabaseSync,
    key: KeyObject,
    anchor: AnchorKeeper,
    now: () => Date = () => new Date(),
    folder: FolderView | null = null,
  ) {
    this.#database = database;
    this.#folder = folder;
    this.#key = key;
    this.#anchor = anchor;
    this.#now = now;
    this.#lastEntry = database.prepare('SELECT id, mac FROM audit_log ORDER BY id DESC LIMIT 1');
    this.#insert = database.prepare(
      `INSERT INTO audit_log (id, profile_id, profile_name, action, target, at, result, detail, actor, mac)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  /** Appends an entry, chained to the last one. */
  record(entry: NewAuditEntry): AuditEntry {
    const appended = this.#append(
      { ...entry, detail: entry.detail ?? null, actor: entry.actor ?? this.#actor() },
      null,
    );
    this.#anchor.follow();
    return appended;
  }

  /**
   * Appends entries in order, each chained to the one before, in the caller's transaction (or
   * one of its own), with one time and one actor: the head is read once and the anchor follows
   * once, so a batch (a sync's rule flags, one entry per item) costs an HMAC and an insert per
   * entry. Returns how many were appended.
   */
  recordMany(entries: readonly NewAuditEntry[]): number {
    if (entries.length === 0) return 0;
    const at = this.#now().toISOString();
    const actor = this.#actor();
    this.#inTransaction(() => {
      const last = this.#lastEntry.get() as { id: number; mac: Uint8Array | null } | undefined;
      let id = last?.id ?? 0;
      let previous: Uint8Array = last?.mac ?? CHAIN_GENESIS;
      for (const entry of entries) {
        id += 1;
        const appended: AuditEntry = { ...entry, detail: entry.detail ?? null, actor: entry.actor ?? actor, id, at };
        previous = entryMac(this.#key, previous, canonicalEntryBytes(appended));
        this.#insert.run(
          id,
          appended.profileId,
          appended.profileName,
          appended.action,
          appended.target,
          at,
          appended.result,
          appended.detail,
          appended.actor ?? null,
          previous,
        );
      }
    });
    this.#anchor.follow();
    return entries.length;
  }

  /**
   * Appends an entry that starts a new chain (its previous MAC is the genesis): only after the
   * chain key was lost, so that what follows can be verified again. Verify reports the entries
   * before it as unverifiable.
   */
  restartChain(entry: NewAuditEntry): AuditEntry {
    const appended = this.#append(
      { ...entry, detail: entry.detail ?? null, actor: entry.actor ?? this.#actor() },
      CHAIN_GENESIS,
    );
    this.#anchor.follow();
    return appended;
  }

  /**
   * Chains entries written before the log was chained (they have no MAC), in id order from
   * the genesis, in one transaction. Only when no entry is chained yet: a MAC-less entry after
   * chained ones is evidence, never "repaired". Returns how many were chained.
   */
  chainUnchainedEntries(): number {
    return this.#inTransaction(() => {
      const chained = this.#database.prepare('SELECT 1 FROM audit_log WHERE mac IS NOT NULL LIMIT 1').get();
      if (chained !== undefined) return 0;
      const select = this.#database.prepare(
        `SELECT ${CHAINED_COLUMNS} FROM audit_log WHERE id > ? ORDER BY id LIMIT 10000`,
      );
      const update = this.#database.prepare('UPDATE audit_log SET mac = ? WHERE id = ?');
      let previous: Uint8Array = CHAIN_GENESIS;
      let after = 0;
      let chainedCount = 0;
      for (;;) {
        const rows = select.all(after) as unknown as ChainedFields[];
        for (const row of rows) {
          previous = entryMac(this.#key, previous, canonicalEntryBytes(row));
          update.run(previous, row.id);
        }
        chainedCount += rows.length;
        const last = rows.at(-1);
        if (last === undefined) break;
        after = last.id;
      }
      return chainedCount;
    });
  }

  /** The head as stored: cheap, and not a verification (see `verify()`). */
  chainHead(): AuditChainHead {
    const last = this.#lastEntry.get() as { id: number; mac: Uint8Array | null } | undefined;
    const { entries } = this.#database.prepare('SELECT count(*) AS entries FROM audit_log').get() as {
      entries: number;
    };
    return { entries, lastId: last?.id ?? null, head: last?.mac == null ? null : macText(last.mac) };
  }

  /**
   * Checks the whole chain and its end against the keychain's anchor: ok with the number of
   * entries and the head, or the first entry that breaks it.
   */
  async verify(): Promise<AuditVerification> {
    await this.#anchor.settled();
    let verification = await verifyAuditChain(this.#database, this.#key, await this.#anchor.read(), this.#now);
    const problem = this.#anchor.problem;
    if (problem !== null) verification = { ...verification, notes: [...verification.notes, problem] };
    if (this.#folder !== null) verification = await this.#againstFolder(verification, this.#folder);
    for (const check of this.#checks) {
      if (verification.problem !== null) break;
      const problem = check();
      if (problem !== null) verification = { ...verification, ok: false, head: null, problem };
    }
    return verification;
  }

  /**
   * The reviewer as the log names them: `#` and 12 hex digits of a MAC of the name under the
   * log's own key. The same name always gets the same reference in this log, so "who" is
   * answered entry by entry, while the name itself stays sealed (review settings) and never
   * stands in clear in the file (a reviewer's name is personal data, like a note).
   */
  reviewerRef(name: string): string {
    return `#${createHmac('sha256', this.#key).update(`ledgerdesk-reviewer\u0000${name}`).digest('hex').slice(0, 12)}`;
  }

  /** Who acts through this log from now on (actor.ts): every entry records it. */
  setActor(actor: () => string | null): void {
    this.#actor = actor;
  }

  /** Adds a check that `verify` runs once the chain verifies (the first problem found is the answer). */
  addCheck(check: AuditCheck): void {
    this.#checks.push(check);
  }

  /**
   * The keychain decides which log this data folder has: a file holding another log, or a
   * folder whose earlier log (with anchored entries) is not in this file, does not verify,
   * whatever the chain of the file says about itself.
   */
  async #againstFolder(verification: AuditVerification, folder: FolderView): Promise<AuditVerification> {
    const record = await folder.read();
    if (record === null) {
      return {
        ...verification,
        notes: [...verification.notes, "The keychain holds no record of this data folder's audit log yet."],
      };
    }
    let message: string | null = null;
    if (record.cacheId !== folder.cacheId) {
      message = `The audit log does not verify: the keychain records cache ${record.cacheId} as this data folder's log, and this file holds cache ${folder.cacheId}.`;
    } else {
      const missing = missingEarlierLogs(record).at(-1);
      if (missing !== undefined) message = earlierLogMissing(missing, folder.cacheId);
    }
    if (message === null || verification.problem !== null) return verification;
    const firstId = (this.#database.prepare('SELECT min(id) AS id FROM audit_log').get() as { id: number | null }).id;
    return {
      ...verification,
      ok: false,
      head: null,
      problem: { kind: 'log-replaced', entryId: firstId ?? 1, entry: null, message },
    };
  }

  /** Why the head's last copy to the keychain failed, or null when the anchor follows the log (a stop's last words). */
  get anchorProblem(): string | null {
    return this.#anchor.problem;
  }

  /** Resolves once the head has been copied to the keychain. */
  async settled(): Promise<void> {
    await this.#anchor.settled();
  }

  /** Waits for the head to be copied to the keychain; no keychain write after this (the cache is closing). */
  async close(): Promise<void> {
    await this.#anchor.stop();
  }

  #append(entry: Omit<AuditEntry, 'id' | 'at'>, previousOverride: Uint8Array | null): AuditEntry {
    const at = this.#now().toISOString();
    return this.#inTransaction(() => {
      const last = this.#lastEntry.get() as { id: number; mac: Uint8Array | null } | undefined;
      const id = (last?.id ?? 0) + 1;
      const appended: AuditEntry = { ...entry, id, at };
      const previous = previousOverride ?? last?.mac ?? CHAIN_GENESIS;
      const mac = entryMac(this.#key, previous, canonicalEntryBytes(appended));
      this.#insert.run(
        id,
        entry.profileId,
        entry.profileName,
        entry.action,
        entry.target,
        at,
        entry.result,
        entry.detail,
        entry.actor ?? null,
        mac,
      );
      return appended;
    });
  }

  /**
   * Runs `work` in the caller's transaction, or in one of its own: IMMEDIATE, so the head is
   * read and extended atomically even with another process appending.
   */
  #inTransaction<Result>(work: () => Result): Result {
    const database = this.#database;
    // Read through a function: the answer changes under BEGIN, COMMIT and SQLite's own rollbacks.
    const inTransaction = (): boolean => database.isTransaction;
    const own = !inTransaction();
    if (own) database.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      if (own) database.exec('COMMIT');
      return result;
    } catch (error) {
      // The caller's own transaction is the caller's to roll back.
      if (own && inTransaction()) database.exec('ROLLBACK');
      throw error;
    }
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
          OR instr(lower(COALESCE(detail, '')), ?) > 0 OR instr(lower(COALESCE(actor, '')), ?) > 0)`,
      );
      parameters.push(search, search, search, search, search);
    }
    if (query.cursor !== undefined && query.cursor !== null) {
      const [, id] = decodeCursor(query.cursor, fingerprint);
      where.push('id < ?');
      parameters.push(Number(id));
    }
    const rows = this.#database
      .prepare(
        `SELECT ${CHAINED_COLUMNS} FROM audit_log ${where.length === 0 ? '' : `WHERE ${where.join(' AND ')}`} ORDER BY id DESC LIMIT ?`,
      )
      .all(...parameters, limit + 1) as unknown as AuditEntry[];
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return {
      rows: page,
      nextCursor: rows.length > limit && last !== undefined ? encodeCursor(fingerprint, null, String(last.id)) : null,
      asOf: null,
      source: 'cache',
    };
  }
}
