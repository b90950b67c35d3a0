/**
 * Authenticating the clear columns of a row (the security review of 3b75e6a, N2). Some columns
 * stay in clear so SQL can filter, count and join on them (a review's state, version, rule), but
 * nothing read from them may decide anything unless it is authentic: each row of the tables
 * below carries `row_mac`, a MAC under a key derived from the data key (sealing.ts, `rowMac`)
 * over the table's name and every clear column the app reads, a sealed body counting by its GCM
 * tag (which authenticates the body). Someone who can write the file but not read the keychain
 * cannot make a MAC that matches: a changed state, rule, version or time, or a body swapped
 * for an older one, is found when the row is read and by `audit verify`.
 *
 * The same MAC is a SQL function (`ledgerdesk_row_mac`), so a write that inserts rows straight
 * from a SELECT (a watch rule's flags) authenticates them in the same statement, and a scan of
 * every row needs no round trip per row.
 *
 * A table that adds a clear column the app reads must add it here: the list is the contract.
 * Columns left out are listed, with why, in docs/security.md.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { AuditChainProblem } from '../audit/auditVerify.ts';
import { CACHE_FILE_WORDS, recordFileWords } from '../record/recordWhere.ts';
import type { RecordSealer } from './sealing.ts';

/** Per table, the columns its MAC covers, in order. */
export const AUTHENTICATED_COLUMNS = {
  reviews: [
    'profile_id',
    'kind',
    'ref',
    'account_id',
    'posted_at',
    'state',
    'rule_name',
    'record_digest',
    'version',
    'updated_at',
    'body',
  ],
  review_history: ['profile_id', 'kind', 'ref', 'version', 'at', 'state', 'rule_name', 'body'],
  watch_rules: ['profile_id', 'name', 'kind', 'created_at', 'body'],
} as const;

export type AuthenticatedTable = keyof typeof AUTHENTICATED_COLUMNS;

const AUTHENTICATED_TABLES = Object.keys(AUTHENTICATED_COLUMNS) as AuthenticatedTable[];

/** The SQL function's name, registered on the app's connection. */
export const ROW_MAC_FUNCTION = 'ledgerdesk_row_mac';

/** Set in cache_meta once every row of the tables above has its MAC (after the upgrade). */
const AUTHENTICATED_MARK = 'row_macs';

type Value = string | number | bigint | null | Uint8Array;

/** GCM's tag in a sealed body (sealing.ts: version, IV, tag, ciphertext). */
const TAG_START = 13;
const TAG_END = 29;

/** The row's canonical text: JSON of the table and its values (unambiguous), a sealed body by its tag. */
function canonical(table: string, values: readonly Value[]): string {
  return JSON.stringify([
    table,
    ...values.map((value) => {
      if (value instanceof Uint8Array) {
        return {
          tag: Buffer.from(value.buffer, value.byteOffset, value.byteLength)
            .subarray(TAG_START, TAG_END)
            .toString('base64'),
        };
      }
      return typeof value === 'bigint' ? Number(value) : value;
    }),
  ]);
}

/** A row whose clear columns do not match their MAC: changed outside Ledgerdesk. */
export class RowAltered extends Error {
  readonly code = 'storage_error';
  readonly action: string;
  /** `where`: the file that holds the row, as a person reads it (record/recordWhere.ts). */
  constructor(what: string, where: string = CACHE_FILE_WORDS) {
    super(`${what} was changed in ${where} outside Ledgerdesk (it no longer matches its seal), so it is not shown.`);
    this.name = 'RowAltered';
    this.action = `Run \`ledger audit verify\` to list every altered row; restore ${where} from a trusted copy.`;
  }
}

export class RowMacs {
  readonly #sealer: () => RecordSealer;
  readonly #where: () => string;
  /** Benchmark only: see offForBenchmark. */
  #off = false;

  /** `where`: the file that holds the record's rows, for the sentence of an altered one. */
  constructor(sealer: () => RecordSealer, where: () => string = () => CACHE_FILE_WORDS) {
    this.#sealer = sealer;
    this.#where = where;
  }

  /**
   * The baseline of what authenticating rows costs (tests/bench/review.bench.ts, the only
   * caller): while on, no MAC is made (writes store '') and every row is taken as authentic.
   * Rows written meanwhile fail their check afterwards, so the app never calls this.
   */
  offForBenchmark(off: boolean): void {
    this.#off = off;
  }

  /** The MAC of a row of `table`, its values in AUTHENTICATED_COLUMNS order. */
  of(table: AuthenticatedTable, values: readonly Value[]): string {
    if (this.#off) return '';
    return this.#sealer().rowMac(canonical(table, values));
  }

  /** Whether a row read with its MAC is authentic (`row` holds the table's columns by name). */
  holds(table: AuthenticatedTable, row: object): boolean {
    if (this.#off) return true;
    const columns = row as Readonly<Record<string, unknown>>;
    const mac = columns['row_mac'];
    if (typeof mac !== 'string') return false;
    return (
      mac ===
      this.of(
        table,
        AUTHENTICATED_COLUMNS[table].map((column) => columns[column] as Value),
      )
    );
  }

  /** Throws RowAltered naming `what` unless the row is authentic. */
  check(table: AuthenticatedTable, row: object, what: () => string): void {
    if (!this.holds(table, row)) throw new RowAltered(what(), this.#where());
  }

  /**
   * Registers the SQL function on the app's connection and, once per file, gives every row
   * written before rows were authenticated its MAC (what was changed in them before this
   * moment cannot be detected; docs/security.md).
   */
  install(database: DatabaseSync, upgrade = true): void {
    database.function(ROW_MAC_FUNCTION, { varargs: true, deterministic: true }, (...args) => {
      const [table, ...values] = args as [string, ...Value[]];
      return this.#sealer().rowMac(canonical(table, values));
    });
    // Moved into the record (record/recordCopy.ts), the rows were upgraded in the cache before.
    if (!upgrade) return;
    const mark = database.prepare('SELECT value FROM cache_meta WHERE key = ?').get(AUTHENTICATED_MARK);
    if (mark !== undefined) return;
    database.exec('BEGIN IMMEDIATE');
    try {
      for (const table of AUTHENTICATED_TABLES) {
        database.exec(`UPDATE ${table} SET row_mac = ${rowMacSql(table)} WHERE row_mac IS NULL`);
      }
      database.prepare('INSERT INTO cache_meta (key, value) VALUES (?, ?)').run(AUTHENTICATED_MARK, '1');
      database.exec('COMMIT');
    } catch (error) {
      if (database.isTransaction) database.exec('ROLLBACK');
      throw error;
    }
  }
}

/** The MAC of a row as a SQL expression over its columns (`alias.` before each when given; `replaced` columns by an expression). */
export function rowMacSql(
  table: AuthenticatedTable,
  alias = '',
  replaced: Readonly<Record<string, string>> = {},
): string {
  const prefix = alias === '' ? '' : `${alias}.`;
  const columns = AUTHENTICATED_COLUMNS[table].map((column) => replaced[column] ?? prefix + column);
  return `${ROW_MAC_FUNCTION}('${table}', ${columns.join(', ')})`;
}

/** The rows of `table` whose MAC does not match (the first `limit`), and how many there are: one pass. */
function alteredRows(
  database: DatabaseSync,
  table: AuthenticatedTable,
  limit = 5,
): { count: number; first: Record<string, unknown>[] } {
  const columns = AUTHENTICATED_COLUMNS[table].filter((column) => column !== 'body').join(', ');
  const rows = database
    .prepare(`SELECT ${columns} FROM ${table} WHERE row_mac IS NULL OR row_mac != ${rowMacSql(table)}`)
    .iterate() as Iterable<Record<string, unknown>>;
  let count = 0;
  const first: Record<string, unknown>[] = [];
  for (const row of rows) {
    count += 1;
    if (first.length < limit) first.push(row);
  }
  return { count, first };
}

/** What a row names, in a sentence. */
function rowName(table: AuthenticatedTable, row: Record<string, unknown>): string {
  const text = (value: unknown): string => (typeof value === 'string' ? value : String(value));
  if (table === 'watch_rules') return `the watch rule of profile ${text(row['profile_id'])}`;
  const step = table === 'review_history' ? `step ${text(row['version'])} of ` : '';
  return `${step}the review of ${text(row['kind'])} ${text(row['ref'])} (profile ${text(row['profile_id'])}, state ${text(row['state'])})`;
}

/**
 * The check `audit verify` runs over every authenticated row (AuditLog.addCheck): the first
 * rows whose clear columns do not match their MAC, and how many there are.
 */
export function alteredRowsProblem(database: DatabaseSync): AuditChainProblem | null {
  const found: string[] = [];
  let total = 0;
  for (const table of AUTHENTICATED_TABLES) {
    const { count, first } = alteredRows(database, table);
    total += count;
    found.push(...first.map((row) => rowName(table, row)));
  }
  if (total === 0) return null;
  const shown = found.slice(0, 5).join('; ');
  return {
    kind: 'review-altered',
    entryId: 0,
    entry: null,
    message: `The audit log does not verify: ${String(total)} ${total === 1 ? 'row' : 'rows'} of reviews or watch rules ${total === 1 ? 'was' : 'were'} changed in ${recordFileWords(database)} outside Ledgerdesk (${shown}${total > 5 ? '; …' : ''}); their state, rule, version or time no longer match their seal.`,
  };
}
