/**
 * Officers' reviews in the cache: one row per reviewed item (its current state) and every
 * disposition, change and rule flag in review_history. The note, the reviewer, the record as
 * reviewed and what changed since are sealed (identity: profile, kind, ref), like the records
 * themselves; the state is in clear so lists can filter and count by it with an index.
 * Reviews are not touched by a sync's writes: they survive resyncs and go with the profile's
 * cached data (dropProfile).
 */
import type { DatabaseSync } from 'node:sqlite';
import type { Disposition, ReviewKind, ReviewState } from '../../../shared/review/reviewTerms.ts';
import { pageLimitOf, type CacheRead } from '../cache/cacheRead.ts';
import { decodeCursor, encodeCursor, fingerprintOf, wholeNumberOf } from '../cache/keysetCursor.ts';
import { ReviewRollbacks } from '../cache/reviewRollbacks.ts';
import { ROW_MAC_FUNCTION, type RowMacs } from '../cache/rowMacs.ts';
import type { RuleNames } from '../cache/ruleNames.ts';
import type { RecordSealer } from '../cache/sealing.ts';
import { Statements } from '../cache/statements.ts';
import { queueClauses, type QueueNarrowing } from './queueFilterSql.ts';
import { reviewIdentity, stepIdentity } from './reviewIdentity.ts';
import type { FieldChange } from './recordChanges.ts';

/** An item's review as it stands. */
export interface Review {
  kind: ReviewKind;
  ref: string;
  state: ReviewState;
  /** The last disposition a person gave; null when only a watch rule flagged it. */
  disposition: Disposition | null;
  /** The watch rule that flagged it, when no person has reviewed it since. */
  byRule: string | null;
  note: string | null;
  reviewer: string | null;
  /** When a person last gave a disposition. */
  reviewedAt: string | null;
  /** When the state last moved (a disposition, a change found by a sync, a rule flag). */
  updatedAt: string;
  /** What changed in the record since the review (state `changed`); empty otherwise. */
  changes: FieldChange[];
  version: number;
}

/** One step of a review's history. */
export interface ReviewStep {
  version: number;
  at: string;
  state: ReviewState;
  byRule: string | null;
  note: string | null;
  reviewer: string | null;
  changes: FieldChange[];
}

/** What is sealed in a review's body. */
interface ReviewBody {
  disposition: Disposition | null;
  note: string | null;
  reviewer: string | null;
  reviewedAt: string | null;
  /** The record as it was when reviewed. */
  record: unknown;
  changes: FieldChange[];
}

interface StepBody {
  note: string | null;
  reviewer: string | null;
  changes: FieldChange[];
}

interface ReviewRow {
  id: number;
  profile_id: string;
  kind: ReviewKind;
  ref: string;
  account_id: string | null;
  posted_at: string | null;
  state: ReviewState;
  rule_name: string | null;
  record_digest: string | null;
  version: number;
  updated_at: string;
  body: Uint8Array | null;
  /** The MAC of the clear columns and the body's tag (cache/rowMacs.ts). */
  row_mac: string | null;
}

/** Every column a review's reads need, its MAC included. */
const REVIEW_COLUMNS =
  'id, profile_id, kind, ref, account_id, posted_at, state, rule_name, record_digest, version, updated_at, body, row_mac';

/** What names a review in a sentence. */
function itemOf(kind: ReviewKind, ref: string): string {
  return `The review of ${kind} ${ref}`;
}

/** A disposition to keep for one item. */
export interface NewReview {
  ref: string;
  accountId: string | null;
  postedAt: string | null;
  /** The cached record's digest; null when the cache no longer holds it (nothing to compare). */
  digest: string | null;
  record: unknown;
}

/** What a review remembers of an item the cache no longer holds: where it was, and its record. */
export interface LastKnown {
  accountId: string | null;
  postedAt: string | null;
  record: unknown;
}

export interface ReviewListQuery extends QueueNarrowing {
  profileId: string;
  kind?: ReviewKind;
  state?: ReviewState;
  /** updated_at from (inclusive) and to (exclusive), YYYY-MM-DD or ISO. */
  fromDate?: string;
  toDate?: string;
  limit?: number;
  cursor?: string | null;
}

/** A review with what the list needs to show it without another read. */
export type ListedReview = Review & { accountId: string | null; record: unknown };

const EMPTY_COUNTS: Record<ReviewState, number> = { cleared: 0, flagged: 0, escalated: 0, changed: 0 };

/** True when the pending transaction a review (`reviews`) names is a row of the cache. */
const ROW_CACHED = `EXISTS (SELECT 1 FROM pending_transaction_scopes AS s CROSS JOIN pending_transactions AS p
  ON p.scope = s.id AND p.posted_at = reviews.posted_at AND p.row_key = reviews.ref
  WHERE s.profile_id = reviews.profile_id AND s.account_id = reviews.account_id)`;

/** Says whether a pending transaction's review, just given, has its row in the cache. */
const LISTED_SQL = `UPDATE reviews SET row_listed = ${ROW_CACHED}
  WHERE profile_id = ? AND kind = 'pending-transaction' AND ref = ?`;

/** A row of review_history as read (its MAC columns checked by RowMacs). */
interface HistoryRow {
  profile_id: string;
  kind: string;
  ref: string;
  version: number;
  at: string;
  state: ReviewState;
  rule_name: string | null;
  body: Uint8Array | null;
  row_mac: string | null;
}

export class ReviewsTable {
  readonly #sealer: () => RecordSealer;
  readonly #statements: Statements;
  readonly #macs: RowMacs;
  /** Rule names behind the references in rule_name (N10). */
  readonly #ruleNames: RuleNames;
  /** Whether a review is the latest version the audit log knows (a row put back is refused). */
  readonly #rollbacks: ReviewRollbacks;

  constructor(database: DatabaseSync, sealer: () => RecordSealer, macs: RowMacs, ruleNames: RuleNames) {
    this.#ruleNames = ruleNames;
    this.#rollbacks = new ReviewRollbacks(database);
    this.#sealer = sealer;
    this.#statements = new Statements(database);
    this.#macs = macs;
  }

  /**
   * Keeps a person's disposition on each item (inside the caller's transaction): the state,
   * the sealed note and record, and a step of history. Returns the reviews as they now stand.
   */
  give(
    profileId: string,
    kind: ReviewKind,
    items: readonly NewReview[],
    disposition: Disposition,
    note: string | null,
    reviewer: string,
    at: string,
  ): Review[] {
    const sealer = this.#sealer();
    const versions = this.#versions(
      profileId,
      kind,
      items.map((item) => item.ref),
    );
    const upsert = this.#statements.get(
      `INSERT INTO reviews (profile_id, kind, ref, account_id, posted_at, state, rule_name, record_digest, version, updated_at, body, row_mac)
       VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, ?)
       ON CONFLICT (profile_id, kind, ref) DO UPDATE SET
         account_id = excluded.account_id, posted_at = excluded.posted_at, state = excluded.state, rule_name = NULL,
         record_digest = excluded.record_digest, version = excluded.version, updated_at = excluded.updated_at,
         body = excluded.body, row_mac = excluded.row_mac`,
    );
    const step = this.#statements.get(
      'INSERT INTO review_history (profile_id, kind, ref, version, at, state, rule_name, body, row_mac) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?)',
    );
    const listed = kind === 'pending-transaction' ? this.#statements.get(LISTED_SQL) : null;
    return items.map((item) => {
      const version = (versions.get(item.ref) ?? 0) + 1;
      const body: ReviewBody = { disposition, note, reviewer, reviewedAt: at, record: item.record, changes: [] };
      const sealed = sealer.sealJson(body, reviewIdentity(profileId, kind, item.ref));
      upsert.run(
        profileId,
        kind,
        item.ref,
        item.accountId,
        item.postedAt,
        disposition,
        item.digest,
        version,
        at,
        sealed,
        this.#macs.of('reviews', [
          profileId,
          kind,
          item.ref,
          item.accountId,
          item.postedAt,
          disposition,
          null,
          item.digest,
          version,
          at,
          sealed,
        ]),
      );
      // An item the bank no longer lists can be reviewed too (from the queue): it is not a row.
      listed?.run(profileId, item.ref);
      const stepBody: StepBody = { note, reviewer, changes: [] };
      const sealedStep = sealer.sealJson(stepBody, stepIdentity(profileId, kind, item.ref, version));
      step.run(
        profileId,
        kind,
        item.ref,
        version,
        at,
        disposition,
        sealedStep,
        this.#macs.of('review_history', [profileId, kind, item.ref, version, at, disposition, null, sealedStep]),
      );
      return {
        kind,
        ref: item.ref,
        state: disposition,
        disposition,
        byRule: null,
        note,
        reviewer,
        reviewedAt: at,
        updatedAt: at,
        changes: [],
        version,
      };
    });
  }

  /**
   * Marks a person's review `changed` (inside the caller's transaction): the record the sync
   * brought differs from the one reviewed. The digest stays the reviewed one until a person
   * reviews the item again, so the same change is found once.
   */
  markChanged(profileId: string, kind: ReviewKind, ref: string, changes: FieldChange[], at: string): number | null {
    const row = this.#row(profileId, kind, ref);
    if (row === undefined || row.body === null) return null;
    const sealer = this.#sealer();
    const body = sealer.openJson(row.body, reviewIdentity(profileId, kind, ref)) as ReviewBody;
    const version = row.version + 1;
    const sealed = sealer.sealJson({ ...body, changes }, reviewIdentity(profileId, kind, ref));
    const mac = this.#macs.of('reviews', [
      profileId,
      kind,
      ref,
      row.account_id,
      row.posted_at,
      'changed',
      row.rule_name,
      row.record_digest,
      version,
      at,
      sealed,
    ]);
    this.#statements
      .get('UPDATE reviews SET state = ?, version = ?, updated_at = ?, body = ?, row_mac = ? WHERE id = ?')
      .run('changed', version, at, sealed, mac, row.id);
    const stepBody: StepBody = { note: null, reviewer: null, changes };
    const sealedStep = sealer.sealJson(stepBody, stepIdentity(profileId, kind, ref, version));
    this.#statements
      .get(
        'INSERT INTO review_history (profile_id, kind, ref, version, at, state, rule_name, body, row_mac) VALUES (?, ?, ?, ?, ?, ?, NULL, ?, ?)',
      )
      .run(
        profileId,
        kind,
        ref,
        version,
        at,
        'changed',
        sealedStep,
        this.#macs.of('review_history', [profileId, kind, ref, version, at, 'changed', null, sealedStep]),
      );
    return version;
  }

  /**
   * Flags, for a watch rule, the items `select` finds that have no review (inside the
   * caller's transaction). `select` is a SELECT of (ref, account_id, posted_at) rows with its
   * parameters; it runs in SQL, so a rule over a million rows never opens a body. Returns the
   * refs of the items flagged (each gets its audit entry: ruleFlagAudit.ts).
   */
  flagByRule(
    profileId: string,
    kind: ReviewKind,
    ruleRef: string,
    select: { sql: string; parameters: (string | number | null)[] },
    at: string,
  ): string[] {
    const inserted = this.#statements
      .get(
        `INSERT INTO reviews (profile_id, kind, ref, account_id, posted_at, state, rule_name, record_digest, version, updated_at, body, row_mac)
         SELECT given.profile, given.kind, matched.ref, matched.account_id, matched.posted_at, 'flagged', given.rule,
           NULL, 1, given.at, NULL,
           ${ROW_MAC_FUNCTION}('reviews', given.profile, given.kind, matched.ref, matched.account_id, matched.posted_at,
             'flagged', given.rule, NULL, 1, given.at, NULL)
         FROM (SELECT ? AS profile, ? AS kind, ? AS rule, ? AS at) AS given CROSS JOIN (${select.sql}) AS matched
         WHERE NOT EXISTS (SELECT 1 FROM reviews AS r WHERE r.profile_id = ? AND r.kind = ? AND r.ref = matched.ref)
         ON CONFLICT DO NOTHING
         RETURNING ref`,
      )
      .all(profileId, kind, ruleRef, at, ...select.parameters, profileId, kind) as { ref: string }[];
    const step = this.#statements.get(
      `INSERT INTO review_history (profile_id, kind, ref, version, at, state, rule_name, body, row_mac)
       VALUES (?, ?, ?, 1, ?, 'flagged', ?, NULL, ?)`,
    );
    for (const { ref } of inserted) {
      const mac = this.#macs.of('review_history', [profileId, kind, ref, 1, at, 'flagged', ruleRef, null]);
      step.run(profileId, kind, ref, at, ruleRef, mac);
    }
    return inserted.map(({ ref }) => ref);
  }

  /**
   * After a sync of pending transactions: a row the bank lists again (it left, then came back
   * the same) has its review counted with the list again. Only reviews marked as without a
   * row are looked at, which are few (the trigger that unmarks them: migration 12).
   */
  relistPendingTransactions(profileId: string): number {
    return Number(
      this.#statements
        .get(
          `UPDATE reviews SET row_listed = 1
           WHERE profile_id = ? AND kind = 'pending-transaction' AND row_listed = 0 AND ${ROW_CACHED}`,
        )
        .run(profileId).changes,
    );
  }

  /** The reviews of these refs (the review column of a page of rows). */
  ofRefs(profileId: string, kind: ReviewKind, refs: readonly string[]): Map<string, Review> {
    if (refs.length === 0) return new Map();
    const rows = this.#statements
      .get(
        `SELECT ${REVIEW_COLUMNS}
         FROM reviews WHERE profile_id = ? AND kind = ? AND ref IN (SELECT value FROM json_each(?))`,
      )
      .all(profileId, kind, JSON.stringify(refs)) as unknown as ReviewRow[];
    return new Map(rows.map((row) => [row.ref, this.#reviewOf(profileId, this.#checked(row))]));
  }

  /** One item's review with the record as reviewed, or null when it was never reviewed. */
  get(profileId: string, kind: ReviewKind, ref: string): (Review & { record: unknown }) | null {
    const row = this.#row(profileId, kind, ref);
    if (row === undefined) {
      // No review: unless the audit log says there was one, and nothing dropped it since.
      this.#rollbacks.check(profileId, kind, ref, undefined, () => itemOf(kind, ref));
      return null;
    }
    return { ...this.#reviewOf(profileId, row), record: this.#bodyOf(profileId, row)?.record ?? null };
  }

  /**
   * Items of these refs that were reviewed (or flagged by a rule) before: where each was and
   * the record as last reviewed. What lets an officer review again an item the bank no longer
   * lists (a pending transaction posted or released), which only the review still knows.
   */
  lastKnown(profileId: string, kind: ReviewKind, refs: readonly string[]): Map<string, LastKnown> {
    if (refs.length === 0) return new Map();
    const rows = this.#statements
      .get(
        `SELECT ${REVIEW_COLUMNS}
         FROM reviews WHERE profile_id = ? AND kind = ? AND ref IN (SELECT value FROM json_each(?))`,
      )
      .all(profileId, kind, JSON.stringify(refs)) as unknown as ReviewRow[];
    return new Map(
      rows.map((row) => [
        row.ref,
        {
          accountId: this.#current(profileId, this.#checked(row)).account_id,
          postedAt: row.posted_at,
          record: this.#bodyOf(profileId, row)?.record ?? null,
        },
      ]),
    );
  }

  /** Every step of an item's review, oldest first. */
  history(profileId: string, kind: ReviewKind, ref: string): ReviewStep[] {
    const rows = this.#statements
      .get(
        `SELECT profile_id, kind, ref, version, at, state, rule_name, body, row_mac FROM review_history
         WHERE profile_id = ? AND kind = ? AND ref = ? ORDER BY version`,
      )
      .all(profileId, kind, ref) as unknown as HistoryRow[];
    return rows.map((row) => this.#stepOf(profileId, kind, row));
  }

  /**
   * The histories of many items of a kind in one read (the report's page of items): each
   * item's steps in order, keyed by ref; an item without steps has none in the map.
   */
  histories(profileId: string, kind: ReviewKind, refs: readonly string[]): Map<string, ReviewStep[]> {
    const histories = new Map<string, ReviewStep[]>();
    if (refs.length === 0) return histories;
    const rows = this.#statements
      .get(
        `SELECT profile_id, kind, ref, version, at, state, rule_name, body, row_mac FROM review_history
         WHERE profile_id = ? AND kind = ? AND ref IN (SELECT value FROM json_each(?)) ORDER BY ref, version`,
      )
      .all(profileId, kind, JSON.stringify(refs)) as unknown as HistoryRow[];
    for (const row of rows) {
      let steps = histories.get(row.ref);
      if (steps === undefined) {
        steps = [];
        histories.set(row.ref, steps);
      }
      steps.push(this.#stepOf(profileId, kind, row));
    }
    return histories;
  }

  /** One step of an item's history, its MAC checked and its body opened. */
  #stepOf(profileId: string, kind: ReviewKind, row: HistoryRow): ReviewStep {
    this.#macs.check(
      'review_history',
      row,
      () => `Step ${String(row.version)} of ${itemOf(kind, row.ref).toLowerCase()}`,
    );
    const body =
      row.body === null
        ? null
        : (this.#sealer().openJson(row.body, stepIdentity(profileId, kind, row.ref, row.version)) as StepBody);
    return {
      version: row.version,
      at: row.at,
      state: row.state,
      byRule: row.rule_name === null ? null : this.#ruleNames.nameOf(profileId, row.rule_name),
      note: body?.note ?? null,
      reviewer: body?.reviewer ?? null,
      changes: body?.changes ?? [],
    };
  }

  /**
   * Reviews, the most recently moved first, keyset-paged; `asOf` is null (reviews are local).
   * A review altered in the file throws RowAltered, unless `onAltered` is given: then it is
   * left out of the page and handed to `onAltered` (the report lists such items apart).
   */
  list(
    query: ReviewListQuery,
    onAltered?: (altered: { kind: ReviewKind; ref: string }) => void,
  ): CacheRead<ListedReview> {
    const limit = pageLimitOf(query.limit);
    // The queue's filters (account, time, amount, rule); none for the plain list.
    const narrowing = queueClauses(query);
    const fingerprint = fingerprintOf([
      'reviews',
      query.profileId,
      query.kind ?? null,
      query.state ?? null,
      query.fromDate ?? null,
      query.toDate ?? null,
      ...(narrowing.where.length === 0 ? [] : [narrowing]),
    ]);
    const where = ['profile_id = ?', ...narrowing.where];
    const parameters: (string | number)[] = [query.profileId, ...narrowing.parameters];
    const equal: [string, string | undefined][] = [
      ['kind', query.kind],
      ['state', query.state],
    ];
    for (const [column, value] of equal) {
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      parameters.push(value);
    }
    if (query.fromDate !== undefined) {
      where.push('updated_at >= ?');
      parameters.push(query.fromDate);
    }
    if (query.toDate !== undefined) {
      where.push('updated_at < ?');
      parameters.push(query.toDate);
    }
    if (query.cursor !== undefined && query.cursor !== null) {
      const [updatedAt, id] = decodeCursor(query.cursor, fingerprint);
      where.push('(updated_at, id) < (?, ?)');
      parameters.push(String(updatedAt), wholeNumberOf(id));
    }
    const rows = this.#statements
      .get(
        `SELECT ${REVIEW_COLUMNS}
         FROM reviews WHERE ${where.join(' AND ')} ORDER BY updated_at DESC, id DESC LIMIT ?`,
      )
      .all(...parameters, limit + 1) as unknown as ReviewRow[];
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    // With `onAltered` (the report), a row put back to an earlier version is left out too.
    const authentic = page.filter((row) => {
      if (onAltered === undefined) return true;
      if (this.#macs.holds('reviews', row) && this.#rollbacks.holds(query.profileId, row)) return true;
      onAltered({ kind: row.kind, ref: row.ref });
      return false;
    });
    return {
      rows: authentic.map((row) => ({
        ...this.#reviewOf(query.profileId, this.#checked(row)),
        accountId: row.account_id,
        record: this.#bodyOf(query.profileId, row)?.record ?? null,
      })),
      nextCursor:
        rows.length > limit && last !== undefined ? encodeCursor(fingerprint, last.updated_at, String(last.id)) : null,
      asOf: null,
      source: 'cache',
    };
  }

  /** How many reviews are in each state, for a kind (one pass of the state index). */
  counts(profileId: string, kind: ReviewKind): Record<ReviewState, number> {
    const rows = this.#statements
      .get('SELECT state, COUNT(*) AS count FROM reviews WHERE profile_id = ? AND kind = ? GROUP BY state')
      .all(profileId, kind) as { state: ReviewState; count: number }[];
    const counts = { ...EMPTY_COUNTS };
    for (const row of rows) counts[row.state] = row.count;
    return counts;
  }

  /**
   * A person's reviews still in a disposition, with the digest they were given on: what a sync
   * checks. A review altered in the file is left out (nothing is decided on it; audit verify
   * names it).
   */
  standing(
    profileId: string,
    kind: ReviewKind,
  ): { ref: string; accountId: string | null; postedAt: string | null; digest: string }[] {
    const rows = this.#statements
      .get(
        `SELECT ${REVIEW_COLUMNS} FROM reviews
         WHERE profile_id = ? AND kind = ? AND state != 'changed' AND record_digest IS NOT NULL`,
      )
      .all(profileId, kind) as unknown as ReviewRow[];
    return rows
      .filter((row) => this.#macs.holds('reviews', row))
      .map((row) => ({
        ref: row.ref,
        accountId: row.account_id,
        postedAt: row.posted_at,
        digest: row.record_digest ?? '',
      }));
  }

  /** Forgets a profile's reviews and their history (inside the caller's transaction). */
  dropProfile(profileId: string): void {
    this.#statements.get('DELETE FROM reviews WHERE profile_id = ?').run(profileId);
    this.#statements.get('DELETE FROM review_history WHERE profile_id = ?').run(profileId);
  }

  #row(profileId: string, kind: ReviewKind, ref: string): ReviewRow | undefined {
    const row = this.#statements
      .get(
        `SELECT ${REVIEW_COLUMNS}
         FROM reviews WHERE profile_id = ? AND kind = ? AND ref = ?`,
      )
      .get(profileId, kind, ref) as ReviewRow | undefined;
    return row === undefined ? undefined : this.#current(profileId, this.#checked(row));
  }

  /** The row, once its clear columns are known to be authentic (RowAltered otherwise). */
  #checked(row: ReviewRow): ReviewRow {
    this.#macs.check('reviews', row, () => itemOf(row.kind, row.ref));
    return row;
  }

  /**
   * The row, once it is also known to be the latest version the audit log records for the item
   * (ReviewRolledBack otherwise): for what an officer opens or acts on. A page's review column
   * checks the MAC only (one lookup per row would cost the page); `audit verify` checks all.
   */
  #current(profileId: string, row: ReviewRow): ReviewRow {
    this.#rollbacks.check(profileId, row.kind, row.ref, row, () => itemOf(row.kind, row.ref));
    return row;
  }

  #versions(profileId: string, kind: ReviewKind, refs: readonly string[]): Map<string, number> {
    const rows = this.#statements
      .get(
        `SELECT ${REVIEW_COLUMNS} FROM reviews WHERE profile_id = ? AND kind = ? AND ref IN (SELECT value FROM json_each(?))`,
      )
      .all(profileId, kind, JSON.stringify(refs)) as unknown as ReviewRow[];
    const versions = new Map(rows.map((row) => [row.ref, this.#current(profileId, this.#checked(row)).version]));
    // An item with no review must not have lost one: a deleted escalation is not a fresh item.
    for (const ref of refs) {
      if (!versions.has(ref)) this.#rollbacks.check(profileId, kind, ref, undefined, () => itemOf(kind, ref));
    }
    return versions;
  }

  #bodyOf(profileId: string, row: ReviewRow): ReviewBody | null {
    if (row.body === null) return null;
    return this.#sealer().openJson(row.body, reviewIdentity(profileId, row.kind, row.ref)) as ReviewBody;
  }

  #reviewOf(profileId: string, row: ReviewRow): Review {
    const body = this.#bodyOf(profileId, row);
    return {
      kind: row.kind,
      ref: row.ref,
      state: row.state,
      disposition: body?.disposition ?? null,
      byRule: row.rule_name === null ? null : this.#ruleNames.nameOf(profileId, row.rule_name),
      note: body?.note ?? null,
      reviewer: body?.reviewer ?? null,
      reviewedAt: body?.reviewedAt ?? null,
      updatedAt: row.updated_at,
      changes: row.state === 'changed' ? (body?.changes ?? []) : [],
      version: row.version,
    };
  }
}
