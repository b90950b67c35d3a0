/**
 * The chain's head, also kept in the keychain (the "anchor"): the last entry's id and MAC and
 * the number of entries. The chain alone cannot show that its last entries were deleted (what
 * remains is still a valid chain); someone who can write the database file but not the keychain
 * cannot move the anchor back, so a deleted tail, or a whole log swapped for an older copy, no
 * longer matches it.
 *
 * The anchor follows the log after each append, a keychain write at a time (appends in between
 * are folded into the next write), and only ever forward: it moves only when the entry it named
 * is still in the log with the same MAC, so a log that contradicts it keeps contradicting it.
 * Appends made since the last write (a crash in between) are not covered: see docs/decisions/16-audit-hash-chain.md.
 */
import type { DatabaseSync } from 'node:sqlite';
import { macText } from './auditChain.ts';

/** How often to look again while a transaction is open on the connection (not a busy loop). */
const TRANSACTION_POLL_MS = 5;

export interface AuditAnchor {
  /** The number of entries the log held. */
  entries: number;
  /** The id of its last entry. */
  id: number;
  /** That entry's MAC, as hex. */
  mac: string;
}

/** Where the anchor is kept: the keychain in the app (Credentials), per cache file. */
export interface AnchorStore {
  read(): Promise<string | null>;
  write(text: string): Promise<void>;
}

function anchorText(anchor: AuditAnchor): string {
  return JSON.stringify({ v: 1, entries: anchor.entries, id: anchor.id, mac: anchor.mac });
}

/** The anchor in `text`, or null when there is none or it is not one this version wrote. */
export function parseAnchor(text: string | null): AuditAnchor | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Record<string, unknown>;
    const { entries, id, mac } = value;
    if (
      value['v'] === 1 &&
      Number.isSafeInteger(entries) &&
      Number.isSafeInteger(id) &&
      typeof mac === 'string' &&
      /^[0-9a-f]{64}$/.test(mac)
    ) {
      return { entries: entries as number, id: id as number, mac };
    }
  } catch {
    // Not JSON: treated as no anchor, which verify reports.
  }
  return null;
}

export class AnchorKeeper {
  readonly #database: DatabaseSync;
  readonly #store: AnchorStore;
  #running: Promise<void> | null = null;
  #wanted = false;
  #stopped = false;
  #problem: string | null = null;

  constructor(database: DatabaseSync, store: AnchorStore) {
    this.#database = database;
    this.#store = store;
  }

  /** Why the last keychain write failed, if it did (cleared by the next one that succeeds). */
  get problem(): string | null {
    return this.#problem;
  }

  async read(): Promise<AuditAnchor | null> {
    return parseAnchor(await this.#store.read());
  }

  /** Brings the anchor up to the log's head, soon; appends in the meantime share one write. */
  follow(): void {
    if (this.#stopped) return;
    this.#wanted = true;
    this.#running ??= this.#run().finally(() => {
      this.#running = null;
    });
  }

  /** Resolves when every requested write is done (or has failed and said why). */
  async settled(): Promise<void> {
    while (this.#running !== null) await this.#running;
  }

  /** No more writes after this (the database is closing). */
  async stop(): Promise<void> {
    await this.settled();
    this.#stopped = true;
  }

  async #run(): Promise<void> {
    while (this.#wanted && !this.#stopped) {
      this.#wanted = false;
      // A transaction open on this connection may still roll back: wait until it is over, so
      // the anchor never names an entry that is not committed.
      if (this.#database.isTransaction) {
        await new Promise((resolve) => setTimeout(resolve, TRANSACTION_POLL_MS));
        this.#wanted = true;
        continue;
      }
      try {
        await this.#advance();
        this.#problem = null;
      } catch (error) {
        this.#problem = `The audit log's head could not be written to the keychain: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
  }

  async #advance(): Promise<void> {
    const last = this.#database.prepare('SELECT id, mac FROM audit_log ORDER BY id DESC LIMIT 1').get() as
      { id: number; mac: Uint8Array | null } | undefined;
    if (last === undefined || last.mac === null) return;
    const head = macText(last.mac);
    const current = await this.read();
    if (current !== null) {
      if (current.id > last.id) return; // The log lost its tail: keep the evidence.
      const named = this.#database.prepare('SELECT mac FROM audit_log WHERE id = ?').get(current.id) as
        { mac: Uint8Array | null } | undefined;
      if (named === undefined || named.mac === null || macText(named.mac) !== current.mac) return;
      if (current.id === last.id) return;
    }
    const { entries } = this.#database.prepare('SELECT count(*) AS entries FROM audit_log').get() as {
      entries: number;
    };
    await this.#store.write(anchorText({ entries, id: last.id, mac: head }));
  }
}
