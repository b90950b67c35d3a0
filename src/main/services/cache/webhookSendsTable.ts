/**
 * Cached webhook send records (one per delivery attempt), per profile. Filterable by webhook,
 * status, object and event; sorted by time (attempts of the same second by attempt number) or
 * by attempt number; grouped by notification (webhookSendGroups.ts). A send the bank lists
 * again unchanged is left alone (its keyed digest matches), so a re-sync writes only what changed.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { WebhookSendResponse, WebhookSendStatus } from '../../../shared/bank/index.ts';
import { pageLimitOf, type CacheRead } from './cacheRead.ts';
import {
  decodeCursor,
  decodeTie,
  encodeCursor,
  fingerprintOf,
  notOurCursor,
  tieOf,
  wholeNumberOf,
} from './keysetCursor.ts';
import { readDeliveryFigures, type WebhookDeliveryFigures } from './webhookDeliveryStats.ts';
import { readGroupHeads, type GroupPosition } from './webhookSendGroups.ts';
import { webhookSendFilters } from './webhookSendFilters.ts';
import type { WebhookSendGroupQuery, WebhookSendQuery, WebhookSendSort } from './webhookSendQuery.ts';
import type { RecordSealer } from './sealing.ts';
import { Statements } from './statements.ts';
import { applyBatches, type WriteBatch } from './writeBatch.ts';
import { asOfFor, type SyncCheckpoints } from './syncCheckpoints.ts';
import { countKeyOf, textKeyOf } from './absentKeys.ts';

export {
  WEBHOOK_SEND_SORTS,
  type WebhookSendGroupQuery,
  type WebhookSendQuery,
  type WebhookSendSort,
} from './webhookSendQuery.ts';

const UPSERT_SQL = `INSERT INTO webhook_sends
    (profile_id, send_id, webhook_id, object_id, event, status, attempt_number, will_retry, created_at, body_digest, body)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (profile_id, send_id) DO UPDATE SET
    webhook_id = excluded.webhook_id, object_id = excluded.object_id, event = excluded.event,
    status = excluded.status, attempt_number = excluded.attempt_number, will_retry = excluded.will_retry,
    body_digest = excluded.body_digest, body = excluded.body`;

export function identityOf(profileId: string, sendId: string): string {
  return `webhook_send\u0000${profileId}\u0000${sendId}`;
}

/** One notification (event + object of a webhook) and every attempt to deliver it. */
export interface WebhookSendGroup {
  webhookId: string;
  objectId: string;
  event: string | null;
  attempts: number;
  lastStatus: WebhookSendStatus;
  /** Whether the latest attempt says another is scheduled. */
  willRetry: boolean;
  /** The error of the latest attempt, if it failed. */
  lastError: string | null;
  firstAttemptAt: string;
  lastAttemptAt: string;
}

const SORT_SQL: Record<WebhookSendSort, { column: string | null; direction: 'ASC' | 'DESC' }> = {
  newest: { column: null, direction: 'DESC' },
  oldest: { column: null, direction: 'ASC' },
  'highest-attempt': { column: 'attempt_number', direction: 'DESC' },
  'lowest-attempt': { column: 'attempt_number', direction: 'ASC' },
};

export class WebhookSendsTable {
  readonly #sealer: () => RecordSealer;
  readonly #checkpoints: SyncCheckpoints;
  readonly #statements: Statements;
  readonly #digests: StatementSync;

  constructor(database: DatabaseSync, sealer: () => RecordSealer, checkpoints: SyncCheckpoints) {
    this.#sealer = sealer;
    this.#checkpoints = checkpoints;
    this.#statements = new Statements(database);
    // One read per page: the digests of the page's sends already cached.
    this.#digests = database.prepare(
      `SELECT send_id, body_digest FROM webhook_sends
       WHERE profile_id = ? AND send_id IN (SELECT value FROM json_each(?))`,
    );
  }

  /**
   * Plans the write of one page: the sends that are new or changed (their keyed digest
   * differs), sealed, as statements for the cache writer. `seenAt` stands in for created_at
   * when the bank does not send one.
   * @param inFlight digests of sends in pages planned but maybe not yet committed (the newest)
   */
  planPage(
    profileId: string,
    sends: readonly WebhookSendResponse[],
    seenAt: string,
    inFlight: { get(sendId: string): string | undefined } = new Map<string, string>(),
  ): { batches: WriteBatch[]; added: number; digests: Map<string, string> } {
    const sealer = this.#sealer();
    const stored = this.#digests.all(profileId, JSON.stringify(sends.map((send) => send.id))) as {
      send_id: string;
      body_digest: string;
    }[];
    const known = new Map<string, string>();
    for (const send of sends) {
      const digest = inFlight.get(send.id);
      if (digest !== undefined) known.set(send.id, digest);
    }
    for (const row of stored) if (!known.has(row.send_id)) known.set(row.send_id, row.body_digest);
    const digests = new Map<string, string>();
    const rows: SQLInputValue[][] = [];
    for (const send of sends) {
      const text = JSON.stringify(send);
      const digest = sealer.keyedHash(`webhook send: ${text}`, 12);
      digests.set(send.id, digest);
      if (known.get(send.id) === digest) continue;
      known.set(send.id, digest);
      rows.push([
        profileId,
        send.id,
        textKeyOf(send.webhook_id),
        textKeyOf(send.object_id),
        send.event ?? null,
        textKeyOf(send.status),
        countKeyOf(send.attempt_number),
        send.will_retry === true ? 1 : 0,
        send.created_at ?? seenAt,
        digest,
        sealer.seal(text, identityOf(profileId, send.id)),
      ]);
    }
    return { batches: [{ sql: UPSERT_SQL, rows }], added: rows.length, digests };
  }

  /** Writes one page now, inside the caller's transaction. Returns how many were new or changed. */
  writePage(profileId: string, sends: readonly WebhookSendResponse[], seenAt: string): number {
    const plan = this.planPage(profileId, sends, seenAt);
    applyBatches(this.#statements, plan.batches);
    return plan.added;
  }

  list(query: WebhookSendQuery): CacheRead<WebhookSendResponse> {
    const limit = pageLimitOf(query.limit);
    const sortName = query.sort ?? 'newest';
    const sort = SORT_SQL[sortName];
    const direction = sort.direction;
    const comparison = direction === 'DESC' ? '<' : '>';
    const { where, parameters } = webhookSendFilters(query);
    const fingerprint = fingerprintOf(['webhook-sends', this.#filterKey(query), sortName]);
    if (query.cursor !== undefined && query.cursor !== null) {
      const [value, tieBreaker] = decodeCursor(query.cursor, fingerprint);
      if (sort.column === null) {
        // The tie-breaker of a time sort is the attempt number and the send id.
        const [attempt, sendId] = decodeTie(tieBreaker);
        where.push(`(created_at, attempt_number, send_id) ${comparison} (?, ?, ?)`);
        parameters.push(value, wholeNumberOf(attempt), sendId);
      } else {
        // The tie-breaker of an attempt-number sort is the time and the send id.
        const [createdAt, sendId] = decodeTie(tieBreaker);
        where.push(`(${sort.column}, created_at, send_id) ${comparison} (?, ?, ?)`);
        parameters.push(value, createdAt, sendId);
      }
    }
    const order =
      sort.column === null
        ? `created_at ${direction}, attempt_number ${direction}, send_id ${direction}`
        : `${sort.column} ${direction}, created_at ${direction}, send_id ${direction}`;
    const rows = this.#statements
      .get(
        `SELECT send_id, created_at, attempt_number, body FROM webhook_sends WHERE ${where.join(' AND ')}
         ORDER BY ${order} LIMIT ?`,
      )
      .all(...parameters, limit + 1) as {
      send_id: string;
      created_at: string;
      attempt_number: number;
      body: Uint8Array;
    }[];
    const page = rows.slice(0, limit);
    const sealer = this.#sealer();
    const last = page.at(-1);
    let nextCursor: string | null = null;
    if (rows.length > limit && last !== undefined) {
      nextCursor =
        sort.column === null
          ? encodeCursor(fingerprint, last.created_at, tieOf(String(last.attempt_number), last.send_id))
          : encodeCursor(fingerprint, last.attempt_number, tieOf(last.created_at, last.send_id));
    }
    const read: CacheRead<WebhookSendResponse> = {
      rows: page.map(
        (row) => sealer.openJson(row.body, identityOf(query.profileId, row.send_id)) as WebhookSendResponse,
      ),
      nextCursor,
      asOf: this.asOf(query),
      source: 'cache',
    };
    if (query.withTotal === true) read.total = this.count(query);
    return read;
  }

  /**
   * The attempts grouped by notification (webhook, object, event), the most recently
   * attempted first, keyset-paged. Row filters narrow the attempts counted; `willRetry`
   * applies to each group's latest attempt (is the bank still retrying this notification?).
   */
  groups(query: WebhookSendGroupQuery): CacheRead<WebhookSendGroup> {
    const limit = pageLimitOf(query.limit);
    const fingerprint = fingerprintOf(['webhook-send-groups', this.#filterKey(query)]);
    let after: GroupPosition | null = null;
    if (query.cursor !== undefined && query.cursor !== null) {
      const [lastAt, tieBreaker] = decodeCursor(query.cursor, fingerprint);
      const [attempt, sendId] = decodeTie(tieBreaker);
      if (typeof lastAt !== 'string') throw notOurCursor();
      after = [lastAt, wholeNumberOf(attempt), sendId];
    }
    const heads = readGroupHeads(this.#statements, query, limit + 1, after);
    const page = heads.slice(0, limit);
    const last = page.at(-1);
    const bodyOf = this.#statements.get('SELECT body FROM webhook_sends WHERE profile_id = ? AND send_id = ?');
    const sealer = this.#sealer();
    return {
      rows: page.map((head) => {
        let lastError: string | null = null;
        if (head.status === 'error') {
          const found = bodyOf.get(query.profileId, head.sendId) as { body: Uint8Array } | undefined;
          const send =
            found === undefined
              ? null
              : (sealer.openJson(found.body, identityOf(query.profileId, head.sendId)) as WebhookSendResponse);
          lastError = typeof send?.error === 'string' ? send.error : null;
        }
        return {
          webhookId: head.webhookId,
          objectId: head.objectId,
          event: head.event,
          attempts: head.attempts,
          lastStatus: head.status,
          willRetry: head.willRetry,
          lastError,
          firstAttemptAt: head.firstAttemptAt,
          lastAttemptAt: head.lastAttemptAt,
        };
      }),
      nextCursor:
        heads.length > limit && last !== undefined
          ? encodeCursor(fingerprint, last.lastAttemptAt, tieOf(String(last.attemptNumber), last.sendId))
          : null,
      asOf: this.asOf(query),
      source: 'cache',
    };
  }

  count(query: WebhookSendQuery): number {
    const { where, parameters } = webhookSendFilters(query);
    const row = this.#statements
      .get(`SELECT COUNT(*) AS total FROM webhook_sends WHERE ${where.join(' AND ')}`)
      .get(...parameters) as { total: number };
    return row.total;
  }

  /** Per webhook: its latest attempt and its attempts since `since` (webhookDeliveryStats.ts). */
  deliveryFigures(profileId: string, webhookIds: readonly string[], since: string): WebhookDeliveryFigures[] {
    return readDeliveryFigures(this.#statements, profileId, webhookIds, since);
  }

  asOf(query: WebhookSendQuery): string | null {
    return asOfFor(this.#checkpoints.completed(query.profileId, 'webhook-sends'), {
      webhookId: query.webhookId,
      status: query.status,
      objectId: query.objectId,
      event: query.event,
      fromDate: query.fromDate,
      toDate: query.toDate,
    });
  }

  #filterKey(query: WebhookSendQuery): unknown[] {
    return [
      query.profileId,
      query.webhookId ?? null,
      query.status ?? null,
      query.objectId ?? null,
      query.event ?? null,
      query.willRetry ?? null,
      query.search ?? null,
      query.fromDate ?? null,
      query.toDate ?? null,
      query.review ?? null,
      query.notificationReview ?? null,
    ];
  }
}
