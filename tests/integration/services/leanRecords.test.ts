/**
 * Absent is shown, never fatal (issue 14, item 2), below the screens: records the bank sent
 * without fields the interface lists are synced, kept, sorted, filtered, searched and
 * exported. From the sandbox in its lean (real) shapes, where lists have no page_next and
 * pending transactions, which have no id, page on by date; and from a bank of its own serving
 * records with only some of their fields.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { exportCsv } from '../../../src/main/services/cache/exportViews.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import type { Profile } from '../../../src/main/services/profiles/profile.ts';
import { NOT_SENT_TEXT } from '../../../src/shared/bank/index.ts';
import { basicOf, startBank } from './support/sandboxBank.ts';
import { makeTempFolder } from './support/tempFolder.ts';

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function servicesAt(
  baseUrl: string,
  key: { keyId: string; keySecret: string },
  pageSize: number,
): Promise<{ services: LedgerServices; profile: Profile; folder: string }> {
  const temp = makeTempFolder();
  cleanups.push(temp.remove);
  const services = await LedgerServices.open({
    dataFolder: temp.folder,
    secretStore: new InMemorySecretStore(),
    profileStorage: new FileProfileStorage(temp.folder),
    retry: { baseDelayMs: 5, maxDelayMs: 20 },
    ping: { firstDelayMs: 20, maxDelayMs: 200 },
    syncPageSize: pageSize,
  });
  cleanups.push(() => services.close());
  const profile = await services.addProfile(
    { name: 'Bank', baseUrl, authScheme: 'basic', keyId: key.keyId, production: false },
    key.keySecret,
  );
  return { services, profile, folder: temp.folder };
}

function csvRows(file: string): string[][] {
  return readFileSync(file, 'utf8')
    .trim()
    .split('\r\n')
    .map((line) => line.split(','));
}

describe('the sandbox in its lean (real) shapes', () => {
  it('syncs every pending transaction of an account though its list has no page_next and its rows no id', async () => {
    const sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 300, lean: true });
    cleanups.push(() => sandbox.close());
    const [accountId] = sandbox.demo.accounts;
    if (accountId === undefined) throw new Error('no demo account');
    // Pages of 40: many full pages, each without page_next, so the client walks on by date.
    const { services, profile } = await servicesAt(sandbox.baseUrl, sandbox, 40);
    const outcome = await services.sync.start({ kind: 'pending-transactions', profileId: profile.id, accountId }).done;
    expect(outcome.state).toBe('done');
    const bankAnswer = await fetch(`${sandbox.baseUrl}/account/${accountId}/pending_transaction?page_size=1000`, {
      headers: { authorization: basicOf(sandbox) },
    });
    const bank = (await bankAnswer.json()) as { data: unknown[]; page_next?: unknown };
    expect('page_next' in bank).toBe(false);
    expect(bank.data).toHaveLength(300);
    expect(services.cache.pendingTransactions.count({ profileId: profile.id, accountId })).toBe(300);
    const [row] = services.cache.pendingTransactions.list({ profileId: profile.id, accountId, limit: 1 }).rows;
    expect(row !== undefined && 'partner_deposit_id' in row).toBe(false);
    const drift = services.drift.report(profile.id).resources;
    expect(drift.find((entry) => entry.resource === 'pending_transaction list')?.missing).toEqual([
      { field: 'page_next', count: expect.any(Number) as number },
    ]);
    expect(drift.find((entry) => entry.resource === 'pending_transaction')?.missing).toEqual([
      { field: 'partner_deposit_id', count: expect.any(Number) as number },
    ]);
  });

  it('keeps lean applications and webhooks; sorts, filters and exports them with what the bank left out', async () => {
    const sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 5, lean: true });
    cleanups.push(() => sandbox.close());
    const { services, profile, folder } = await servicesAt(sandbox.baseUrl, sandbox, 100);
    for (const applicationId of sandbox.demo.accountApplications.slice(0, 6)) {
      const outcome = await services.sync.start({ kind: 'account-application', profileId: profile.id, applicationId })
        .done;
      expect(outcome.state).toBe('done');
    }
    const applications = services.cache.accountApplications;
    const newest = applications.list({ profileId: profile.id, sort: 'newest' }).rows;
    expect(newest).toHaveLength(6);
    for (const application of newest) {
      expect('ownership_type' in application).toBe(false);
      expect('account_number' in application).toBe(false);
      expect(application.deposit_id).toBeNull();
    }
    expect(applications.list({ profileId: profile.id, sort: 'oldest' }).rows.map((row) => row.id)).toEqual(
      newest.map((row) => row.id).reverse(),
    );
    // A filter on a field the bank did not send matches nothing, and says so by matching nothing.
    expect(applications.list({ profileId: profile.id, ownershipType: 'personal' }).rows).toEqual([]);
    expect(applications.list({ profileId: profile.id, status: 'unsubmitted' }).rows.length).toBeGreaterThan(0);
    const file = join(folder, 'applications.csv');
    await exportCsv(services.cache, { kind: 'account-applications', query: { profileId: profile.id } }, file);
    const [header, ...rows] = csvRows(file);
    const ownership = header?.indexOf('ownership_type') ?? -1;
    const deposit = header?.indexOf('deposit_id') ?? -1;
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      expect(row[ownership]).toBe(NOT_SENT_TEXT);
      expect(row[deposit], 'null is an empty cell').toBe('');
    }

    await fetch(`${sandbox.baseUrl}/webhook`, {
      method: 'POST',
      headers: { authorization: basicOf(sandbox), 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'ach.update', url: 'https://hooks.example/lean' }),
    });
    expect((await services.sync.start({ kind: 'webhooks', profileId: profile.id }).done).state).toBe('done');
    const [webhook] = services.cache.webhooks.list({ profileId: profile.id }).rows;
    expect(webhook?.url).toBe('https://hooks.example/lean');
    expect(webhook !== undefined && 'basic_user' in webhook).toBe(false);
  });
});

describe('a bank whose records carry only some of their fields', () => {
  /** Serves the same lean records whatever it is asked (a bank that ignores the date filters, too). */
  async function leanBank(): Promise<string> {
    const pending = [
      {
        account_id: 'acct_lean',
        amount: '-4.50',
        date: '2025-12-31',
        extended_timestamp: '2025-12-31T10:00:00Z',
        desc: 'COFFEE SHOP',
        type: 'charge',
        greendot_deposit_id: null,
      },
      { account_id: 'acct_lean', date: '2025-12-30', summary: 'Payroll run', type: 'deposit' },
      { account_id: 'acct_lean', amount: '12.00', desc: 'NO DATE AT ALL' },
      { account_id: 'acct_lean', amount: null, type: null, date: '2025-12-29', desc: 'NULLS' },
    ];
    const sends = [
      { id: 'whsend_lean1', webhook_id: 'wh_lean', status: 'error' },
      { id: 'whsend_lean2', object_id: 'ach_1', attempt_number: 2, created_at: '2025-12-30T01:02:03Z' },
      { id: 'whsend_lean3', status: 'sent', attempt_number: 0, created_at: '2025-12-31T01:02:03Z' },
    ];
    const server: Server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://lean.invalid').pathname;
      const body =
        path === '/account/acct_lean/pending_transaction'
          ? { data: pending }
          : path === '/webhook_send'
            ? { data: sends }
            : path === '/ping'
              ? {}
              : null;
      response.writeHead(body === null ? 404 : 200, { 'content-type': 'application/json;charset=utf-8' });
      response.end(JSON.stringify(body ?? { error: 'No such route.' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => {
            resolve();
          });
        }),
    );
    return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  }

  it('syncs, sorts, filters, searches and exports pending transactions missing amounts, dates, types and words', async () => {
    const { services, profile, folder } = await servicesAt(
      await leanBank(),
      { keyId: 'k', keySecret: 'lean-bank-secret' },
      100,
    );
    const query = { profileId: profile.id, accountId: 'acct_lean' };
    const outcome = await services.sync.start({ kind: 'pending-transactions', ...query }).done;
    expect(outcome.state).toBe('done');
    const table = services.cache.pendingTransactions;
    const descOf = (rows: { desc?: string | null; summary?: string | null }[]) =>
      rows.map((row) => row.desc ?? row.summary);
    expect(table.count(query)).toBe(4);
    // The bank's own order of time; a row with no date at all sorts as the oldest.
    expect(descOf(table.list({ ...query, sort: 'newest' }).rows)).toEqual([
      'COFFEE SHOP',
      'Payroll run',
      'NULLS',
      'NO DATE AT ALL',
    ]);
    // Amounts left out or null sort below every real amount, above none.
    expect(descOf(table.list({ ...query, sort: 'largest' }).rows).slice(0, 2)).toEqual([
      'NO DATE AT ALL',
      'COFFEE SHOP',
    ]);
    expect(descOf(table.list({ ...query, sort: 'smallest' }).rows).slice(2)).toEqual(['COFFEE SHOP', 'NO DATE AT ALL']);
    expect(descOf(table.list({ ...query, type: 'deposit' }).rows)).toEqual(['Payroll run']);
    expect(descOf(table.list({ ...query, search: 'coffee' }).rows)).toEqual(['COFFEE SHOP']);
    expect(descOf(table.list({ ...query, search: 'payroll' }).rows)).toEqual(['Payroll run']);
    // A field left out adds no word: nothing is found by "undefined".
    expect(table.list({ ...query, search: 'undefined' }).rows).toEqual([]);
    // The partner's own name is read as the interface's.
    const [coffee] = table.list({ ...query, search: 'coffee' }).rows;
    expect(coffee !== undefined && 'partner_deposit_id' in coffee && coffee.partner_deposit_id === null).toBe(true);

    const file = join(folder, 'pending.csv');
    await exportCsv(services.cache, { kind: 'pending-transactions', query }, file);
    const [header, ...rows] = csvRows(file);
    const column = (name: string) => header?.indexOf(name) ?? -1;
    const payroll = rows.find((row) => row[column('summary')] === 'Payroll run');
    expect(payroll?.[column('amount')]).toBe(NOT_SENT_TEXT);
    expect(payroll?.[column('desc')]).toBe(NOT_SENT_TEXT);
    const nulls = rows.find((row) => row[column('desc')] === 'NULLS');
    expect(nulls?.[column('amount')], 'null is an empty cell').toBe('');
  });

  it('syncs and sorts webhook sends missing attempt numbers, times and ids of what they were about', async () => {
    const { services, profile } = await servicesAt(
      await leanBank(),
      { keyId: 'k', keySecret: 'lean-bank-secret' },
      100,
    );
    const outcome = await services.sync.start({ kind: 'webhook-sends', profileId: profile.id, full: true }).done;
    expect(outcome.state).toBe('done');
    const sends = services.cache.webhookSends;
    const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
    expect(ids(sends.list({ profileId: profile.id, sort: 'highest-attempt' }).rows)).toEqual([
      'whsend_lean2',
      'whsend_lean3',
      'whsend_lean1',
    ]);
    expect(ids(sends.list({ profileId: profile.id, status: 'error' }).rows)).toEqual(['whsend_lean1']);
    const [lean] = sends.list({ profileId: profile.id, status: 'error' }).rows;
    expect(lean !== undefined && 'attempt_number' in lean).toBe(false);
  });
});
