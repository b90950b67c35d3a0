/**
 * The events catalog (Listener → Events, `ledger events`) against what the sandbox really
 * sends: every event it marks as sent by the sandbox is caused here through the bank's own
 * interface and arrives, with the op, the kind of id and the address its example shows; and
 * its trigger column is right about which events `ledger trigger` can cause.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_CATALOG, TRIGGERABLE_EVENTS } from '../../../src/shared/eventCatalog/eventCatalog.ts';
import { solidPng } from '../../../src/sandbox/seed/pngImage.ts';
import { clientOf, eventually, type SandboxClient } from '../sandbox/sandboxClient.ts';
import { startReceiver, type WebhookReceiver } from '../sandbox/webhookReceiver.ts';
import { startBank } from '../services/support/sandboxBank.ts';

let bank: SandboxClient;
let receiver: WebhookReceiver;

const SENT_BY_THE_SANDBOX = EVENT_CATALOG.filter((entry) => entry.sandbox);

async function simulate(type: string, simulation: Record<string, unknown>): Promise<string> {
  const answer = await bank.call('POST', '/simulation', { body: { type, simulation } });
  expect(answer.status, answer.text).toBe(202);
  return (answer.body as { object_id: string }).object_id;
}

async function created(path: string, body: unknown, headers: Record<string, string> = {}): Promise<string> {
  const answer = await bank.call('POST', path, { ...(Buffer.isBuffer(body) ? { raw: body } : { body }), headers });
  expect(answer.status, answer.text).toBe(200);
  return (answer.body as { id: string }).id;
}

beforeAll(async () => {
  bank = clientOf(await startBank({ accounts: 1, pendingTransactionsPerAccount: 1 }));
  receiver = await startReceiver();
  for (const entry of SENT_BY_THE_SANDBOX)
    await created('/webhook', { event: entry.event, url: `${receiver.url}/${entry.event}` });
});

afterAll(async () => {
  await receiver.close();
  await bank.sandbox.close();
});

describe('the events catalog', () => {
  it('lists every event the sandbox sends, and each arrives as its example shows', async () => {
    const accountId = bank.sandbox.demo.accounts[0] ?? '';
    // One change of each kind, through the bank's interface.
    const achId = await simulate('ach.create', { account_id: accountId, amount: '10.00', direction: 'credit' });
    await simulate('ach.update_status', { ach_id: achId });
    await simulate('account.pending_transaction', { account_id: accountId, amount: '-3.00' });
    const applicationId = await simulate('account_application.create', {});
    for (const status of ['kyc', 'processing', 'approved']) {
      await simulate('account_application.update_status', { account_application_id: applicationId, status });
    }
    const fileId = await created('/file', solidPng(2, 2, [1, 2, 3]), { 'content-type': 'image/png' });
    await created('/document', { type: 'other', name: 'Scan', file_id: fileId, fields: {} });
    const productId = bank.sandbox.demo.cardProducts[0] ?? '';
    const art = await bank.call('POST', `/cardproduct/${productId}/uxt_cardart`, {
      body: { asset_type: 'front', file_id: fileId },
    });
    expect(art.status, art.text).toBe(200);
    const webhookId = await created('/webhook', { event: 'book.update', url: `${receiver.url}/unused` });
    expect((await bank.call('PATCH', `/webhook/${webhookId}`, { body: { status: 'disabled' } })).status).toBe(200);
    expect((await bank.call('DELETE', `/webhook/${webhookId}`)).status).toBe(204);

    for (const entry of SENT_BY_THE_SANDBOX) {
      const arrived = await eventually(
        () => receiver.received.find((notification) => notification.body['event'] === entry.event),
        entry.event,
      );
      const body = arrived.body as { event: string; op: string; id: string; url: string };
      expect(Object.keys(body).sort(), entry.event).toEqual(Object.keys(entry.example).sort());
      expect(body.op, entry.event).toBe(entry.op);
      // The same kind of id (its prefix) at the same address as the example.
      const prefix = (id: string): string => id.slice(0, id.indexOf('_') + 1);
      expect(prefix(body.id), entry.event).toBe(prefix(entry.example.id));
      const examplePath = new URL(entry.example.url).pathname.replace(entry.example.id, body.id);
      expect(new URL(body.url).pathname, entry.event).toBe(examplePath);
      expect(body.url.startsWith(bank.sandbox.baseUrl), entry.event).toBe(true);
    }
  });

  it('says how to trigger exactly the events ledger trigger can cause', () => {
    for (const event of TRIGGERABLE_EVENTS) {
      expect(EVENT_CATALOG.find((entry) => entry.event === event)?.trigger, event).toEqual(expect.any(String));
    }
    for (const entry of EVENT_CATALOG.filter((each) => !each.sandbox)) expect(entry.trigger, entry.event).toBeNull();
  });
});
