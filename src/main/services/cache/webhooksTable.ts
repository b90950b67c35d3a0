/** Cached webhooks of a profile: the whole list, replaced by each complete sync. */
import type { DatabaseSync } from 'node:sqlite';
import type { WebhookResponse, WebhookStatus } from '../../../shared/bank/index.ts';
import type { CacheRead } from './cacheRead.ts';
import type { RecordSealer } from './sealing.ts';
import { Statements } from './statements.ts';
import { asOfFor, type SyncCheckpoints } from './syncCheckpoints.ts';
import { textKeyOf } from './absentKeys.ts';
import { applyBatches, type WriteBatch } from './writeBatch.ts';

const UPSERT_SQL = `INSERT INTO webhooks (profile_id, webhook_id, event, status, created_at, seen_generation, body)
  VALUES (?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (profile_id, webhook_id) DO UPDATE SET
    event = excluded.event, status = excluded.status, created_at = excluded.created_at,
    seen_generation = excluded.seen_generation, body = excluded.body`;
/** The column of UPSERT_SQL holding the body (sealed by whoever runs the batch). */
const BODY_COLUMN = 6;
const SWEEP_SQL = 'DELETE FROM webhooks WHERE profile_id = ? AND seen_generation < ?';

export interface WebhookQuery {
  profileId: string;
  status?: WebhookStatus;
  event?: string;
}

function identityOf(profileId: string, webhookId: string): string {
  return `webhook\u0000${profileId}\u0000${webhookId}`;
}

export class WebhooksTable {
  readonly #database: DatabaseSync;
  readonly #sealer: () => RecordSealer;
  readonly #checkpoints: SyncCheckpoints;
  readonly #statements: Statements;

  constructor(database: DatabaseSync, sealer: () => RecordSealer, checkpoints: SyncCheckpoints) {
    this.#database = database;
    this.#sealer = sealer;
    this.#checkpoints = checkpoints;
    this.#statements = new Statements(database);
  }

  /** A page of the list as statements for the cache writer, which seals each body (every webhook counts as written). */
  planPage(
    profileId: string,
    webhooks: readonly WebhookResponse[],
    generation: number,
  ): { batches: WriteBatch[]; added: number; keys: Map<string, true> } {
    const sealer = this.#sealer();
    return {
      batches: [
        {
          sql: UPSERT_SQL,
          rows: webhooks.map((webhook) => [
            profileId,
            webhook.id,
            textKeyOf(webhook.event),
            textKeyOf(webhook.status),
            textKeyOf(webhook.created_at),
            generation,
            JSON.stringify(webhook),
          ]),
          sealed: {
            key: sealer.sealingKey,
            column: BODY_COLUMN,
            identities: webhooks.map((webhook) => identityOf(profileId, webhook.id)),
          },
        },
      ],
      added: webhooks.length,
      keys: new Map(webhooks.map((webhook) => [webhook.id, true])),
    };
  }

  /** Keeps webhooks as listed or just written (call inside a transaction for a page). */
  write(profileId: string, webhooks: readonly WebhookResponse[], generation: number): number {
    applyBatches(this.#statements, this.planPage(profileId, webhooks, generation).batches);
    return webhooks.length;
  }

  /** The statement that forgets webhooks the bank no longer has (see sweep). */
  sweepBatch(profileId: string, generation: number): WriteBatch {
    return { sql: SWEEP_SQL, rows: [[profileId, generation]] };
  }

  remove(profileId: string, webhookId: string): void {
    this.#database.prepare('DELETE FROM webhooks WHERE profile_id = ? AND webhook_id = ?').run(profileId, webhookId);
  }

  /** After a complete sync of the list: forget webhooks the bank no longer has. */
  sweep(profileId: string, generation: number): number {
    const [removed] = applyBatches(this.#statements, [this.sweepBatch(profileId, generation)]);
    return removed ?? 0;
  }

  /** The cached status of each webhook asked for that is cached (the clear column: nothing to open). */
  statusesOf(profileId: string, webhookIds: readonly string[]): Map<string, string> {
    const rows = this.#database
      .prepare(
        'SELECT webhook_id, status FROM webhooks WHERE profile_id = ? AND webhook_id IN (SELECT value FROM json_each(?))',
      )
      .all(profileId, JSON.stringify(webhookIds)) as { webhook_id: string; status: string }[];
    return new Map(rows.map((row) => [row.webhook_id, row.status]));
  }

  list(query: WebhookQuery): CacheRead<WebhookResponse> {
    const where = ['profile_id = ?'];
    const parameters = [query.profileId];
    if (query.status !== undefined) {
      where.push('status = ?');
      parameters.push(query.status);
    }
    if (query.event !== undefined) {
      where.push('event = ?');
      parameters.push(query.event);
    }
    const rows = this.#database
      .prepare(
        `SELECT webhook_id, body FROM webhooks WHERE ${where.join(' AND ')} ORDER BY created_at DESC, webhook_id DESC`,
      )
      .all(...parameters) as { webhook_id: string; body: Uint8Array }[];
    const sealer = this.#sealer();
    return {
      rows: rows.map(
        (row) => sealer.openJson(row.body, identityOf(query.profileId, row.webhook_id)) as WebhookResponse,
      ),
      nextCursor: null,
      asOf: asOfFor(this.#checkpoints.completed(query.profileId, 'webhooks'), {}),
      source: 'cache',
      total: rows.length,
    };
  }
}
