/**
 * The two simulations the trigger added: a customer submits an application
 * (account_application.create) and the bank gives up on a webhook (webhook.error). Each
 * emits its event, and each refusal is one sentence with the right status.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountApplication, Webhook } from '../../../src/shared/bank/index.ts';
import { startClient, type SandboxClient } from './sandboxClient.ts';

const error = (body: unknown) => (body as { error: string }).error;

describe('sandbox: trigger simulations', () => {
  let client: SandboxClient;
  beforeAll(async () => {
    client = await startClient();
  });
  afterAll(async () => {
    await client.sandbox.close();
  });

  const simulate = (type: string, simulation: unknown) =>
    client.call('POST', '/simulation', { body: { type, simulation } });

  it('account_application.create submits a new application, personal by default, business on request', async () => {
    const personal = await simulate('account_application.create', {});
    expect(personal.status).toBe(202);
    expect(personal.body).toMatchObject({ type: 'account_application.create', status: 'submitted' });
    const id = (personal.body as { object_id: string }).object_id;
    const fetched = (await client.get(`/apply/account_application/${id}`)).body as AccountApplication;
    expect(fetched).toMatchObject({ id, status: 'submitted', ownership_type: 'personal', account_id: null });
    expect(fetched.person_applications).toHaveLength(1);
    const business = await simulate('account_application.create', { ownership_type: 'business' });
    const businessId = (business.body as { object_id: string }).object_id;
    const businessApplication = (await client.get(`/apply/account_application/${businessId}`))
      .body as AccountApplication;
    expect(businessApplication).toMatchObject({ ownership_type: 'business', person_applications: null });
    // It then walks the lifecycle like any other.
    const moved = await simulate('account_application.update_status', { account_application_id: id, status: 'kyc' });
    expect(moved.body).toMatchObject({ status: 'kyc' });
    const sends = await client.get(`/webhook_send?object_id=${id}`);
    expect(sends.status).toBe(200);
    const bad = await simulate('account_application.create', { ownership_type: 'joint' });
    expect(bad.status).toBe(400);
    expect(error(bad.body)).toMatch(/ownership_type/);
  });

  it('webhook.error moves an enabled webhook to error with a reason; enabling brings it back', async () => {
    const created = (
      await client.call('POST', '/webhook', { body: { event: 'ach.update', url: 'http://127.0.0.1:9/' } })
    ).body as Webhook;
    const moved = await simulate('webhook.error', { webhook_id: created.id, reason: 'simulated outage' });
    expect(moved.status).toBe(202);
    expect(moved.body).toMatchObject({ type: 'webhook.error', object_id: created.id, status: 'error' });
    expect((await client.get(`/webhook/${created.id}`)).body).toMatchObject({
      status: 'error',
      error: 'simulated outage',
    });
    const again = await simulate('webhook.error', { webhook_id: created.id });
    expect(again.status).toBe(409);
    expect(error(again.body)).toMatch(/is error: only an enabled webhook can enter error/);
    const enabled = await client.call('PATCH', `/webhook/${created.id}`, { body: { status: 'enabled' } });
    expect(enabled.body).toMatchObject({ status: 'enabled', error: null });
    const missing = await simulate('webhook.error', { webhook_id: 'wh_nothere' });
    expect(missing.status).toBe(400);
    expect(error(missing.body)).toMatch(/no webhook with id wh_nothere/);
    const malformed = await simulate('webhook.error', { webhook_id: 'nope' });
    expect(malformed.status).toBe(400);
    expect(error(malformed.body)).toMatch(/wh_/);
  });
});
