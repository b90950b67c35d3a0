/**
 * The small resources (accounts, ACHs, documents, files, card products, account and person
 * applications, webhooks), each kept as the JSON the API serves.
 */
import type { Database } from './database.ts';

export type RecordKind =
  | 'account'
  | 'ach'
  | 'document'
  | 'file'
  | 'card_product'
  | 'account_application'
  | 'person_application'
  | 'business_application'
  | 'webhook';

interface RecordListQuery {
  /** Field equality filters on the served JSON; names come from a schema, never a client. */
  filters: Readonly<Record<string, string>>;
  /** Seq of the last record already seen (resolved from page_cursor). */
  beforeSeq?: number | undefined;
  pageSize: number;
  fromDate?: string | undefined;
  toDate?: string | undefined;
}

interface RecordPage {
  bodies: string[];
  /** Id of the last record of the page when more follow, else null. */
  nextCursor: string | null;
  /** How many records the whole list holds (filters applied), counted up to TOTAL_ESTIMATE_MAX. */
  totalEstimated: number;
}

/** `total_estimated` is an estimate (conventions.md): counting stops here, so a long list costs no more. */
export const TOTAL_ESTIMATE_MAX = 10_000;

const FIELD_NAME = /^[a-z_]+$/;

export interface RecordStore {
  insert(kind: RecordKind, id: string, createdAt: string, body: object): void;
  replace(kind: RecordKind, id: string, body: object): void;
  remove(kind: RecordKind, id: string): boolean;
  /** The served JSON of a record, or undefined. */
  text(kind: RecordKind, id: string): string | undefined;
  read(kind: RecordKind, id: string): Record<string, unknown> | undefined;
  /** Seq of a record of that kind: where a list resumes after it. */
  seqOf(kind: RecordKind, id: string): number | undefined;
  list(kind: RecordKind, query: RecordListQuery): RecordPage;
  all(kind: RecordKind): Record<string, unknown>[];
}

export function createRecordStore(database: Database): RecordStore {
  const insert = database.prepare('INSERT INTO record (kind, id, created_at, body) VALUES (?, ?, ?, ?)');
  const replace = database.prepare('UPDATE record SET body = ? WHERE kind = ? AND id = ?');
  const remove = database.prepare('DELETE FROM record WHERE kind = ? AND id = ?');
  const text = database.prepare('SELECT body FROM record WHERE kind = ? AND id = ?');
  const seq = database.prepare('SELECT seq FROM record WHERE kind = ? AND id = ?');
  const all = database.prepare('SELECT body FROM record WHERE kind = ? ORDER BY seq DESC');
  const listStatements = new Map<string, ReturnType<Database['prepare']>>();

  function textOf(kind: RecordKind, id: string): string | undefined {
    const row = text.get(kind, id);
    return row === undefined ? undefined : String(row.body);
  }

  return {
    insert(kind, id, createdAt, body) {
      insert.run(kind, id, createdAt, JSON.stringify(body));
    },
    replace(kind, id, body) {
      const result = replace.run(JSON.stringify(body), kind, id);
      if (result.changes !== 1) throw new Error(`No ${kind} ${id} to update.`);
    },
    remove(kind, id) {
      return remove.run(kind, id).changes === 1;
    },
    text: textOf,
    read(kind, id) {
      const body = textOf(kind, id);
      return body === undefined ? undefined : (JSON.parse(body) as Record<string, unknown>);
    },
    seqOf(kind, id) {
      const row = seq.get(kind, id);
      return row === undefined ? undefined : Number(row.seq);
    },
    list(kind, query) {
      const names = Object.keys(query.filters).sort();
      for (const name of names) if (!FIELD_NAME.test(name)) throw new Error(`Not a field name: ${name}`);
      const shape = [
        ...names.map((name) => `json_extract(body, '$.${name}') = ?`),
        query.beforeSeq === undefined ? '' : 'seq < ?',
        query.fromDate === undefined ? '' : 'created_at >= ?',
        query.toDate === undefined ? '' : 'created_at < ?',
      ].filter((clause) => clause !== '');
      const sql = `SELECT seq, id, body FROM record WHERE kind = ?${shape.map((clause) => ' AND ' + clause).join('')} ORDER BY seq DESC LIMIT ?`;
      const countShape = shape.filter((clause) => clause !== 'seq < ?');
      const countSql = `SELECT COUNT(*) AS total FROM (SELECT 1 FROM record WHERE kind = ?${countShape.map((clause) => ' AND ' + clause).join('')} LIMIT ${String(TOTAL_ESTIMATE_MAX)})`;
      const prepared = (text: string) => {
        let cached = listStatements.get(text);
        if (cached === undefined) {
          cached = database.prepare(text);
          listStatements.set(text, cached);
        }
        return cached;
      };
      const statement = prepared(sql);
      const parameters: (string | number)[] = [kind, ...names.map((name) => query.filters[name] ?? '')];
      const dates: string[] = [];
      if (query.fromDate !== undefined) dates.push(query.fromDate);
      if (query.toDate !== undefined) dates.push(query.toDate);
      const counted = prepared(countSql).get(...parameters, ...dates) as { total: number } | undefined;
      if (query.beforeSeq !== undefined) parameters.push(query.beforeSeq);
      parameters.push(...dates);
      // One more than asked: whether a next page exists, without a COUNT.
      parameters.push(query.pageSize + 1);
      const rows = statement.all(...parameters);
      const page = rows.slice(0, query.pageSize);
      const last = page.at(-1);
      return {
        bodies: page.map((row) => String(row.body)),
        nextCursor: rows.length > query.pageSize && last !== undefined ? String(last.id) : null,
        totalEstimated: counted?.total ?? 0,
      };
    },
    all(kind) {
      return all.all(kind).map((row) => JSON.parse(String(row.body)) as Record<string, unknown>);
    },
  };
}
