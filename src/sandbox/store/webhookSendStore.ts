/** Every delivery attempt (spec §2.7), newest first, filterable as spec §4.5 lists. */
import type { WebhookSend, WebhookSendStatus } from '../../shared/bank/index.ts';
import { timestampOf } from '../../shared/bank/index.ts';
import { freshId } from '../random.ts';
import { TOTAL_ESTIMATE_MAX } from './records.ts';
import type { Database } from './database.ts';

interface WebhookSendFacts {
  webhookId: string;
  objectId: string;
  event: string;
  operation: string;
  status: WebhookSendStatus;
  attemptNumber: number;
  willRetry: boolean;
  error: string | null;
  atMs: number;
}

interface WebhookSendListQuery {
  objectId?: string | undefined;
  webhookId?: string | undefined;
  status?: WebhookSendStatus | undefined;
  fromDate?: string | undefined;
  toDate?: string | undefined;
  beforeSeq?: number | undefined;
  pageSize: number;
}

export interface WebhookSendStore {
  record(facts: WebhookSendFacts): WebhookSend;
  get(id: string): WebhookSend | undefined;
  seqOf(id: string): number | undefined;
  list(query: WebhookSendListQuery): { sends: WebhookSend[]; nextCursor: string | null; totalEstimated: number };
  /** Failed attempts of a webhook since a moment: what moves it to error. */
  failuresSince(webhookId: string, sinceMs: number): number;
}

interface SendRow {
  id: string;
  webhook_id: string;
  object_id: string;
  event: string;
  operation: string;
  status: string;
  attempt_number: number;
  will_retry: number;
  error: string | null;
  created_at: string;
}

function sendOf(row: Record<string, unknown>): WebhookSend {
  const send = row as unknown as SendRow;
  return {
    id: send.id,
    webhook_id: send.webhook_id,
    object_id: send.object_id,
    event: send.event,
    operation: send.operation,
    status: send.status as WebhookSendStatus,
    attempt_number: send.attempt_number,
    will_retry: send.will_retry === 1,
    error: send.error,
    created_at: send.created_at,
  };
}

export function createWebhookSendStore(database: Database): WebhookSendStore {
  const insert = database.prepare(
    `INSERT INTO webhook_send (id, webhook_id, object_id, event, operation, status, attempt_number, will_retry, error, created_at, created_ms)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const byId = database.prepare('SELECT * FROM webhook_send WHERE id = ?');
  const seqById = database.prepare('SELECT seq FROM webhook_send WHERE id = ?');
  const failures = database.prepare(
    "SELECT COUNT(*) AS total FROM webhook_send WHERE webhook_id = ? AND status = 'error' AND created_ms >= ?",
  );
  const listStatements = new Map<string, ReturnType<Database['prepare']>>();

  return {
    record(facts) {
      const send: WebhookSend = {
        id: freshId('webhookSend'),
        webhook_id: facts.webhookId,
        object_id: facts.objectId,
        event: facts.event,
        operation: facts.operation,
        status: facts.status,
        attempt_number: facts.attemptNumber,
        will_retry: facts.willRetry,
        error: facts.error,
        created_at: timestampOf(new Date(facts.atMs)),
      };
      insert.run(
        send.id,
        send.webhook_id,
        send.object_id,
        facts.event,
        send.operation,
        send.status,
        send.attempt_number,
        send.will_retry ? 1 : 0,
        send.error,
        send.created_at ?? '',
        facts.atMs,
      );
      return send;
    },
    get(id) {
      const row = byId.get(id);
      return row === undefined ? undefined : sendOf(row);
    },
    seqOf(id) {
      const row = seqById.get(id);
      return row === undefined ? undefined : Number(row.seq);
    },
    list(query) {
      const clauses: string[] = [];
      const parameters: (string | number)[] = [];
      const add = (clause: string, value: string | number | undefined) => {
        if (value === undefined) return;
        clauses.push(clause);
        parameters.push(value);
      };
      add('object_id = ?', query.objectId);
      add('webhook_id = ?', query.webhookId);
      add('status = ?', query.status);
      add('created_at >= ?', query.fromDate);
      add('created_at < ?', query.toDate);
      // The estimate counts the whole list (filters applied), not only what follows the cursor.
      const countSql = `SELECT COUNT(*) AS total FROM (SELECT 1 FROM webhook_send${clauses.length === 0 ? '' : ' WHERE ' + clauses.join(' AND ')} LIMIT ${String(TOTAL_ESTIMATE_MAX)})`;
      const countParameters = [...parameters];
      add('seq < ?', query.beforeSeq);
      const sql = `SELECT * FROM webhook_send${clauses.length === 0 ? '' : ' WHERE ' + clauses.join(' AND ')} ORDER BY seq DESC LIMIT ?`;
      let statement = listStatements.get(sql);
      if (statement === undefined) {
        statement = database.prepare(sql);
        listStatements.set(sql, statement);
      }
      const rows = statement.all(...parameters, query.pageSize + 1);
      const sends = rows.slice(0, query.pageSize).map(sendOf);
      const last = sends.at(-1);
      let countStatement = listStatements.get(countSql);
      if (countStatement === undefined) {
        countStatement = database.prepare(countSql);
        listStatements.set(countSql, countStatement);
      }
      const counted = countStatement.get(...countParameters) as { total: number } | undefined;
      return {
        sends,
        nextCursor: rows.length > query.pageSize && last !== undefined ? last.id : null,
        totalEstimated: counted?.total ?? 0,
      };
    },
    failuresSince(webhookId, sinceMs) {
      return Number(failures.get(webhookId, sinceMs)?.total ?? 0);
    },
  };
}
