/** The request log: filters, grouping, and retention by age, count and bytes. */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { migrateListenerTables } from '../../../src/main/services/listener/migrations.ts';
import { RequestLog, type ArrivalRecord, type Retention } from '../../../src/main/services/listener/requestLog.ts';

const roomy: Retention = { maxAgeDays: 30, maxRequests: 1_000_000, maxBytes: 1024 * 1024 * 1024 };

function logOf(retention: Retention = roomy, listenerId = 'a', database = new DatabaseSync(':memory:')) {
  migrateListenerTables(database);
  return { log: new RequestLog(database, listenerId, retention), database };
}

function arrival(overrides: Partial<ArrivalRecord> = {}): ArrivalRecord {
  return {
    receivedAt: Date.now(),
    method: 'POST',
    path: '/hook',
    query: null,
    remoteAddress: '127.0.0.1',
    headers: [['content-type', 'application/json']],
    body: Buffer.from('{}'),
    bodyBytes: 2,
    declaredBytes: 2,
    bodyTruncated: false,
    bodyProblem: null,
    notification: null,
    event: 'ach.update',
    objectId: 'ach_1',
    op: 'update',
    verdict: 'ok',
    presentedUser: 'bank',
    outcome: 'answered',
    status: 200,
    ruleId: null,
    durationMs: 1,
    occurrence: 1,
    outOfOrder: false,
    ...overrides,
  };
}

describe('RequestLog', () => {
  it('lists newest first with filters and keyset pages, and keeps listeners apart', () => {
    const database = new DatabaseSync(':memory:');
    const { log } = logOf(roomy, 'a', database);
    const other = new RequestLog(database, 'b', roomy);
    other.insert(arrival());
    for (let index = 0; index < 5; index += 1) {
      log.insert(arrival({ objectId: `ach_${index % 2}`, verdict: index === 4 ? 'wrong_secret' : 'ok' }));
    }
    const ids = log.list().map((request) => request.id);
    expect(ids).toHaveLength(5);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(log.list({ objectId: 'ach_0' })).toHaveLength(3);
    expect(log.list({ verdict: 'wrong_secret' })).toHaveLength(1);
    expect(log.list({ limit: 2, beforeId: ids[1] }).map((request) => request.id)).toEqual(ids.slice(2, 4));
    expect(log.count()).toBe(5);
    expect(other.count()).toBe(1);
    expect(log.groups().map((group) => [group.objectId, group.requests])).toEqual([
      ['ach_0', 3],
      ['ach_1', 2],
    ]);
  });

  it('filters by path prefix, duplicates only and text in path, event, object id or method, in SQL', () => {
    const { log } = logOf();
    log.insert(arrival({ path: '/hooks/ach', objectId: 'ach_AB1', event: 'ach.update' }));
    log.insert(arrival({ path: '/hooks/ach', objectId: 'ach_AB1', event: 'ach.update', occurrence: 2 }));
    log.insert(arrival({ path: '/hooks/card', objectId: 'card_9', event: 'card.create' }));
    log.insert(arrival({ path: '/other', objectId: null, event: null, method: 'PUT' }));
    expect(log.list({ pathPrefix: '/hooks/' }).map((request) => request.path)).toEqual([
      '/hooks/card',
      '/hooks/ach',
      '/hooks/ach',
    ]);
    expect(log.count({ pathPrefix: '/hooks/c' })).toBe(1);
    // A prefix is text, not a pattern: % and _ match only themselves.
    expect(log.count({ pathPrefix: '/%' })).toBe(0);
    expect(log.list({ duplicatesOnly: true }).map((request) => request.occurrence)).toEqual([2]);
    expect(log.count({ search: 'ab1' })).toBe(2);
    expect(log.count({ search: 'CARD.CR' })).toBe(1);
    expect(log.count({ search: 'put' })).toBe(1);
    expect(log.count({ search: '/other' })).toBe(1);
    expect(log.count({ search: 'nowhere' })).toBe(0);
    expect(log.count({ search: 'ach', duplicatesOnly: true, pathPrefix: '/hooks' })).toBe(1);
  });

  it('deletes requests older than maxAgeDays', () => {
    const { log } = logOf({ ...roomy, maxAgeDays: 1 });
    const now = Date.now();
    log.insert(arrival({ receivedAt: now - 3 * 86_400_000 }));
    log.insert(arrival({ receivedAt: now - 2 * 86_400_000 }));
    log.insert(arrival({ receivedAt: now }));
    expect(log.prune(now)).toBe(2);
    expect(log.count()).toBe(1);
  });

  it('keeps at most maxRequests, the newest', () => {
    const { log } = logOf({ ...roomy, maxRequests: 10 });
    for (let index = 0; index < 100; index += 1) log.insert(arrival({ objectId: `ach_${index}` }));
    expect(log.count()).toBeLessThanOrEqual(10);
    expect(log.list({ limit: 1 })[0]?.objectId).toBe('ach_99');
    expect(log.totals.requests).toBe(log.count());
  });

  it('keeps at most maxBytes, and its running total matches the rows', () => {
    const { log, database } = logOf({ ...roomy, maxBytes: 64 * 1024 });
    for (let index = 0; index < 200; index += 1) log.insert(arrival({ body: Buffer.alloc(1000, 65), bodyBytes: 1000 }));
    const stored = database
      .prepare("SELECT SUM(stored_bytes) AS bytes FROM listener_requests WHERE listener_id = 'a'")
      .get() as { bytes: number };
    expect(stored.bytes).toBeLessThanOrEqual(64 * 1024);
    expect(log.totals.bytes).toBe(stored.bytes);
    expect(log.count()).toBeGreaterThan(0);
  });

  it('records deliveries and snapshots beside their request, and forgets them with it', () => {
    const { log } = logOf();
    const id = log.insert(arrival());
    log.recordDelivery({
      requestId: id,
      kind: 'forward',
      url: 'http://h',
      startedAt: Date.now(),
      status: 204,
      durationMs: 3,
      excerpt: '',
      error: null,
    });
    log.recordSnapshot(id, Date.now(), JSON.stringify({ id: 'ach_1', status: 'sent' }), null);
    expect(log.deliveriesOf(id)).toMatchObject([{ kind: 'forward', status: 204 }]);
    expect(log.get(id)?.snapshot).toEqual({ id: 'ach_1', status: 'sent' });
    expect(log.clear()).toBe(1);
    expect(log.deliveriesOf(id)).toEqual([]);
    expect(log.get(id)).toBeNull();
  });

  it('never reuses an id after deleting', () => {
    const { log } = logOf();
    const first = log.insert(arrival());
    log.clear();
    expect(log.insert(arrival())).toBeGreaterThan(first);
  });
});
