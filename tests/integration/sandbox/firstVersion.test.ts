import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClient, type SandboxClient } from './sandboxClient.ts';

describe('sandbox: the first slice other engineers code against', () => {
  let client: SandboxClient;
  beforeAll(async () => {
    client = await startClient();
  });
  afterAll(async () => {
    await client.sandbox.close();
  });

  it('serves ping without auth and pages pending transactions with Basic and Bearer', async () => {
    expect((await fetch(`${client.sandbox.baseUrl}/ping`)).status).toBe(200);
    const account = client.sandbox.demo.accounts[0] ?? '';
    const first = await client.get(`/account/${account}/pending_transaction?page_size=2`);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json;charset=utf-8');
    const envelope = first.body as { data: unknown[]; page_next: string };
    expect(envelope.data).toHaveLength(2);
    const next = await client.get(envelope.page_next.slice(client.sandbox.baseUrl.length), {
      authorization: `Bearer ${client.sandbox.bearerToken}`,
    });
    expect(next.status).toBe(200);
  });
});
