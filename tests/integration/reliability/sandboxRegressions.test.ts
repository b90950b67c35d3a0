/**
 * Defects the sandbox fuzzing found, each pinned by the smallest request that showed it:
 * - a path segment over the router's length limit got Fastify's own 414 body
 *   (`{error, code, message, statusCode}`, echoing the path), not `{error}`;
 * - a badly percent-encoded path segment likewise got Fastify's own 400 body;
 * - a deeply nested JSON body (valid JSON) overflowed the stack while it was hashed or
 *   validated: a 500;
 * - the OpenAPI document left out statuses the sandbox answers: 409 (idempotency key reused,
 *   a simulation or approval that cannot happen now), 413 and 415 (every body), 401 on
 *   GET /openapi.json, 503 while shutting down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH, PATH_SEGMENT_MAX_CHARS } from '../../../src/sandbox/http/server.ts';
import { clientOf, type SandboxClient } from '../sandbox/sandboxClient.ts';
import { startSandbox } from '../../../src/sandbox/index.ts';

let client: SandboxClient;

beforeAll(async () => {
  client = clientOf(
    await startSandbox({ port: 0, dataFile: ':memory:', accounts: 1, pendingTransactionsPerAccount: 5 }),
  );
});

afterAll(async () => {
  await client.sandbox.close();
});

function expectOnlyError(body: unknown): void {
  expect(body).toEqual({ error: expect.any(String) as unknown });
}

describe('sandbox defects found by fuzzing', () => {
  it('refuses a path segment longer than any id with 400 and {error}', async () => {
    const reply = await client.get(`/account/${'a'.repeat(PATH_SEGMENT_MAX_CHARS + 1)}`);
    expect(reply.status).toBe(400);
    expectOnlyError(reply.body);
    expect(reply.text).not.toContain('a'.repeat(50));
    // One character shorter is an ordinary unknown id.
    expect((await client.get(`/account/${'a'.repeat(PATH_SEGMENT_MAX_CHARS)}`)).status).toBe(404);
  });

  it('refuses a badly percent-encoded path segment with 400 and {error}', async () => {
    const reply = await client.get('/account/%E0%A4%A');
    expect(reply.status).toBe(400);
    expectOnlyError(reply.body);
  });

  it('refuses JSON nested deeper than the limit with 400, before anything walks it', async () => {
    const deep = '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000);
    for (const path of ['/simulation', '/document', '/webhook']) {
      const reply = await client.call('POST', path, {
        raw: deep,
        headers: { 'content-type': 'application/json', 'x-idempotency-key': 'deep-1' },
      });
      expect(reply.status, path).toBe(400);
      expectOnlyError(reply.body);
      expect(reply.text).toContain(`at most ${String(JSON_MAX_DEPTH)} levels`);
    }
    // Nesting up to the limit is still accepted as JSON (and judged by the schema).
    const allowed = JSON.stringify({
      event: 'ach.update',
      url: 'http://127.0.0.1:9/hook',
      userdata: JSON.parse('{"a":'.repeat(JSON_MAX_DEPTH - 2) + '1' + '}'.repeat(JSON_MAX_DEPTH - 2)) as unknown,
    });
    const accepted = await client.call('POST', '/webhook', {
      raw: allowed,
      headers: { 'content-type': 'application/json' },
    });
    expect(accepted.status, accepted.text).not.toBe(500);
    expect(accepted.text).not.toContain('nested too deeply');
  });

  it('documents every status it answers', async () => {
    const document = (await client.get('/openapi.json')).body as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const statuses = (path: string, method: string): string[] =>
      Object.keys(document.paths[path]?.[method]?.responses ?? {}).sort();
    expect(statuses('/openapi.json', 'get')).toEqual(['200', '401', '403', '421', '429', '503']);
    expect(statuses('/ping', 'get')).toEqual(['200', '403', '421', '503']);
    for (const path of [
      '/document',
      '/file',
      '/webhook',
      '/simulation',
      '/cardproduct/{card_product_id}/uxt_cardart',
    ]) {
      expect(statuses(path, 'post'), path).toEqual(expect.arrayContaining(['400', '401', '409', '413', '415']));
    }
    expect(statuses('/sandbox/organization/smart_retries/approval', 'post')).toContain('409');
    expect(statuses('/webhook/{webhook_id}', 'patch')).toEqual(expect.arrayContaining(['413', '415']));
    expect(statuses('/webhook/{webhook_id}', 'delete')).toEqual(expect.arrayContaining(['204', '404', '415']));
    expect(statuses('/auth/token', 'post')).not.toContain('409');
  });
});
