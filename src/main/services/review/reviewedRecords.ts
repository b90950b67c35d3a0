/**
 * The records a review is about, as the cache holds them now, with their digest: what a review
 * remembers when it is given, and what a sync is compared against (changedSinceReview.ts).
 * The digest is the one the cache already keeps beside each record (a pending transaction's row
 * key is itself a keyed digest of the record; sends and applications keep `body_digest`), so
 * comparing a review with the cache never opens a sealed body; a notification's digest covers
 * every attempt of it.
 */
import type { DatabaseSync } from 'node:sqlite';
import { notificationOfRef, type ReviewKind } from '../../../shared/review/reviewTerms.ts';
import { identityOf as applicationIdentity } from '../cache/accountApplicationsTable.ts';
import { identityOf as pendingIdentity } from '../cache/pendingTransactionsTable.ts';
import { openCheckedPending, pendingClearColumnsSql, type PendingClearColumns } from '../cache/pendingColumns.ts';
import { RowAltered } from '../cache/rowMacs.ts';
import type { RecordSealer } from '../cache/sealing.ts';
import { Statements } from '../cache/statements.ts';
import { ApplicationSnapshots } from './applicationSnapshot.ts';
import { identityOf as sendIdentity } from '../cache/webhookSendsTable.ts';
import { hitDigest, ScreeningHits } from '../screening/screeningHits.ts';

export interface ReviewedRecord {
  /** The record as cached: the bank's JSON (a notification: its attempts, oldest first). */
  record: unknown;
  digest: string;
  /** For a pending transaction: where its row is (its account and time). */
  accountId: string | null;
  postedAt: string | null;
}

interface PendingLocation extends PendingClearColumns {
  account_id: string;
  row_key: string;
  body: Uint8Array;
}

export class ReviewedRecords {
  readonly #sealer: () => RecordSealer;
  readonly #statements: Statements;

  readonly #snapshots: ApplicationSnapshots;
  /** Screening hits are the record's own rows, sealed with the record's key (recordSealer). */
  readonly #hits: ScreeningHits;

  constructor(database: DatabaseSync, sealer: () => RecordSealer, recordSealer: () => RecordSealer = sealer) {
    this.#sealer = sealer;
    this.#statements = new Statements(database);
    this.#snapshots = new ApplicationSnapshots(database, sealer);
    this.#hits = new ScreeningHits(database, recordSealer);
  }

  /** The cached records of these refs; a ref the cache does not hold is absent from the map. */
  find(profileId: string, kind: ReviewKind, refs: readonly string[]): Map<string, ReviewedRecord> {
    if (kind === 'pending-transaction') {
      const found = this.#pendingWhereReviewed(profileId, refs);
      const rest = refs.filter((ref) => !found.has(ref));
      for (const [ref, record] of this.#pending(profileId, rest)) found.set(ref, record);
      return found;
    }
    if (kind === 'application') return this.#applications(profileId, refs);
    if (kind === 'screening-hit') return this.#screeningHits(profileId, refs);
    return this.#sends(profileId, refs);
  }

  /**
   * The cached records of reviewed items only, found where their reviews say they are: never
   * a walk of a profile's transactions (what a page of the review queue needs, every page).
   */
  findReviewed(
    profileId: string,
    kind: ReviewKind,
    refs: readonly string[],
    onAltered?: (ref: string) => void,
  ): Map<string, ReviewedRecord> {
    if (kind === 'pending-transaction') return this.#pendingWhereReviewed(profileId, refs, onAltered);
    return this.find(profileId, kind, refs);
  }

  /**
   * Reviewed pending transactions: a review (or a rule's flag) keeps its row's account and
   * time, so each is one probe of the time index. The reviews are found by their identity
   * index, one probe per ref: left to itself the planner read every review of the profile
   * (its time index) and filtered by ref, which made each page of the queue's reviewed parts
   * cost a walk of 16,000 reviews in the benchmark.
   */
  #pendingWhereReviewed(
    profileId: string,
    refs: readonly string[],
    onAltered?: (ref: string) => void,
  ): Map<string, ReviewedRecord> {
    if (refs.length === 0) return new Map();
    const rows = this.#statements
      .get(
        `SELECT s.account_id, p.row_key, ${pendingClearColumnsSql('p')}, p.body
         FROM reviews AS r INDEXED BY reviews_identity
         CROSS JOIN pending_transaction_scopes AS s ON s.profile_id = r.profile_id AND s.account_id = r.account_id
         CROSS JOIN pending_transactions AS p INDEXED BY pending_transactions_by_time
           ON p.scope = s.id AND p.posted_at = r.posted_at AND p.row_key = r.ref
         WHERE r.profile_id = ? AND r.kind = 'pending-transaction' AND r.ref IN (SELECT value FROM json_each(?))`,
      )
      .all(profileId, JSON.stringify(refs)) as unknown as PendingLocation[];
    return this.#openPending(profileId, rows, onAltered);
  }

  /**
   * Pending transactions by row key alone. Their rows are keyed by account and time, so one
   * walk of the profile's time index (covering: keys only, no bodies) finds every ref at once,
   * then each body is read through that index.
   */
  #pending(profileId: string, refs: readonly string[]): Map<string, ReviewedRecord> {
    if (refs.length === 0) return new Map();
    const rows = this.#statements
      .get(
        `SELECT s.account_id, p.row_key, ${pendingClearColumnsSql('p')}, p.body
         FROM pending_transaction_scopes AS s
         CROSS JOIN pending_transactions AS p INDEXED BY pending_transactions_by_time ON p.scope = s.id
         WHERE s.profile_id = ? AND p.row_key IN (SELECT value FROM json_each(?))`,
      )
      .all(profileId, JSON.stringify(refs)) as unknown as PendingLocation[];
    return this.#openPending(profileId, rows);
  }

  /**
   * Opens found rows of pending transactions, keyed by row key. A row whose clear columns were
   * changed in the file (pendingColumns.ts) throws RowAltered, unless `onAltered` is given: then
   * it is told and the row left out (the report prints the record as reviewed and is not verified).
   */
  #openPending(
    profileId: string,
    rows: readonly PendingLocation[],
    onAltered?: (ref: string) => void,
  ): Map<string, ReviewedRecord> {
    const found = new Map<string, ReviewedRecord>();
    const sealer = this.#sealer();
    for (const row of rows) {
      let record: unknown;
      try {
        record = openCheckedPending(
          sealer,
          row,
          pendingIdentity(profileId, row.account_id, row.row_key),
          row.account_id,
        );
      } catch (error) {
        if (onAltered === undefined || !(error instanceof RowAltered)) throw error;
        onAltered(row.row_key);
        continue;
      }
      found.set(row.row_key, {
        record,
        digest: row.row_key,
        accountId: row.account_id,
        postedAt: row.posted_at,
      });
    }
    return found;
  }

  #applications(profileId: string, refs: readonly string[]): Map<string, ReviewedRecord> {
    const rows = this.#statements
      .get(
        `SELECT application_id, body_digest, body FROM account_applications
         WHERE profile_id = ? AND application_id IN (SELECT value FROM json_each(?))`,
      )
      .all(profileId, JSON.stringify(refs)) as { application_id: string; body_digest: string; body: Uint8Array }[];
    const sealer = this.#sealer();
    const named = this.#snapshots.applicantsOf(
      profileId,
      rows.map((row) => row.application_id),
    );
    return new Map(
      rows.map((row) => {
        const applicants = named.get(row.application_id);
        const application = sealer.openJson(row.body, applicationIdentity(profileId, row.application_id)) as Record<
          string,
          unknown
        >;
        return [
          row.application_id,
          {
            // With its applicants (masked): a changed address brings the review back (applicationSnapshot.ts).
            record: { ...application, applicants: applicants?.applicants ?? {} },
            digest: this.#snapshots.digestOf(row.body_digest, applicants?.links ?? []),
            accountId: null,
            postedAt: null,
          },
        ];
      }),
    );
  }

  /**
   * Kept screening hits: the record is the applicant (masked) and the entry side by side; the
   * digest is the applicant's and the entry's, so a hit found on either changed differs.
   */
  #screeningHits(profileId: string, refs: readonly string[]): Map<string, ReviewedRecord> {
    const found = new Map<string, ReviewedRecord>();
    for (const [ref, hit] of this.#hits.find(profileId, refs)) {
      found.set(ref, {
        record: hit.record,
        digest: hitDigest(hit.applicantDigest, hit.entryDigest),
        accountId: null,
        postedAt: null,
      });
    }
    return found;
  }

  /** The digests of these applications with their applicants, without opening a sealed body. */
  applicationDigests(profileId: string, applicationDigests: ReadonlyMap<string, string>): Map<string, string> {
    return this.#snapshots.digests(profileId, applicationDigests);
  }

  #sends(profileId: string, refs: readonly string[]): Map<string, ReviewedRecord> {
    const found = new Map<string, ReviewedRecord>();
    const sealer = this.#sealer();
    const sendIds = refs.filter((ref) => notificationOfRef(ref) === null);
    const rows = this.#statements
      .get(
        `SELECT send_id, body_digest, body FROM webhook_sends
         WHERE profile_id = ? AND send_id IN (SELECT value FROM json_each(?))`,
      )
      .all(profileId, JSON.stringify(sendIds)) as { send_id: string; body_digest: string; body: Uint8Array }[];
    for (const row of rows) {
      found.set(row.send_id, {
        record: sealer.openJson(row.body, sendIdentity(profileId, row.send_id)),
        digest: row.body_digest,
        accountId: null,
        postedAt: null,
      });
    }
    for (const ref of refs) {
      const notification = notificationOfRef(ref);
      if (notification === null) continue;
      const attempts = this.#attemptsOf(profileId, notification);
      if (attempts.length === 0) continue;
      found.set(ref, {
        record: {
          webhook_id: notification.webhookId,
          object_id: notification.objectId,
          event: notification.event,
          attempts: attempts.map((attempt) => sealer.openJson(attempt.body, sendIdentity(profileId, attempt.send_id))),
        },
        digest: notificationDigest(sealer, attempts),
        accountId: null,
        postedAt: null,
      });
    }
    return found;
  }

  /**
   * The digests of the notifications of these refs as cached now (a notification no longer
   * cached is absent), without opening a body: what a sync's check compares.
   */
  notificationDigests(profileId: string, refs: readonly string[]): Map<string, string> {
    const sealer = this.#sealer();
    const digests = new Map<string, string>();
    for (const ref of refs) {
      const notification = notificationOfRef(ref);
      if (notification === null) continue;
      const attempts = this.#attemptsOf(profileId, notification);
      if (attempts.length > 0) digests.set(ref, notificationDigest(sealer, attempts));
    }
    return digests;
  }

  /** A notification's attempts, oldest first, through the object index (a handful of rows). */
  #attemptsOf(
    profileId: string,
    notification: { webhookId: string; objectId: string; event: string | null },
  ): { send_id: string; body_digest: string; body: Uint8Array }[] {
    return this.#statements
      .get(
        `SELECT send_id, body_digest, body FROM webhook_sends INDEXED BY webhook_sends_by_object
         WHERE profile_id = ? AND object_id = ? AND webhook_id = ? AND event IS ?
         ORDER BY created_at, attempt_number, send_id`,
      )
      .all(profileId, notification.objectId, notification.webhookId, notification.event) as {
      send_id: string;
      body_digest: string;
      body: Uint8Array;
    }[];
  }
}

/** A keyed digest over every attempt's id and digest: a retry or a changed attempt changes it. */
function notificationDigest(
  sealer: RecordSealer,
  attempts: readonly { send_id: string; body_digest: string }[],
): string {
  return sealer.keyedHash(
    `webhook notification: ${attempts.map((attempt) => `${attempt.send_id}:${attempt.body_digest}`).join(',')}`,
    12,
  );
}
