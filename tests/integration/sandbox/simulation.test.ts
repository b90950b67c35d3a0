/** POST /simulation: ACHs, pending transactions and account applications move, and say so. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACCOUNT_APPLICATION_STATUSES,
  type Account,
  type AccountApplication,
  type Ach,
  type PendingTransaction,
} from '../../../src/shared/bank/index.ts';
import { eventually, startClient, type SandboxClient } from './sandboxClient.ts';
import { startReceiver, type WebhookReceiver } from './webhookReceiver.ts';

const error = (body: unknown) => (body as { error: string }).error;

describe('sandbox: simulations', () => {
  let client: SandboxClient;
  let receiver: WebhookReceiver;
  let account = '';
  beforeAll(async () => {
    receiver = await startReceiver(() => 200);
    client = await startClient();
    account = client.sandbox.demo.accounts[1] ?? '';
    for (const event of [
      'ach.create',
      'ach.update',
      'account.update',
      'account_application.update',
      'account.create',
    ]) {
      await client.call('POST', '/webhook', { body: { event, url: receiver.url } });
    }
  });
  afterAll(async () => {
    await client.sandbox.close();
    await receiver.close();
  });

  const simulate = (type: string, simulation: unknown, headers: Record<string, string> = {}) =>
    client.call('POST', '/simulation', { body: { type, simulation }, headers });
  const notified = (event: string, id: string) =>
    eventually(
      () => receiver.received.find((entry) => entry.body.event === event && entry.body.id === id),
      `${event} for ${id}`,
    );
  const accountNow = async () => (await client.get(`/account/${account}`)).body as Account;
  const newest = async () =>
    ((await client.get(`/account/${account}/pending_transaction?page_size=1`)).body as { data: PendingTransaction[] })
      .data[0];

  it('creates an ACH (ach.create), posts its pending transaction (account.update), and moves it through its statuses (ach.update)', async () => {
    const balanceBefore = (await accountNow()).balance;
    const created = await simulate('ach.create', { account_id: account, amount: '25.00', direction: 'debit' });
    expect(created.status).toBe(202);
    const achId = (created.body as { object_id: string }).object_id;
    expect(created.body).toEqual({ type: 'ach.create', object_id: achId, status: 'pending' });
    await notified('ach.create', achId);
    await notified('account.update', account);
    const row = await newest();
    expect(row).toMatchObject({ ach_id: achId, type: 'withdrawal', type_source: 'ach', amount: '-25.00' });
    const cents = (text: string) => Math.round(Number(text) * 100);
    expect(cents((await accountNow()).balance)).toBe(cents(balanceBefore) - 2500);

    for (const status of ['processing', 'sent']) {
      const moved = await simulate('ach.update_status', { ach_id: achId });
      expect(moved.body).toMatchObject({ object_id: achId, status });
      expect(((await client.get(`/ach/${achId}`)).body as Ach).status).toBe(status);
    }
    await notified('ach.update', achId);
    const returned = await simulate('ach.update_status', { ach_id: achId, status: 'returned' });
    expect(returned.body).toMatchObject({ status: 'returned' });
    const final = await simulate('ach.update_status', { ach_id: achId });
    expect(final.status).toBe(409);
    expect(error(final.body)).toMatch(/returned and cannot move.*final/);
    const skip = await simulate('ach.create', { account_id: account, amount: '1.00', direction: 'credit' });
    const skipped = await simulate('ach.update_status', {
      ach_id: (skip.body as { object_id: string }).object_id,
      status: 'sent',
    });
    expect(skipped.status).toBe(409);
    expect(error(skipped.body)).toMatch(/pending and cannot move to sent: it can move to processing or canceled/);
  });

  it('posts a pending transaction; a hold leaves the balance alone but not the available balance', async () => {
    const before = await accountNow();
    const held = await simulate('account.pending_transaction', { account_id: account, amount: '-30.00', type: 'hold' });
    expect(held.status).toBe(202);
    const after = await accountNow();
    expect(after.balance).toBe(before.balance);
    expect(after.available_balance).not.toBe(before.available_balance);
    const row = await newest();
    expect(row).toMatchObject({ type: 'hold', amount: '-30.00', balance: before.balance });
    await simulate('account.pending_transaction', { account_id: account, amount: '12.34', desc: 'SANDBOX CREDIT' });
    expect(await newest()).toMatchObject({ type: 'deposit', amount: '12.34', desc: 'SANDBOX CREDIT' });
  });

  it('moves an account application through every status to approval, opening its account', async () => {
    const id = client.sandbox.demo.accountApplications[0] ?? '';
    expect(((await client.get(`/apply/account_application/${id}`)).body as AccountApplication).status).toBe(
      'unsubmitted',
    );
    for (const status of ['submitted', 'kyc', 'manual_review', 'approved'] as const) {
      const moved = await simulate('account_application.update_status', { account_application_id: id, status });
      expect(moved.status).toBe(202);
      expect(moved.body).toMatchObject({ object_id: id, status });
    }
    const approved = (await client.get(`/apply/account_application/${id}`)).body as AccountApplication;
    expect(approved.status).toBe('approved');
    expect(approved.account_id).toMatch(/^acct_/);
    expect(approved.account_number).toMatch(/^[0-9]+$/);
    expect((await client.get(`/account/${approved.account_id ?? ''}`)).status).toBe(200);
    await notified('account_application.update', id);
    await notified('account.create', approved.account_id ?? '');
    const again = await simulate('account_application.update_status', { account_application_id: id, status: 'kyc' });
    expect(again.status).toBe(409);
  });

  it('reaches every other status along the allowed transitions', async () => {
    // Demo applications come three per status, in the spec's order: [1], [2] unsubmitted, [3] submitted.
    const demo = client.sandbox.demo.accountApplications;
    const journeys: [string, string[], string][] = [
      [demo[1] ?? '', ['canceled'], 'canceled'],
      [demo[2] ?? '', ['submitted', 'kyc', 'rejected'], 'rejected'],
      [demo[3] ?? '', ['kyc', 'processing'], 'processing'],
    ];
    for (const [id, steps, target] of journeys) {
      for (const status of steps) {
        expect(
          (await simulate('account_application.update_status', { account_application_id: id, status })).status,
        ).toBe(202);
      }
      expect(((await client.get(`/apply/account_application/${id}`)).body as AccountApplication).status).toBe(target);
    }
    expect(ACCOUNT_APPLICATION_STATUSES).toHaveLength(8);
  });

  it('honours X-Idempotency-Key on simulations: the same ACH, not a second one', async () => {
    const headers = { 'x-idempotency-key': 'sim-1' };
    const first = await simulate('ach.create', { account_id: account, amount: '5.00', direction: 'credit' }, headers);
    const again = await simulate('ach.create', { account_id: account, amount: '5.00', direction: 'credit' }, headers);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  const bad: [string, unknown, number, RegExp][] = [
    ['an unknown type', { type: 'wire.create', simulation: {} }, 400, /type: must be one of ach.create/],
    ['no simulation', { type: 'ach.create' }, 400, /simulation/],
    [
      'a negative ACH amount',
      { type: 'ach.create', simulation: { account_id: 'acct_x', amount: '-1.00', direction: 'credit' } },
      400,
      /amount: must be greater than 0.00/,
    ],
    [
      'an amount with one decimal',
      { type: 'ach.create', simulation: { account_id: 'acct_x', amount: '1.0', direction: 'credit' } },
      400,
      /amount: must be an amount with two decimals/,
    ],
    [
      'a float amount',
      { type: 'ach.create', simulation: { account_id: 'acct_x', amount: 1.5, direction: 'credit' } },
      400,
      /amount/,
    ],
    [
      'an unknown account',
      { type: 'ach.create', simulation: { account_id: 'acct_unknown', amount: '1.00', direction: 'credit' } },
      400,
      /simulation.account_id: no account with id acct_unknown/,
    ],
    [
      'an unknown ACH',
      { type: 'ach.update_status', simulation: { ach_id: 'ach_unknown' } },
      400,
      /no ACH with id ach_unknown/,
    ],
    [
      'an unknown application status',
      { type: 'account_application.update_status', simulation: { account_application_id: 'aact_x', status: 'open' } },
      400,
      /status: Invalid option/,
    ],
    [
      'an unknown field',
      { type: 'account.pending_transaction', simulation: { account_id: 'acct_x', amount: '1.00', memo: 'x' } },
      400,
      /unknown field in simulation: "memo"/,
    ],
    [
      'a zero amount',
      { type: 'account.pending_transaction', simulation: { account_id: 'acct_x', amount: '0.00' } },
      400,
      /must not be zero/,
    ],
  ];
  for (const [what, body, status, message] of bad) {
    it(`refuses ${what}`, async () => {
      const achsBefore = ((await client.get('/ach?page_size=1000')).body as { data: unknown[] }).data.length;
      const reply = await client.call('POST', '/simulation', { body });
      expect(reply.status).toBe(status);
      expect(error(reply.body)).toMatch(message);
      expect(((await client.get('/ach?page_size=1000')).body as { data: unknown[] }).data.length).toBe(achsBefore);
    });
  }
});
