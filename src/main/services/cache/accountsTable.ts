/**
 * The bank's accounts of a profile, as last listed: what names an account wherever a person
 * reads one (its name and the last four digits of its number: the queue, the Overview, the
 * report), offline too. Each account's record is sealed like every cached record; the list is
 * short (a profile's accounts), so reading the names opens a few bodies at most.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { AccountResponse } from '../../../shared/bank/index.ts';
import { lastFourOf, type AccountNaming } from '../../../shared/review/itemNames.ts';
import type { RecordSealer } from './sealing.ts';

function identityOf(profileId: string, accountId: string): string {
  return `account\u0000${profileId}\u0000${accountId}`;
}

export class AccountsTable {
  readonly #database: DatabaseSync;
  readonly #sealer: () => RecordSealer;

  constructor(database: DatabaseSync, sealer: () => RecordSealer) {
    this.#database = database;
    this.#sealer = sealer;
  }

  /** Keeps the accounts as the bank listed them (an account listed again replaces its record). */
  write(profileId: string, accounts: readonly AccountResponse[], fetchedAt: string): void {
    const sealer = this.#sealer();
    const upsert = this.#database.prepare(
      `INSERT INTO accounts (profile_id, account_id, fetched_at, body) VALUES (?, ?, ?, ?)
       ON CONFLICT (profile_id, account_id) DO UPDATE SET fetched_at = excluded.fetched_at, body = excluded.body`,
    );
    for (const account of accounts) {
      if (typeof account.id !== 'string' || account.id === '') continue;
      upsert.run(profileId, account.id, fetchedAt, sealer.sealJson(account, identityOf(profileId, account.id)));
    }
  }

  /** Every cached account of the profile, named; by id. */
  names(profileId: string): Map<string, AccountNaming> {
    const rows = this.#database
      .prepare('SELECT account_id, body FROM accounts WHERE profile_id = ? ORDER BY account_id')
      .all(profileId) as { account_id: string; body: Uint8Array }[];
    const sealer = this.#sealer();
    const names = new Map<string, AccountNaming>();
    for (const row of rows) {
      const account = sealer.openJson(row.body, identityOf(profileId, row.account_id)) as Partial<AccountResponse>;
      names.set(row.account_id, {
        id: row.account_id,
        name: typeof account.name === 'string' && account.name.trim() !== '' ? account.name.trim() : null,
        lastFour: lastFourOf(account.account_number),
      });
    }
    return names;
  }

  /** Whether the cache names this account already. */
  has(profileId: string, accountId: string): boolean {
    return (
      this.#database
        .prepare('SELECT 1 AS found FROM accounts WHERE profile_id = ? AND account_id = ?')
        .get(profileId, accountId) !== undefined
    );
  }
}
