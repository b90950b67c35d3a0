/** The whole seeded bank, in an in-memory database: deterministic ids and every application status. */
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/sandbox/store/database.ts';
import { createPendingTransactionStore } from '../../../src/sandbox/store/pendingTransactionStore.ts';
import { createRecordStore } from '../../../src/sandbox/store/records.ts';
import { createFileContentStore } from '../../../src/sandbox/store/fileContentStore.ts';
import { seedBank } from '../../../src/sandbox/seed/seedBank.ts';
import {
  ACCOUNT_APPLICATION_STATUSES,
  account,
  accountApplication,
  cardProduct,
  document,
  fileRecord,
  parseWith,
} from '../../../src/shared/bank/index.ts';

async function seeded(seed: number) {
  const database = openDatabase(':memory:');
  const records = createRecordStore(database);
  const pending = createPendingTransactionStore(database);
  const demo = await seedBank(database, records, createFileContentStore(database), pending, {
    seed,
    accounts: 3,
    pendingTransactionsPerAccount: 120,
  });
  return { database, records, pending, demo };
}

describe('seeded bank', () => {
  it('gives the same ids for the same seed and other ids for another', async () => {
    const first = await seeded(11);
    const again = await seeded(11);
    const other = await seeded(12);
    expect(again.demo).toEqual(first.demo);
    expect(other.demo.accounts).not.toEqual(first.demo.accounts);
    for (const bank of [first, again, other]) bank.database.close();
  });

  it('seeds valid records of every kind, with applications in every status', async () => {
    const { database, records, pending, demo } = await seeded(3);
    expect(demo.accounts).toHaveLength(3);
    for (const id of demo.accounts) {
      expect(pending.count(id)).toBe(120);
      expect(parseWith(account, records.read('account', id)).ok).toBe(true);
    }
    const kinds = [
      ['file', fileRecord, demo.files],
      ['card_product', cardProduct, demo.cardProducts],
      ['document', document, demo.documents],
      ['account_application', accountApplication, demo.accountApplications],
    ] as const;
    for (const [kind, schema, ids] of kinds) {
      for (const id of ids) expect(parseWith(schema, records.read(kind, id)).ok, `${kind} ${id}`).toBe(true);
    }
    const statuses = records.all('account_application').map((entry) => entry.status);
    expect(new Set(statuses)).toEqual(new Set(ACCOUNT_APPLICATION_STATUSES));
    expect(records.read('file', demo.files[0] ?? '')?.content_type).toBe('image/png');
    database.close();
  });
});
