/**
 * The listener's memory: every request it received, written before the request is
 * answered, plus what forwarding, replaying and hydrating it produced. Retention (age,
 * count, bytes) is the user's to set; the oldest requests go first.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { RowAltered } from '../cache/rowMacs.ts';
import type { Verdict } from './basicAuth.ts';
import type {
  Delivery,
  ObjectGroup,
  ReceivedRequest,
  ReceivedRequestSummary,
  RequestFilter,
  RequestOutcome,
} from './receivedRequest.ts';

/**
 * Seals values at rest: in the app, the cache's sealer (AES-256-GCM under the keychain's data
 * key, the identity as associated data, so a sealed value moved to another row or column does
 * not open). The standalone listener has no data key and keeps its own file in clear.
 */
export interface ListenerSealer {
  seal(plaintext: string | Buffer, identity: string): Buffer;
  open(sealed: Uint8Array, identity: string): Buffer;
}

/** Columns sealed when a sealer is given; the rest (time, verdict, event, object id, status, path…) stay in clear to filter and sort on. */
type SealedRequestColumn = 'headers' | 'body' | 'query' | 'notification' | 'snapshot';

export interface Retention {
  /** Requests older than this many days are deleted. */
  maxAgeDays: number;
  maxRequests: number;
  /** Bytes of headers, bodies and snapshots kept, summed over requests. */
  maxBytes: number;
}

/** One arrival, ready to keep. Headers are already redacted and the body already capped. */
/** An exchange that is over: what it came to, and how long from arrival to the answer written. */
export interface FinishedRequest {
  id: number;
  outcome: RequestOutcome;
  status: number | null;
  durationMs: number;
}

export interface ArrivalRecord {
  receivedAt: number;
  method: string;
  path: string;
  query: string | null;
  remoteAddress: string | null;
  headers: [string, string][];
  body: Buffer | null;
  bodyBytes: number;
  declaredBytes: number | null;
  bodyTruncated: boolean;
  bodyProblem: string | null;
  notification: string | null;
  event: string | null;
  objectId: string | null;
  op: string | null;
  verdict: Verdict;
  presentedUser: string | null;
  outcome: RequestOutcome;
  status: number | null;
  ruleId: string | null;
  durationMs: number;
  occurrence: number;
  outOfOrder: boolean;
}

interface RequestRow {
  id: number;
  received_at: number;
  method: string;
  path: string;
  query: string | Uint8Array | null;
  remote_address: string | null;
  headers: string | Uint8Array;
  body: Uint8Array | null;
  body_sealed: number;
  body_bytes: number;
  declared_bytes: number | null;
  body_truncated: number;
  body_problem: string | null;
  notification: string | Uint8Array | null;
  event: string | null;
  object_id: string | null;
  op: string | null;
  verdict: Verdict;
  presented_user: string | null;
  outcome: RequestOutcome;
  status: number | null;
  rule_id: string | null;
  duration_ms: number;
  occurrence: number;
  out_of_order: number;
  snapshot: string | Uint8Array | null;
  snapshot_at: number | null;
  snapshot_error: string | null;
}

/** The clear columns of a request bound to its sealed headers. */
type BoundColumns = Pick<RequestRow, 'verdict' | 'presented_user' | 'event' | 'object_id' | 'op'>;

interface DeliveryRow {
  id: number;
  request_id: number;
  kind: 'forward' | 'replay';
  url: string;
  started_at: number;
  status: number | null;
  duration_ms: number | null;
  excerpt: string | Uint8Array | null;
  error: string | null;
}

const SUMMARY_COLUMNS = `id, received_at, method, path, event, object_id, op, verdict, presented_user, body_problem,
  outcome, status, rule_id, duration_ms, occurrence, out_of_order, body_bytes, body_truncated`;
const LIST_LIMIT_DEFAULT = 100;
const LIST_LIMIT_MAX = 1000;
/** Rough per-row overhead of SQLite pages and indexes, so many empty requests still count. */
const ROW_OVERHEAD_BYTES = 200;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isoOf(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

function summaryOf(row: RequestRow): ReceivedRequestSummary {
  return {
    id: row.id,
    receivedAt: isoOf(row.received_at),
    method: row.method,
    path: row.path,
    verdict: row.verdict,
    presentedUser: row.presented_user,
    event: row.event,
    objectId: row.object_id,
    op: row.op,
    bodyProblem: row.body_problem,
    outcome: row.outcome,
    status: row.status,
    ruleId: row.rule_id,
    durationMs: row.duration_ms,
    occurrence: row.occurrence,
    duplicate: row.occurrence > 1,
    outOfOrder: row.out_of_order === 1,
    bodyBytes: row.body_bytes,
    bodyTruncated: row.body_truncated === 1,
  };
}

/** A request row with its sealed columns opened. */
type OpenedRequestRow = RequestRow & {
  query: string | null;
  headers: string;
  notification: string | null;
  snapshot: string | null;
};

function requestOf(row: OpenedRequestRow): ReceivedRequest {
  let bodyText: string | null = null;
  let bodyBase64: string | null = null;
  if (row.body !== null) {
    try {
      bodyText = strictUtf8.decode(row.body);
    } catch {
      bodyBase64 = Buffer.from(row.body).toString('base64');
    }
  }
  return {
    ...summaryOf(row),
    query: row.query,
    remoteAddress: row.remote_address,
    headers: JSON.parse(row.headers) as [string, string][],
    bodyText,
    bodyBase64,
    declaredBytes: row.declared_bytes,
    notification: row.notification === null ? null : (JSON.parse(row.notification) as ReceivedRequest['notification']),
    snapshot: row.snapshot === null ? null : (JSON.parse(row.snapshot) as unknown),
    snapshotAt: row.snapshot_at === null ? null : isoOf(row.snapshot_at),
    snapshotError: row.snapshot_error,
  };
}

function deliveryOf(row: DeliveryRow & { excerpt: string | null }): Delivery {
  return {
    id: row.id,
    requestId: row.request_id,
    kind: row.kind,
    url: row.url,
    startedAt: isoOf(row.started_at),
    status: row.status,
    durationMs: row.duration_ms,
    excerpt: row.excerpt,
    error: row.error,
  };
}

export class RequestLog {
  readonly #database: DatabaseSync;
  readonly #listenerId: string;
  readonly #sealer: ListenerSealer | null;
  readonly #nextRequestId: StatementSync;
  #retention: Retention;
  #count: number;
  #bytes: number;
  readonly #insert: StatementSync;
  readonly #finish: StatementSync;
  /** Prepared once: preparing costs more than running these small statements. */
  readonly #statements = new Map<string, StatementSync>();

  constructor(database: DatabaseSync, listenerId: string, retention: Retention, sealer: ListenerSealer | null = null) {
    this.#database = database;
    this.#listenerId = listenerId;
    this.#sealer = sealer;
    // A sealed value's identity names its row, so the id is chosen before the insert:
    // AUTOINCREMENT's counter + 1 (ids are never reused), inside the same savepoint.
    this.#nextRequestId = database.prepare(
      `SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'listener_requests'), 0),
         COALESCE((SELECT MAX(id) FROM listener_requests), 0)) + 1 AS id`,
    );
    this.#retention = retention;
    const totals = database
      .prepare(
        'SELECT COUNT(*) AS count, COALESCE(SUM(stored_bytes), 0) AS bytes FROM listener_requests WHERE listener_id = ?',
      )
      .get(listenerId) as { count: number; bytes: number };
    this.#count = totals.count;
    this.#bytes = totals.bytes;
    this.#insert = database.prepare(`INSERT INTO listener_requests (id, listener_id, received_at, method, path, query,
      remote_address, headers, body, body_bytes, declared_bytes, body_truncated, body_problem, notification, event,
      object_id, op, verdict, presented_user, outcome, status, rule_id, duration_ms, occurrence, out_of_order,
      stored_bytes, body_sealed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.#finish = database.prepare(
      'UPDATE listener_requests SET outcome = ?, status = ?, duration_ms = ? WHERE id = ? AND listener_id = ?',
    );
  }

  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.#database.prepare(sql);
      // Filters make a handful of shapes; bound it anyway.
      if (this.#statements.size < 200) this.#statements.set(sql, statement);
    }
    return statement;
  }

  get totals(): { requests: number; bytes: number } {
    return { requests: this.#count, bytes: this.#bytes };
  }

  get retention(): Retention {
    return this.#retention;
  }

  setRetention(retention: Retention, now = Date.now()): void {
    this.#retention = retention;
    this.prune(now);
  }

  /** Keep one arrival; returns its id. Synchronous, so the caller answers only after it is written. */
  insert(record: ArrivalRecord): number {
    return this.insertMany([record])[0] as number;
  }

  /**
   * Keep several arrivals in one transaction (one write to the WAL instead of one per
   * request); returns their ids in order. All or none: on failure nothing is kept and the
   * caller answers each sender with an error. A savepoint, so it nests inside a transaction
   * another service of the shared database may have open.
   */
  insertMany(records: readonly ArrivalRecord[]): number[] {
    const ids: number[] = [];
    let count = this.#count;
    let bytes = this.#bytes;
    this.#database.exec('SAVEPOINT listener_arrivals');
    try {
      const sealer = this.#sealer;
      let nextId = sealer === null ? null : (this.#nextRequestId.get() as { id: number }).id;
      for (const record of records) {
        const id = nextId;
        if (nextId !== null) nextId += 1;
        const sealed = <Value extends string | Buffer | null>(column: SealedRequestColumn, value: Value) =>
          sealer === null || id === null || value === null ? value : sealer.seal(value, this.#identity(id, column));
        const headers = JSON.stringify(record.headers);
        // The headers carry the columns that decide (the verdict above all) as associated data.
        const sealedHeaders =
          sealer === null || id === null
            ? headers
            : sealer.seal(
                headers,
                this.#boundIdentity(id, {
                  verdict: record.verdict,
                  presented_user: record.presentedUser,
                  event: record.event,
                  object_id: record.objectId,
                  op: record.op,
                }),
              );
        const storedBytes =
          ROW_OVERHEAD_BYTES +
          headers.length +
          (record.body?.length ?? 0) +
          (record.notification?.length ?? 0) +
          record.path.length +
          (record.query?.length ?? 0);
        const result = this.#insert.run(
          id,
          this.#listenerId,
          record.receivedAt,
          record.method,
          record.path,
          sealed('query', record.query),
          record.remoteAddress,
          sealedHeaders,
          sealed('body', record.body),
          record.bodyBytes,
          record.declaredBytes,
          record.bodyTruncated ? 1 : 0,
          record.bodyProblem,
          sealed('notification', record.notification),
          record.event,
          record.objectId,
          record.op,
          record.verdict,
          record.presentedUser,
          record.outcome,
          record.status,
          record.ruleId,
          record.durationMs,
          record.occurrence,
          record.outOfOrder ? 1 : 0,
          storedBytes,
          sealer === null || record.body === null ? 0 : 1,
        );
        ids.push(Number(result.lastInsertRowid));
        count += 1;
        bytes += storedBytes;
      }
      this.#database.exec('RELEASE listener_arrivals');
    } catch (error) {
      this.#database.exec('ROLLBACK TO listener_arrivals');
      this.#database.exec('RELEASE listener_arrivals');
      throw error;
    }
    this.#count = count;
    this.#bytes = bytes;
    const last = records[records.length - 1];
    if (last !== undefined && this.#overCaps()) this.prune(last.receivedAt);
    return ids;
  }

  /** Several exchanges' final outcome, status and duration (from arrival to the answer written), in one transaction. */
  finishMany(finished: readonly FinishedRequest[]): void {
    this.#database.exec('SAVEPOINT listener_finished');
    try {
      for (const one of finished) this.#finish.run(one.outcome, one.status, one.durationMs, one.id, this.#listenerId);
      this.#database.exec('RELEASE listener_finished');
    } catch (error) {
      this.#database.exec('ROLLBACK TO listener_finished');
      this.#database.exec('RELEASE listener_finished');
      throw error;
    }
  }

  recordSnapshot(id: number, fetchedAt: number, snapshot: string | null, error: string | null): void {
    this.#statement(
      `UPDATE listener_requests SET snapshot = ?, snapshot_at = ?, snapshot_error = ?,
         stored_bytes = stored_bytes + ? WHERE id = ? AND listener_id = ?`,
    ).run(
      snapshot === null || this.#sealer === null
        ? snapshot
        : this.#sealer.seal(snapshot, this.#identity(id, 'snapshot')),
      fetchedAt,
      error,
      snapshot?.length ?? 0,
      id,
      this.#listenerId,
    );
    this.#bytes += snapshot?.length ?? 0;
  }

  recordDelivery(delivery: Omit<Delivery, 'id' | 'startedAt'> & { startedAt: number }): Delivery {
    const sealer = this.#sealer;
    // The excerpt is sealed under its delivery's id: chosen first (AUTOINCREMENT's counter + 1).
    const id =
      sealer === null || delivery.excerpt === null
        ? null
        : (
            this.#statement(
              `SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'listener_deliveries'), 0),
                 COALESCE((SELECT MAX(id) FROM listener_deliveries), 0)) + 1 AS id`,
            ).get() as { id: number }
          ).id;
    const excerpt =
      sealer === null || id === null || delivery.excerpt === null
        ? delivery.excerpt
        : sealer.seal(delivery.excerpt, this.#deliveryIdentity(id));
    const result = this.#statement(
      `INSERT INTO listener_deliveries (id, listener_id, request_id, kind, url, started_at, status, duration_ms, excerpt, error)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      id,
      this.#listenerId,
      delivery.requestId,
      delivery.kind,
      delivery.url,
      delivery.startedAt,
      delivery.status,
      delivery.durationMs,
      excerpt,
      delivery.error,
    );
    return { ...delivery, id: Number(result.lastInsertRowid), startedAt: isoOf(delivery.startedAt) };
  }

  deliveriesOf(requestId: number): Delivery[] {
    const rows = this.#statement(
      'SELECT * FROM listener_deliveries WHERE listener_id = ? AND request_id = ? ORDER BY id',
    ).all(this.#listenerId, requestId) as unknown as DeliveryRow[];
    return rows.map((row) =>
      deliveryOf({ ...row, excerpt: this.#textOf(row.excerpt, () => this.#deliveryIdentity(row.id)) }),
    );
  }

  get(id: number): ReceivedRequest | null {
    const row = this.#statement('SELECT * FROM listener_requests WHERE id = ? AND listener_id = ?').get(
      id,
      this.#listenerId,
    ) as RequestRow | undefined;
    return row === undefined ? null : requestOf(this.#opened(row));
  }

  list(filter: RequestFilter = {}): ReceivedRequestSummary[] {
    const { where, parameters, limit } = this.#where(filter);
    const rows = this.#statement(
      `SELECT ${SUMMARY_COLUMNS} FROM listener_requests WHERE ${where} ORDER BY id DESC LIMIT ?`,
    ).all(...parameters, limit) as unknown as RequestRow[];
    return rows.map(summaryOf);
  }

  /** Whole requests matching a filter, oldest first (the order they were received in), for replay and export. */
  *iterate(filter: RequestFilter = {}): Generator<ReceivedRequest> {
    const { where, parameters } = this.#where(filter);
    const limit = Math.min(filter.limit ?? Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    // A statement of its own: a cached one would be reset by the next use while this iterates.
    const statement = this.#database.prepare(`SELECT * FROM listener_requests WHERE ${where} ORDER BY id ASC LIMIT ?`);
    for (const row of statement.iterate(...parameters, limit))
      yield requestOf(this.#opened(row as unknown as RequestRow));
  }

  /**
   * Summaries matching a filter, oldest first, without the page limit (for reconciliation,
   * which decides on the verdict: each request's bound columns are checked first, and one
   * changed in the file is refused with RowAltered).
   */
  *iterateSummaries(filter: RequestFilter = {}): Generator<ReceivedRequestSummary> {
    const { where, parameters } = this.#where(filter);
    const statement = this.#database.prepare(
      `SELECT ${SUMMARY_COLUMNS}, headers FROM listener_requests WHERE ${where} ORDER BY id ASC`,
    );
    for (const row of statement.iterate(...parameters)) {
      const request = row as unknown as RequestRow;
      this.#headersOf(request);
      yield summaryOf(request);
    }
  }

  count(filter: RequestFilter = {}): number {
    const { where, parameters } = this.#where(filter);
    const row = this.#statement(`SELECT COUNT(*) AS count FROM listener_requests WHERE ${where}`).get(
      ...parameters,
    ) as {
      count: number;
    };
    return row.count;
  }

  groups(limit = LIST_LIMIT_DEFAULT): ObjectGroup[] {
    const rows = this.#statement(
      `SELECT object_id, GROUP_CONCAT(DISTINCT event) AS events, COUNT(*) AS requests,
           SUM(occurrence > 1) AS duplicates, SUM(out_of_order) AS out_of_order,
           MIN(received_at) AS first_at, MAX(received_at) AS last_at, MAX(id) AS last_id
         FROM listener_requests WHERE listener_id = ? AND object_id IS NOT NULL
         GROUP BY object_id ORDER BY last_id DESC LIMIT ?`,
    ).all(this.#listenerId, Math.min(Math.max(1, limit), LIST_LIMIT_MAX)) as {
      object_id: string;
      events: string | null;
      requests: number;
      duplicates: number;
      out_of_order: number;
      first_at: number;
      last_at: number;
      last_id: number;
    }[];
    return rows.map((row) => ({
      objectId: row.object_id,
      events: row.events === null ? [] : row.events.split(',').sort(),
      requests: row.requests,
      duplicates: row.duplicates,
      outOfOrder: row.out_of_order,
      firstAt: isoOf(row.first_at),
      lastAt: isoOf(row.last_at),
      lastRequestId: row.last_id,
    }));
  }

  /** Per event of one object: how many arrivals, and the latest operation seen (for ordering checks). */
  historyOf(objectId: string): { event: string | null; op: string | null; arrivals: number }[] {
    return this.#statement(
      `SELECT event, op, COUNT(*) AS arrivals FROM listener_requests
         WHERE listener_id = ? AND object_id = ? GROUP BY event, op`,
    ).all(this.#listenerId, objectId) as { event: string | null; op: string | null; arrivals: number }[];
  }

  #identity(id: number, column: SealedRequestColumn): string {
    return `listener_request\u0000${this.#listenerId}\u0000${String(id)}\u0000${column}`;
  }

  /**
   * The identity the headers are sealed under since the verdict was bound to them (issue 23,
   * item 2): the row's own, plus the clear columns that decide something. The verdict decides
   * whether a request counts as received in reconciliation and whether a replay to the listener
   * carries its expected credentials; the user, event, object and operation say what arrived.
   * One of them changed in the file, the headers no longer open, and the request is refused
   * where it would decide something (opened, replayed, exported, reconciled).
   */
  #boundIdentity(id: number, columns: BoundColumns): string {
    return `${this.#identity(id, 'headers')}\u0000bound-v1\u0000${JSON.stringify([
      columns.verdict,
      columns.presented_user,
      columns.event,
      columns.object_id,
      columns.op,
    ])}`;
  }

  /**
   * The headers opened under the bound identity; a request kept before the binding opens under
   * its own identity alone (its clear columns were not bound then). Neither opens: altered.
   */
  #headersOf(row: BoundColumns & { id: number; headers: string | Uint8Array }): string {
    const sealed = row.headers;
    if (!(sealed instanceof Uint8Array)) return this.#textOf(sealed, () => '');
    const sealer = this.#sealer;
    if (sealer === null) return this.#textOf(sealed, () => '');
    for (const identity of [this.#boundIdentity(row.id, row), this.#identity(row.id, 'headers')]) {
      try {
        return sealer.open(sealed, identity).toString('utf8');
      } catch {
        // The next identity, or altered.
      }
    }
    throw new RowAltered(
      `Request #${String(row.id)} kept by the listener (its verdict ${row.verdict}, event or object)`,
    );
  }

  #deliveryIdentity(id: number): string {
    return `listener_delivery\u0000${this.#listenerId}\u0000${String(id)}\u0000excerpt`;
  }

  /** A text column as text: a BLOB in it is a sealed value. */
  #textOf<Value extends string | Uint8Array | null>(
    value: Value,
    identity: () => string,
  ): Exclude<Value, Uint8Array> | string {
    if (!(value instanceof Uint8Array)) return value as Exclude<Value, Uint8Array>;
    if (this.#sealer === null) {
      throw new Error('This listener request was sealed with the app’s data key; open it from Ledgerdesk.');
    }
    return this.#sealer.open(value, identity()).toString('utf8');
  }

  #opened(row: RequestRow): OpenedRequestRow {
    let body = row.body;
    if (row.body_sealed === 1 && body !== null) {
      if (this.#sealer === null) {
        throw new Error('This listener request was sealed with the app’s data key; open it from Ledgerdesk.');
      }
      body = this.#sealer.open(body, this.#identity(row.id, 'body'));
    }
    return {
      ...row,
      body,
      query: this.#textOf(row.query, () => this.#identity(row.id, 'query')),
      headers: this.#headersOf(row),
      notification: this.#textOf(row.notification, () => this.#identity(row.id, 'notification')),
      snapshot: this.#textOf(row.snapshot, () => this.#identity(row.id, 'snapshot')),
    };
  }

  /** Delete what retention no longer allows; returns how many requests went. */
  prune(now = Date.now()): number {
    let removed = 0;
    const old = this.#lastIdBefore(now - this.#retention.maxAgeDays * 86_400_000);
    if (old !== null) removed += this.#deleteThrough(old);
    const excessCount = this.#count - this.#retention.maxRequests;
    if (excessCount > 0) {
      const row = this.#statement(
        'SELECT id FROM listener_requests WHERE listener_id = ? ORDER BY id LIMIT 1 OFFSET ?',
      ).get(this.#listenerId, excessCount - 1) as { id: number } | undefined;
      if (row !== undefined) removed += this.#deleteThrough(row.id);
    }
    if (this.#bytes > this.#retention.maxBytes) {
      // Go below the cap by a margin, so a full log is not pruned again on every insert.
      let excess = this.#bytes - Math.floor(this.#retention.maxBytes * 0.9);
      let through: number | null = null;
      const oldest = this.#database.prepare(
        'SELECT id, stored_bytes FROM listener_requests WHERE listener_id = ? ORDER BY id',
      );
      for (const row of oldest.iterate(this.#listenerId) as Iterable<{ id: number; stored_bytes: number }>) {
        through = row.id;
        excess -= row.stored_bytes;
        if (excess <= 0) break;
      }
      if (through !== null) removed += this.#deleteThrough(through);
    }
    return removed;
  }

  /**
   * The newest request received before `cutoff`, found by bisecting on id (ids grow with
   * arrival time), so age retention needs no index on time. A clock set back can make it
   * keep a few old requests a little longer, never delete a recent one before an old one.
   */
  #lastIdBefore(cutoff: number): number | null {
    const first = this.#statement(
      'SELECT id, received_at FROM listener_requests WHERE listener_id = ? AND id >= ? ORDER BY id LIMIT 1',
    );
    const bounds = this.#statement(
      'SELECT MIN(id) AS low, MAX(id) AS high FROM listener_requests WHERE listener_id = ?',
    ).get(this.#listenerId) as { low: number | null; high: number | null };
    if (bounds.low === null || bounds.high === null) return null;
    const oldest = first.get(this.#listenerId, bounds.low) as { id: number; received_at: number };
    if (oldest.received_at >= cutoff) return null;
    let found = oldest.id;
    let high = bounds.high;
    // Each round at least halves [found, high]: about 50 rounds at most for any id range.
    while (found < high) {
      const middle = found + Math.ceil((high - found) / 2);
      const row = first.get(this.#listenerId, middle) as { id: number; received_at: number } | undefined;
      if (row !== undefined && row.received_at < cutoff) found = row.id;
      else high = middle - 1;
    }
    return found;
  }

  /** Forget every request of this listener. */
  clear(): number {
    const removed = this.#count;
    this.#statement('DELETE FROM listener_deliveries WHERE listener_id = ?').run(this.#listenerId);
    this.#statement('DELETE FROM listener_requests WHERE listener_id = ?').run(this.#listenerId);
    this.#count = 0;
    this.#bytes = 0;
    return removed;
  }

  #overCaps(): boolean {
    // A little slack on the count, so a full log prunes in steps rather than on every insert.
    const countSlack = Math.max(1, Math.floor(this.#retention.maxRequests / 100));
    return this.#count > this.#retention.maxRequests + countSlack - 1 || this.#bytes > this.#retention.maxBytes;
  }

  #deleteThrough(lastId: number): number {
    const gone = this.#statement(
      'SELECT COUNT(*) AS count, COALESCE(SUM(stored_bytes), 0) AS bytes FROM listener_requests WHERE listener_id = ? AND id <= ?',
    ).get(this.#listenerId, lastId) as { count: number; bytes: number };
    this.#database.exec('SAVEPOINT listener_prune');
    try {
      this.#statement('DELETE FROM listener_deliveries WHERE listener_id = ? AND request_id <= ?').run(
        this.#listenerId,
        lastId,
      );
      this.#statement('DELETE FROM listener_requests WHERE listener_id = ? AND id <= ?').run(this.#listenerId, lastId);
      this.#database.exec('RELEASE listener_prune');
    } catch (error) {
      this.#database.exec('ROLLBACK TO listener_prune');
      this.#database.exec('RELEASE listener_prune');
      throw error;
    }
    this.#count -= gone.count;
    this.#bytes -= gone.bytes;
    return gone.count;
  }

  #where(filter: RequestFilter): { where: string; parameters: (string | number)[]; limit: number } {
    const clauses = ['listener_id = ?'];
    const parameters: (string | number)[] = [this.#listenerId];
    const add = (clause: string, value: string | number | undefined): void => {
      if (value === undefined) return;
      clauses.push(clause);
      parameters.push(value);
    };
    if (filter.ids !== undefined) {
      const ids = filter.ids.filter((id) => Number.isSafeInteger(id)).slice(0, LIST_LIMIT_MAX);
      clauses.push(ids.length === 0 ? '0' : `id IN (${ids.map(() => '?').join(', ')})`);
      parameters.push(...ids);
    }
    add('event = ?', filter.event);
    add('object_id = ?', filter.objectId);
    add('verdict = ?', filter.verdict);
    add('outcome = ?', filter.outcome);
    add('path = ?', filter.path);
    if (filter.pathPrefix !== undefined && filter.pathPrefix !== '') {
      clauses.push('substr(path, 1, ?) = ?');
      parameters.push(filter.pathPrefix.length, filter.pathPrefix);
    }
    if (filter.duplicatesOnly === true) clauses.push('occurrence > 1');
    const search = filter.search?.trim() ?? '';
    if (search !== '') {
      // instr on lower-cased text: no LIKE wildcards to escape. Bodies are not searched (they
      // may be sealed at rest); the columns searched are the ones kept in clear.
      const needle = search.toLowerCase();
      clauses.push(
        `(instr(lower(path), ?) > 0 OR instr(lower(COALESCE(event, '')), ?) > 0
          OR instr(lower(COALESCE(object_id, '')), ?) > 0 OR instr(lower(method), ?) > 0)`,
      );
      parameters.push(needle, needle, needle, needle);
    }
    add('received_at >= ?', filter.since);
    add('received_at < ?', filter.until);
    add('id < ?', filter.beforeId);
    const limit = Math.min(Math.max(1, Math.floor(filter.limit ?? LIST_LIMIT_DEFAULT)), LIST_LIMIT_MAX);
    return { where: clauses.join(' AND '), parameters, limit };
  }
}

/**
 * Forgets every listener's kept requests and deliveries: for when the data key that sealed
 * them is lost or changed (they could never be opened again). Does nothing before the
 * listener's tables exist.
 */
export function forgetSealedRequests(database: DatabaseSync): void {
  const tables = database
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('listener_requests', 'listener_deliveries')",
    )
    .all() as { name: string }[];
  for (const { name } of tables) database.exec(`DELETE FROM ${name}`);
}
