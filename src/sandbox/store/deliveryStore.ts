/**
 * Deliveries still owed: one row per (event, webhook) until that event ends. The dispatcher
 * leases due rows (in_flight = 1) while it posts them; leases are dropped on start, so a row
 * that was in flight when the process stopped is attempted again.
 */
import type { Database } from './database.ts';

export interface Delivery {
  id: number;
  webhookId: string;
  event: string;
  operation: string;
  objectId: string;
  objectPath: string;
  attemptNumber: number;
  dueMs: number;
}

export interface DeliveryStore {
  add(delivery: Omit<Delivery, 'id'>): void;
  /** Leases up to `limit` rows due by `nowMs`, oldest due first. */
  leaseDue(nowMs: number, limit: number): Delivery[];
  /** When the next unleased row falls due, if any. */
  nextDueMs(): number | undefined;
  reschedule(id: number, attemptNumber: number, dueMs: number): void;
  finish(id: number): void;
  /** Unleased rows of a webhook: the retries to end when it leaves enabled. */
  waitingFor(webhookId: string): Delivery[];
  releaseAllLeases(): void;
  pendingCount(): number;
}

function deliveryOf(row: Record<string, unknown>): Delivery {
  return {
    id: Number(row.id),
    webhookId: String(row.webhook_id),
    event: String(row.event),
    operation: String(row.operation),
    objectId: String(row.object_id),
    objectPath: String(row.object_path),
    attemptNumber: Number(row.attempt_number),
    dueMs: Number(row.due_ms),
  };
}

export function createDeliveryStore(database: Database): DeliveryStore {
  const insert = database.prepare(
    'INSERT INTO delivery (webhook_id, event, operation, object_id, object_path, attempt_number, due_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const due = database.prepare('SELECT * FROM delivery WHERE in_flight = 0 AND due_ms <= ? ORDER BY due_ms LIMIT ?');
  const lease = database.prepare('UPDATE delivery SET in_flight = 1 WHERE id = ?');
  const nextDue = database.prepare('SELECT MIN(due_ms) AS due FROM delivery WHERE in_flight = 0');
  const reschedule = database.prepare('UPDATE delivery SET attempt_number = ?, due_ms = ?, in_flight = 0 WHERE id = ?');
  const finish = database.prepare('DELETE FROM delivery WHERE id = ?');
  const waiting = database.prepare('SELECT * FROM delivery WHERE webhook_id = ? AND in_flight = 0');
  const releaseAll = database.prepare('UPDATE delivery SET in_flight = 0 WHERE in_flight = 1');
  const count = database.prepare('SELECT COUNT(*) AS total FROM delivery');

  return {
    add(delivery) {
      insert.run(
        delivery.webhookId,
        delivery.event,
        delivery.operation,
        delivery.objectId,
        delivery.objectPath,
        delivery.attemptNumber,
        delivery.dueMs,
      );
    },
    leaseDue(nowMs, limit) {
      const rows = due.all(nowMs, limit).map(deliveryOf);
      for (const row of rows) lease.run(row.id);
      return rows;
    },
    nextDueMs() {
      const row = nextDue.get();
      return row?.due === null || row?.due === undefined ? undefined : Number(row.due);
    },
    reschedule(id, attemptNumber, dueMs) {
      reschedule.run(attemptNumber, dueMs, id);
    },
    finish(id) {
      finish.run(id);
    },
    waitingFor(webhookId) {
      return waiting.all(webhookId).map(deliveryOf);
    },
    releaseAllLeases() {
      releaseAll.run();
    },
    pendingCount() {
      return Number(count.get()?.total ?? 0);
    },
  };
}
