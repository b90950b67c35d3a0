/** Cached webhooks of a profile: the whole list, replaced by each complete sync. */
import type { DatabaseSync } from 'node:sqlite';
import type { WebhookResponse, WebhookStatus } from '../../../shared/bank/index.ts';
import type { CacheRead } from './cacheRead.ts';
import type { RecordSealer } from './sealing.ts';
import { asOfFor, type SyncCheckpoints } from './syncCheckpoints.ts';
import { textKeyOf } from './absentKeys.ts';

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

  constructor(database: DatabaseSync, sealer: () => RecordSealer, checkpoints: SyncCheckpoints) {
    this.#database = database;
    this.#sealer = sealer;
    this.#checkpoints = checkpoints;
  }

  /** Keeps webhooks as listed or just written (call inside a transaction for a page). */
  write(profileId: string, webhooks: readonly WebhookResponse[], generation: number): number {
    const sealer = this.#sealer();
    const upsert = this.#database.prepare(
      `INSERT INTO webhooks (profile_id, webhook_id, event, status, created_at, seen_generation, body)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (profile_id, webhook_id) DO UPDATE SET
         event = excluded.event, status = excluded.status, created_at = excluded.created_at,
         seen_generation = excluded.seen_generation, body = excluded.body`,
    );
    for (const webhook of webhooks) {
      upsert.run(
        profileId,
        webhook.id,
        textKeyOf(webhook.event),
        textKeyOf(webhook.status),
        textKeyOf(webhook.created_at),
        generation,
        sealer.sealJson(webhook, identityOf(profileId, webhook.id)),
      );
    }
    return webhooks.length;
  }

  remove(profileId: string, webhookId: string): void {
    this.#database.prepare('DELETE FROM webhooks WHERE profile_id = ? AND webhook_id = ?').run(profileId, webhookId);
  }

  /** After a complete sync of the list: forget webhooks the bank no longer has. */
  sweep(profileId: string, generation: number): number {
    return Number(
      this.#database
        .prepare('DELETE FROM webhooks WHERE profile_id = ? AND seen_generation < ?')
        .run(profileId, generation).changes,
    );
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
