/**
 * Cached webhook send records (one per delivery attempt), per profile. Filterable by webhook,
 * status, object and event; sorted by time. A send the bank lists again unchanged is left
 * alone (its keyed digest matches), so a re-sync writes only what changed.
 */
import type { DatabaseSync, SQLInputValue, StatementSync } from 'node:sqlite';
import type { WebhookSend, WebhookSendStatus } from '../../../shared/bank/index.ts';
import { pageLimitOf, type CacheRead } from './cacheRead.ts';
import { decodeCursor, encodeCursor, fingerprintOf } from './keysetCursor.ts';
import type { RecordSealer } from './sealing.ts';
import { Statements } from './statements.ts';
import { applyBatches, type WriteBatch } from './writeBatch.ts';
import { asOfFor, type SyncCheckpoints } from './syncCheckpoints.ts';

export const WEBHOOK_SEND_SORTS = ['newest', 'oldest'] as const;
export type WebhookSendSort = (typeof WEBHOOK_SEND_SORTS)[number];

export interface WebhookSendQuery {
  profileId: string;
  webhookId?: string;
  status?: WebhookSendStatus;
  objectId?: string;
  event?: string;
  /** YYYY-MM-DD, inclusive, on created_at. */
  fromDate?: string;
  /** YYYY-MM-DD, exclusive. */
  toDate?: string;
  sort?: WebhookSendSort;
  limit?: number;
  cursor?: string | null;
  withTotal?: boolean;
}

const UPSERT_SQL = `INSERT INTO webhook_sends
    (profile_id, send_id, webhook_id, object_id, event, status, attempt_number, will_retry, created_at, body_digest, body)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (profile_id, send_id) DO UPDATE SET
    webhook_id = excluded.webhook_id, object_id = excluded.object_id, event = excluded.event,
    status = excluded.status, attempt_number = excluded.attempt_number, will_retry = excluded.will_retry,
    body_digest = excluded.body_digest, body = excluded.body`;

function identityOf(profileId: string, sendId: string): string {
  return `webhook_send\u0000${profileId}\u0000${sendId}`;
}

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
   * @param inFlight digests of sends in a page planned but maybe not yet committed
   */
  planPage(
    profileId: string,
    sends: readonly WebhookSend[],
    seenAt: string,
    inFlight: ReadonlyMap<string, string> = new Map(),
  ): { batches: WriteBatch[]; added: number; digests: Map<string, string> } {
    const sealer = this.#sealer();
    const stored = this.#digests.all(profileId, JSON.stringify(sends.map((send) => send.id))) as {
      send_id: string;
      body_digest: string;
    }[];
    const known = new Map(inFlight);
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
        send.webhook_id,
        send.object_id,
        send.event ?? null,
        send.status,
        send.attempt_number,
        send.will_retry ? 1 : 0,
        send.created_at ?? seenAt,
        digest,
        sealer.seal(text, identityOf(profileId, send.id)),
      ]);
    }
    return { batches: [{ sql: UPSERT_SQL, rows }], added: rows.length, digests };
  }

  /** Writes one page now, inside the caller's transaction. Returns how many were new or changed. */
  writePage(profileId: string, sends: readonly WebhookSend[], seenAt: string): number {
    const plan = this.planPage(profileId, sends, seenAt);
    applyBatches(this.#statements, plan.batches);
    return plan.added;
  }

  list(query: WebhookSendQuery): CacheRead<WebhookSend> {
    const limit = pageLimitOf(query.limit);
    const direction = (query.sort ?? 'newest') === 'newest' ? 'DESC' : 'ASC';
    const { where, parameters } = this.#filters(query);
    const fingerprint = fingerprintOf(['webhook-sends', this.#filterKey(query), direction]);
    if (query.cursor !== undefined && query.cursor !== null) {
      const [createdAt, sendId] = decodeCursor(query.cursor, fingerprint);
      where.push(`(created_at, send_id) ${direction === 'DESC' ? '<' : '>'} (?, ?)`);
      parameters.push(createdAt, sendId);
    }
    const rows = this.#statements
      .get(
        `SELECT send_id, created_at, body FROM webhook_sends WHERE ${where.join(' AND ')}
         ORDER BY created_at ${direction}, send_id ${direction} LIMIT ?`,
      )
      .all(...parameters, limit + 1) as { send_id: string; created_at: string; body: Uint8Array }[];
    const page = rows.slice(0, limit);
    const sealer = this.#sealer();
    const last = page.at(-1);
    const read: CacheRead<WebhookSend> = {
      rows: page.map((row) => sealer.openJson(row.body, identityOf(query.profileId, row.send_id)) as WebhookSend),
      nextCursor:
        rows.length > limit && last !== undefined ? encodeCursor(fingerprint, last.created_at, last.send_id) : null,
      asOf: this.asOf(query),
      source: 'cache',
    };
    if (query.withTotal === true) read.total = this.count(query);
    return read;
  }

  count(query: WebhookSendQuery): number {
    const { where, parameters } = this.#filters(query);
    const row = this.#statements
      .get(`SELECT COUNT(*) AS total FROM webhook_sends WHERE ${where.join(' AND ')}`)
      .get(...parameters) as { total: number };
    return row.total;
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
      query.fromDate ?? null,
      query.toDate ?? null,
    ];
  }

  #filters(query: WebhookSendQuery): { where: string[]; parameters: (string | number | null)[] } {
    const where = ['profile_id = ?'];
    const parameters: (string | number | null)[] = [query.profileId];
    const equal: [string, string | undefined][] = [
      ['webhook_id', query.webhookId],
      ['status', query.status],
      ['object_id', query.objectId],
      ['event', query.event],
    ];
    for (const [column, value] of equal) {
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      parameters.push(value);
    }
    if (query.fromDate !== undefined) {
      where.push('created_at >= ?');
      parameters.push(query.fromDate);
    }
    if (query.toDate !== undefined) {
      where.push('created_at < ?');
      parameters.push(query.toDate);
    }
    return { where, parameters };
  }
}
