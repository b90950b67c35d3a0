/**
 * How many cached records each creation day holds (UTC dates), as a previous sync left
 * them: what a new sync cuts its date windows by (sync/windowPlan.ts). One walk of a time
 * index, no row opened.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { DayCount } from '../sync/dateWindows.ts';

export class CreationDays {
  readonly #database: DatabaseSync;

  constructor(database: DatabaseSync) {
    this.#database = database;
  }

  /** An account's pending transactions per day (posted_at is the precise creation time, UTC). */
  ofPendingTransactions(profileId: string, accountId: string): DayCount[] {
    return this.#database
      .prepare(
        `SELECT substr(posted_at, 1, 10) AS date, COUNT(*) AS count FROM pending_transactions
         WHERE scope = (SELECT id FROM pending_transaction_scopes WHERE profile_id = ? AND account_id = ?)
         GROUP BY 1 ORDER BY 1`,
      )
      .all(profileId, accountId) as unknown as DayCount[];
  }

  /** A profile's webhook sends per day (whatever the filters of the sync that kept them). */
  ofWebhookSends(profileId: string): DayCount[] {
    return this.#database
      .prepare(
        `SELECT substr(created_at, 1, 10) AS date, COUNT(*) AS count FROM webhook_sends
         WHERE profile_id = ? GROUP BY 1 ORDER BY 1`,
      )
      .all(profileId) as unknown as DayCount[];
  }
}
