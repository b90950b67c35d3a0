/** Drift counts added up per profile and resource, kept in SQLite, read back and reset (driftLedger.ts). */
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BANK_COMPAT_MIGRATIONS,
  BANK_COMPAT_MIGRATIONS_TABLE,
} from '../../../src/main/services/cache/bankCompatMigrations.ts';
import { applyMigrations } from '../../../src/main/services/migrations/migrationRunner.ts';
import { DriftLedger } from '../../../src/main/services/drift/driftLedger.ts';

let database: DatabaseSync;
let clock: number;
let ledger: DriftLedger;

beforeEach(() => {
  database = new DatabaseSync(':memory:');
  applyMigrations(database, BANK_COMPAT_MIGRATIONS, BANK_COMPAT_MIGRATIONS_TABLE);
  clock = Date.parse('2026-01-01T00:00:00Z');
  ledger = new DriftLedger(database, () => new Date(clock));
});

afterEach(() => {
  ledger.close();
  database.close();
});

describe('DriftLedger', () => {
  it('adds up the observations of a profile per resource and field', () => {
    ledger.observe('p1', { resource: 'document', records: 2, missing: { bank_id: 2 }, unknown: { retention: 1 } });
    clock += 60_000;
    ledger.observe('p1', { resource: 'document', records: 3, missing: { bank_id: 1, description: 3 }, unknown: {} });
    ledger.observe('p1', { resource: 'webhook list', records: 1, missing: { page_next: 1 }, unknown: {} });
    ledger.observe('p2', { resource: 'document', records: 9, missing: {}, unknown: {} });
    expect(ledger.report('p1')).toEqual({
      profileId: 'p1',
      since: '2026-01-01T00:00:00.000Z',
      resources: [
        {
          resource: 'document',
          records: 5,
          missing: [
            { field: 'bank_id', count: 3 },
            { field: 'description', count: 3 },
          ],
          unknown: [{ field: 'retention', count: 1 }],
          malformed: [],
          droppedNames: 0,
          firstSeen: '2026-01-01T00:00:00.000Z',
          lastSeen: '2026-01-01T00:01:00.000Z',
        },
        {
          resource: 'webhook list',
          records: 1,
          missing: [{ field: 'page_next', count: 1 }],
          unknown: [],
          malformed: [],
          droppedNames: 0,
          firstSeen: '2026-01-01T00:01:00.000Z',
          lastSeen: '2026-01-01T00:01:00.000Z',
        },
      ],
    });
    expect(ledger.report('p2').resources.map((resource) => resource.records)).toEqual([9]);
  });

  it('keeps the counts in the database: a new ledger on the same file reads them', () => {
    ledger.observe('p1', { resource: 'card_product', records: 2, missing: {}, unknown: { name: 2 } });
    ledger.close();
    const reopened = new DriftLedger(database);
    expect(reopened.report('p1').resources[0]?.unknown).toEqual([{ field: 'name', count: 2 }]);
    reopened.close();
  });

  it('does not write inside a transaction another part has open, and writes once it ends', () => {
    ledger.observe('p1', { resource: 'webhook', records: 1, missing: {}, unknown: {} });
    database.exec('BEGIN');
    ledger.flush();
    database.exec('COMMIT');
    expect(database.prepare('SELECT COUNT(*) AS rows FROM bank_drift').get()).toEqual({ rows: 0 });
    expect(ledger.report('p1').resources[0]?.records).toBe(1);
  });

  it('starts a profile over on reset, pending counts included', () => {
    ledger.observe('p1', { resource: 'webhook', records: 1, missing: {}, unknown: {} });
    ledger.flush();
    ledger.observe('p1', { resource: 'webhook', records: 1, missing: {}, unknown: {} });
    ledger.reset('p1');
    expect(ledger.report('p1')).toEqual({ profileId: 'p1', resources: [], since: null });
  });
});
