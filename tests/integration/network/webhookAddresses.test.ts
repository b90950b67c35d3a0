/**
 * Issue 37, item 3: a webhook address a bank cannot be given is refused before any request
 * leaves for any bank but the embedded sandbox: not https://, or naming a loopback, private
 * or local-only address. The vendor documents the field as "The HTTPS URL where the event
 * notification will be sent" (../shared/real-wire/docs-examples.json); its documented example
 * address passes. `--allow-http` works only at a sandbox that says it delivers elsewhere too.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookAddressRefused, webhookAddressProblem } from '../../../src/main/services/bank/webhookAddress.ts';
import type { SandboxTraffic } from '../../../src/sandbox/index.ts';
import { servicesOn, startBank, type RunningSandbox, type ServicesOnBank } from '../services/support/sandboxBank.ts';
import { makeTempFolder } from '../services/support/tempFolder.ts';
import { json, startFaultServer, type FaultServer } from '../services/support/faultServer.ts';

interface DocsExample {
  id: string;
  request: { body?: { url?: string; event?: string } };
}
const docs = JSON.parse(
  readFileSync(new URL('../../../../shared/real-wire/docs-examples.json', import.meta.url), 'utf8'),
) as {
  examples: DocsExample[];
  extra_facts: { resource: string; field: string; quote: string }[];
};

let sandbox: RunningSandbox;
let bank: ServicesOnBank;
const traffic: SandboxTraffic[] = [];
const temps: { remove: () => void }[] = [];

beforeAll(async () => {
  sandbox = await startBank({ traffic: (entry) => traffic.push(entry) });
  const temp = makeTempFolder();
  temps.push(temp);
  bank = await servicesOn(sandbox, temp.folder);
});

afterAll(async () => {
  await bank.services.close();
  await sandbox.close();
  for (const temp of temps) temp.remove();
});

function requestsSince(mark: number): string[] {
  return traffic.slice(mark).flatMap((entry) => (entry.kind === 'request' ? [`${entry.method} ${entry.path}`] : []));
}

describe('the address a remote bank is given', () => {
  it('is the vendor’s own wording: “The HTTPS URL where the event notification will be sent”', () => {
    const fact = docs.extra_facts.find((entry) => entry.resource === 'webhook' && entry.field === 'url');
    expect(fact?.quote).toContain('The HTTPS URL');
    const documented = docs.examples.find((example) => example.id === 'docs:webhook.create')?.request.body?.url;
    expect(documented).toBe('https://example.application.com/notify');
    expect(webhookAddressProblem(documented ?? '')).toBeNull();
    expect(webhookAddressProblem((documented ?? '').replace('https:', 'http:'))).toMatch(/is not https:\/\//);
  });

  it.each([
    ['http://127.0.0.1:4880/webhooks', /loopback or private/],
    ['https://127.0.0.1:4880/webhooks', /loopback or private/],
    ['https://[::1]:4880/', /loopback or private/],
    ['https://10.1.2.3/hook', /loopback or private/],
    ['https://192.168.1.20/hook', /loopback or private/],
    ['https://172.20.0.1/hook', /loopback or private/],
    ['https://169.254.169.254/hook', /loopback or private/],
    ['https://[fd12::1]/hook', /loopback or private/],
    ['https://[::ffff:10.0.0.1]/hook', /loopback or private/],
    ['https://localhost/hook', /only this machine or its network knows/],
    ['https://printer.local/hook', /only this machine or its network knows/],
    ['https://intranet/hook', /only this machine or its network knows/],
    ['http://hooks.example.com/hook', /is not https:\/\//],
  ])('refuses %s', (url, problem) => {
    expect(webhookAddressProblem(url)).toMatch(problem);
  });

  it('refuses a loopback listener before anything reaches the bank, saying how to get a public address', async () => {
    const mark = traffic.length;
    const error = await bank.services.writes
      .createWebhook(bank.profile.id, { event: 'ach.update', url: 'http://127.0.0.1:4880/webhooks/abc' })
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(WebhookAddressRefused);
    const message = (error as Error).message;
    expect(message).toContain('Not sent to the bank of Sandbox');
    expect(message).toContain('`ngrok http 4880`');
    expect(message).toContain('`cloudflared tunnel --url http://127.0.0.1:4880`');
    expect(message).toContain('ssh -R');
    expect(message).toContain('docs/listener-reach.md');
    expect(requestsSince(mark)).toEqual([]);
    // The refusal is in the audit log, as a write that failed.
    const latest = bank.services.cache.audit.list({ profileId: bank.profile.id }).rows[0];
    expect(latest).toMatchObject({ action: 'webhook.create', result: 'failed' });
  });

  it('refuses a changed address too (PATCH), and lets a public https:// one through', async () => {
    const made = await bank.services.writes.createWebhook(bank.profile.id, {
      event: 'ach.update',
      url: 'https://hooks.example.com/notify',
    });
    expect(made.url).toBe('https://hooks.example.com/notify');
    const mark = traffic.length;
    await expect(
      bank.services.writes.updateWebhook(bank.profile.id, made.id, { url: 'https://10.0.0.7/notify' }),
    ).rejects.toThrow(WebhookAddressRefused);
    expect(requestsSince(mark)).toEqual([]);
    await bank.services.writes.deleteWebhook(bank.profile.id, made.id);
  });

  it('takes --allow-http at a sandbox that says it delivers there, after asking it', async () => {
    const mark = traffic.length;
    const made = await bank.services.writes.createWebhook(
      bank.profile.id,
      { event: 'ach.update', url: 'http://127.0.0.1:4880/webhooks/abc' },
      { allowHttp: true },
    );
    expect(requestsSince(mark)).toEqual(['GET /sandbox/webhook_url_policy', 'POST /webhook']);
    await bank.services.writes.deleteWebhook(bank.profile.id, made.id);
  });

  it('refuses --allow-http at a bank that does not say so (the real service has no such route)', async () => {
    const fake: FaultServer = await startFaultServer();
    try {
      fake.respond((request, response) => {
        if (request.url.startsWith('/sandbox/webhook_url_policy')) json(response, 404, { error: 'Not found.' });
        else json(response, 200, { id: 'wh_1', event: 'ach.update', url: 'x', status: 'enabled' });
      });
      const temp = makeTempFolder();
      temps.push(temp);
      const real = await servicesOn({ ...sandbox, baseUrl: fake.baseUrl }, temp.folder);
      try {
        await expect(
          real.services.writes.createWebhook(
            real.profile.id,
            { event: 'ach.update', url: 'http://127.0.0.1:4880/webhooks/abc' },
            { allowHttp: true },
          ),
        ).rejects.toThrow(/does not say it delivers to plain http:\/\/ or private addresses/);
        expect(fake.requests.map((request) => `${request.method} ${request.url.split('?')[0] ?? ''}`)).toEqual([
          'GET /sandbox/webhook_url_policy',
        ]);
      } finally {
        await real.services.close();
      }
    } finally {
      await fake.close();
    }
  });
});
