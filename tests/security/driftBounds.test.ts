/**
 * I8 of the security review of 3b75e6a: the drift ledger is bounded. The field names it keeps
 * come from the bank; a bank (or a proxy in front of it) sending new names in every answer
 * must not grow the cache without end. The review's reproduction: fields named `constructor`,
 * `toString` and `hasOwnProperty` were dropped silently; they must be counted like any other.
 * A real SQLite file with the cache's own migrations.
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { observeDrift } from '../../src/main/services/bank/fieldDrift.ts';
import {
  BANK_COMPAT_MIGRATIONS,
  BANK_COMPAT_MIGRATIONS_TABLE,
} from '../../src/main/services/cache/bankCompatMigrations.ts';
import { applyMigrations } from '../../src/main/services/migrations/migrationRunner.ts';
import {
  DRIFT_NAME_BYTES_PER_PROFILE,
  DRIFT_NAMES_PER_RESOURCE,
  DriftLedger,
} from '../../src/main/services/drift/driftLedger.ts';
import { webhookResponse } from '../../src/shared/bank/index.ts';
import { makeTempFolder } from '../integration/services/support/tempFolder.ts';

let temp: { folder: string; remove: () => void };
let database: DatabaseSync;
let clock: number;
let ledger: DriftLedger;

beforeEach(() => {
  temp = makeTempFolder('ledgerdesk-i8-');
  database = new DatabaseSync(join(temp.folder, 'cache.db'));
  applyMigrations(database, BANK_COMPAT_MIGRATIONS, BANK_COMPAT_MIGRATIONS_TABLE);
  clock = Date.parse('2026-01-01T00:00:00Z');
  ledger = new DriftLedger(database, () => new Date(clock));
});

afterEach(() => {
  ledger.close();
  database.close();
  temp.remove();
});

/** One answer of a day: a webhook record with `perDay` new field names of `length` characters. */
function answerOfDay(day: number, perDay: number, length = 12): Record<string, unknown> {
  const record: Record<string, unknown> = { id: `wh_${String(day)}`, event: 'ach.update', url: 'https://x.example/' };
  for (let index = 0; index < perDay; index += 1) {
    record[`d${String(day).padStart(4, '0')}_${String(index).padStart(3, '0')}_`.padEnd(length, 'x')] = 1;
  }
  return record;
}

function namesKept(profileId: string): { names: number; bytes: number } {
  return database
    .prepare(
      `SELECT COUNT(*) AS names, COALESCE(SUM(length(CAST(field AS BLOB))), 0) AS bytes FROM bank_drift
       WHERE profile_id = ? AND kind IN ('missing', 'unknown', 'malformed')`,
    )
    .get(profileId) as { names: number; bytes: number };
}

describe('I8: the drift ledger is bounded', () => {
  it('counts fields named like Object.prototype members as any other', () => {
    const observation = observeDrift('webhook', webhookResponse, [
      { id: 'wh_1', event: 'ach.update', constructor: 1, toString: 2, hasOwnProperty: 3, another_new_field: 4 },
      { id: 'wh_2', event: 'ach.update', constructor: 1 },
    ]);
    expect(observation).not.toBeNull();
    if (observation === null) return;
    ledger.observe('p1', observation);
    const unknown = ledger.report('p1').resources[0]?.unknown ?? [];
    expect(Object.fromEntries(unknown.map((field) => [field.field, field.count]))).toEqual({
      constructor: 2,
      toString: 1,
      hasOwnProperty: 1,
      another_new_field: 1,
    });
  });

  it('keeps at most DRIFT_NAMES_PER_RESOURCE names per resource: the oldest go, and the report says how many', () => {
    const days = 30;
    for (let day = 0; day < days; day += 1) {
      const observation = observeDrift('webhook', webhookResponse, [answerOfDay(day, 40)]);
      if (observation !== null) ledger.observe('p1', observation);
      ledger.flush();
      clock += 86_400_000;
    }
    const report = ledger.report('p1');
    const webhook = report.resources.find((resource) => resource.resource === 'webhook');
    const kept = (webhook?.unknown.length ?? 0) + (webhook?.missing.length ?? 0);
    expect(kept).toBe(DRIFT_NAMES_PER_RESOURCE);
    expect(namesKept('p1').names).toBe(DRIFT_NAMES_PER_RESOURCE);
    // The ledger kept the missing fields (seen every day) and the newest days' names.
    expect(webhook?.unknown.some((field) => field.field.startsWith(`d${String(days - 1).padStart(4, '0')}_`))).toBe(
      true,
    );
    expect(webhook?.unknown.some((field) => field.field.startsWith('d0000_'))).toBe(false);
    const sent = days * 40 + (webhook?.missing.length ?? 0);
    expect(webhook?.droppedNames).toBe(sent - DRIFT_NAMES_PER_RESOURCE);
    expect(webhook?.records).toBe(days);
  });

  it('keeps at most DRIFT_NAME_BYTES_PER_PROFILE bytes of names per profile, over all its resources', () => {
    const resources = ['webhook', 'webhook list', 'document', 'document list', 'pending_transaction'];
    for (let day = 0; day < 12; day += 1) {
      for (const resource of resources) {
        const observation = observeDrift(resource, webhookResponse, [answerOfDay(day, 50, 100)]);
        if (observation !== null) ledger.observe('p1', observation);
      }
      ledger.flush();
      clock += 86_400_000;
    }
    const kept = namesKept('p1');
    expect(kept.bytes).toBeLessThanOrEqual(DRIFT_NAME_BYTES_PER_PROFILE);
    expect(kept.bytes).toBeGreaterThan(DRIFT_NAME_BYTES_PER_PROFILE - 200);
    const dropped = ledger.report('p1').resources.reduce((total, resource) => total + resource.droppedNames, 0);
    expect(dropped).toBeGreaterThan(0);
    // Another profile is not touched by p1's names.
    ledger.observe('p2', { resource: 'webhook', records: 1, missing: {}, unknown: { kept_here: 1 } });
    expect(ledger.report('p2').resources[0]?.unknown).toEqual([{ field: 'kept_here', count: 1 }]);
  });
});
