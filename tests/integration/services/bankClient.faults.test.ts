/**
 * The bank client against a fault-injecting server on loopback: every fault of the issue's
 * list gets a typed error that says what happened and what to do, retried only where safe.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BankClient } from '../../../src/main/services/bank/bankClient.ts';
import { BankError } from '../../../src/main/services/bank/bankError.ts';
import type { BankHttpOptions } from '../../../src/main/services/bank/bankHttp.ts';
import { json, startFaultServer, type FaultServer } from './support/faultServer.ts';
import { pendingTransactionOf } from './support/records.ts';

let server: FaultServer;
let waits: number[];
let reachability: boolean[];

const header = `Basic ${Buffer.from('key_1:secret-1').toString('base64')}`;

function client(extra: Partial<BankHttpOptions> = {}): BankClient {
  return new BankClient({
    profileName: 'Staging',
    authScheme: 'basic',
    baseUrl: server.baseUrl,
    authorization: () => Promise.resolve({ header, expiresAt: null }),
    retry: { maxAttempts: 4 },
    // Waits are recorded, not slept: no test depends on the wall clock.
    sleep: (ms) => {
      waits.push(ms);
      return Promise.resolve();
    },
    onReachability: (reachable) => reachability.push(reachable),
    ...extra,
  });
}

async function failureOf(promise: Promise<unknown>): Promise<BankError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(BankError);
  return error as BankError;
}

function page(data: unknown[], next: string | null): { data: unknown[]; page_next: string | null } {
  return { data, page_next: next };
}

beforeEach(async () => {
  server = await startFaultServer();
  waits = [];
  reachability = [];
});

afterEach(async () => {
  await server.close();
});

describe('bank down', () => {
  it('retries a refused connection, then says the bank cannot be reached', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => {
          resolve(port);
        });
      });
    });
    const down = client({ baseUrl: `http://127.0.0.1:${String(closedPort)}` });
    const error = await failureOf(down.ping());
    expect(error.kind).toBe('unreachable');
    expect(error.attempts).toBe(4);
    expect(error.meansOffline).toBe(true);
    expect(error.message).toMatch(
      /GET \/ping: the bank at http:\/\/127\.0\.0\.1:\d+ cannot be reached \(ECONNREFUSED\)/,
    );
    expect(error.remedy).toMatch(/network/);
    // For the window: no endpoint, no address; the embedded sandbox is named as what it is.
    expect(error.forPeople).toEqual({
      message: 'The bank of Staging cannot be reached.',
      action: 'Check your network connection, then try again; cached data stays available.',
    });
    const local = await failureOf(
      client({
        baseUrl: `http://127.0.0.1:${String(closedPort)}`,
        embeddedSandbox: true,
        retry: { maxAttempts: 1 },
      }).ping(),
    );
    expect(local.forPeople).toEqual({
      message: 'The local sandbox bank is not running.',
      action: 'Restart it from Settings; cached data stays available.',
    });
    expect(local.message).toMatch(/cannot be reached \(ECONNREFUSED\)/);
    expect(reachability).toEqual([false, false, false, false, false]);
    expect(waits).toHaveLength(3);
    expect(waits[2] ?? 0).toBeGreaterThan(waits[0] ?? 0);
  });
});

describe('slow bank', () => {
  it('waits for a slow answer within the response timeout', async () => {
    server.respond((_request, response) => {
      setTimeout(() => {
        json(response, 200, { ok: true });
      }, 150);
    });
    await client({ timeouts: { responseMs: 5_000 } }).ping();
    expect(server.requests).toHaveLength(1);
  });

  it('gives up on an answer slower than the response timeout, retrying a GET', async () => {
    server.respond((_request, response) => {
      setTimeout(() => {
        if (!response.destroyed) json(response, 200, { ok: true });
      }, 2_000);
    });
    const error = await failureOf(client({ timeouts: { responseMs: 100 } }).ping());
    expect(error.kind).toBe('timeout');
    expect(error.attempts).toBe(4);
    expect(error.message).toMatch(/did not answer in time/);
    expect(error.forPeople?.message).toBe('The bank of Staging did not answer in time.');
  });

  it('does not retry a PATCH that timed out: it may have been applied', async () => {
    server.respond(() => {
      // Never answers.
    });
    const error = await failureOf(
      client({ timeouts: { responseMs: 100 } }).updateWebhook('wh_1', { status: 'disabled' }),
    );
    expect(error.kind).toBe('timeout');
    expect(server.requests).toHaveLength(1);
  });
});

describe('server errors', () => {
  it('does not retry a 500 and passes on the bank’s own sentence', async () => {
    server.respond((_request, response) => {
      json(response, 500, { error: 'Ledger write failed.' });
    });
    const error = await failureOf(client().getAccountApplication('aact_1'));
    expect(error).toMatchObject({
      kind: 'server-error',
      status: 500,
      serverMessage: 'Ledger write failed.',
      attempts: 1,
    });
    expect(error.message).toBe(
      'GET /apply/account_application/{id} (500): Ledger write failed. The bank had an internal error: try later, and tell the bank if it persists.',
    );
    expect(server.requests).toHaveLength(1);
  });

  it('retries 502/503/504 on a GET and succeeds when the bank is back', async () => {
    server.respond((_request, response, index) => {
      if (index === 0) json(response, 502, { error: 'Bank core offline.' });
      else if (index === 1) json(response, 503, { error: 'Maintenance.' });
      else json(response, 200, page([], null));
    });
    expect(await client().listWebhooks()).toEqual([]);
    expect(server.requests).toHaveLength(3);
  });

  it('says the bank core is offline after retrying 502s', async () => {
    server.respond((_request, response) => {
      json(response, 502, { error: 'The bank core is offline.' });
    });
    const error = await failureOf(client().listAccounts());
    expect(error).toMatchObject({ kind: 'bank-offline', retryable: true, attempts: 4 });
    expect(error.remedy).toBe('The bank core is offline: try later.');
    expect(error.meansOffline).toBe(true);
  });

  it('retries a create with the same X-Idempotency-Key, so it is never duplicated', async () => {
    server.respond((request, response, index) => {
      if (index === 0) {
        json(response, 503, { error: 'Busy.' });
        return;
      }
      json(response, 200, {
        id: 'wh_1',
        event: 'ach.update',
        url: 'https://example.test/hook',
        status: 'enabled',
        error: null,
        basic_user: null,
        basic_secret: null,
        userdata: null,
        created_at: '2026-01-01T00:00:00Z',
        updated_at: '2026-01-01T00:00:00Z',
        echoed_key: request.headers['x-idempotency-key'],
      });
    });
    const webhook = await client().createWebhook({ event: 'ach.update', url: 'https://example.test/hook' });
    const keys = server.requests.map((request) => request.headers['x-idempotency-key']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(webhook['echoed_key']).toBe(keys[0]);
  });

  it('does not retry a PATCH after a 503', async () => {
    server.respond((_request, response) => {
      json(response, 503, { error: 'Busy.' });
    });
    await failureOf(client().updateWebhook('wh_1', { status: 'enabled' }));
    expect(server.requests).toHaveLength(1);
  });

  it('treats a retried DELETE that finds nothing as done', async () => {
    server.respond((_request, response, index) => {
      if (index === 0) json(response, 504, { error: 'Gateway timeout.' });
      else json(response, 404, { error: 'No such webhook.' });
    });
    await client().deleteWebhook('wh_1');
    expect(server.requests.map((request) => request.method)).toEqual(['DELETE', 'DELETE']);
  });
});

describe('rate limiting', () => {
  it('honours Retry-After through a 429 storm, then stops with when to try again', async () => {
    server.respond((_request, response) => {
      json(response, 429, { error: 'Too many requests.' }, { 'retry-after': '2' });
    });
    const error = await failureOf(client().listWebhooks());
    expect(error).toMatchObject({ kind: 'rate-limited', status: 429, attempts: 4, retryAfterSeconds: 2 });
    expect(error.remedy).toBe('The bank is limiting requests: try again in 2 s.');
    expect(server.requests).toHaveLength(4);
    expect(waits).toHaveLength(3);
    for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(2_000);
  });

  it('retries a 429 even for a PATCH (the bank did not process it)', async () => {
    server.respond((_request, response, index) => {
      if (index === 0) json(response, 429, { error: 'Slow down.' }, { 'retry-after': '0' });
      else json(response, 400, { error: "Parameter 'url' is invalid." });
    });
    const error = await failureOf(client().updateWebhook('wh_1', { url: 'https://example.test/x' }));
    expect(error).toMatchObject({ kind: 'bad-request', serverMessage: "Parameter 'url' is invalid." });
    expect(server.requests).toHaveLength(2);
  });

  it('does not wait for a Retry-After of an hour', async () => {
    server.respond((_request, response) => {
      json(response, 429, { error: 'Quota exhausted.' }, { 'retry-after': '3600' });
    });
    const error = await failureOf(client().ping());
    expect(error.attempts).toBe(1);
    expect(error.remedy).toMatch(/try again in 3600 s/);
  });
});

describe('bad answers', () => {
  it('names malformed JSON and does not retry it', async () => {
    server.respond((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"data": [ {"account_id": ');
    });
    const error = await failureOf(client().listWebhooks());
    expect(error).toMatchObject({ kind: 'malformed-response', attempts: 1 });
    expect(error.message).toMatch(/^GET \/webhook \(200\): the bank answered something that is not valid JSON/);
  });

  it('names the field and the endpoint of a schema violation', async () => {
    const broken = { ...pendingTransactionOf('acct_1', 1), amount: '12.5' };
    server.respond((_request, response) => {
      json(response, 200, page([pendingTransactionOf('acct_1', 0), broken], null));
    });
    const error = await failureOf(client().pendingTransactionPages('acct_1').next());
    expect(error.kind).toBe('schema-violation');
    expect(error.endpoint).toBe('GET /account/{account_id}/pending_transaction');
    expect(error.problems).toEqual(['data[1].amount: must be an amount with two decimals, like 12.34 or -0.50']);
    expect(error.message).toMatch(/data\[1\]\.amount: must be an amount/);
  });

  it('says so when page_next has no cursor', async () => {
    server.respond((_request, response) => {
      json(response, 200, page([pendingTransactionOf('acct_1', 0)], 'https://elsewhere.example/next'));
    });
    const error = await failureOf(client().pendingTransactionPages('acct_1').next());
    expect(error.problems).toEqual(['page_next: must be a URL with a page_cursor']);
  });

  it('keeps unknown extra fields and presents greendot_deposit_id as partner_deposit_id', async () => {
    const { partner_deposit_id: _dropped, ...withoutPartner } = pendingTransactionOf('acct_1', 0);
    server.respond((_request, response) => {
      json(response, 200, page([{ ...withoutPartner, greendot_deposit_id: 'gdep_1', new_field: 'kept' }], null));
    });
    const first = await client().pendingTransactionPages('acct_1').next();
    const [transaction] = first.done === true ? [] : first.value.items;
    expect(transaction).toMatchObject({ partner_deposit_id: 'gdep_1', new_field: 'kept' });
    expect(transaction).not.toHaveProperty('greendot_deposit_id');
  });
});

describe('credentials', () => {
  it('says "check the API key" on wrong credentials, with no retry loop', async () => {
    server.respond((_request, response) => {
      json(response, 401, { error: 'Invalid API key.' });
    });
    const error = await failureOf(client().listAccounts());
    expect(error).toMatchObject({ kind: 'unauthorized', status: 401, retryable: false, attempts: 1 });
    expect(error.remedy).toBe('Check the API key of profile Staging.');
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.headers.authorization).toBe(header);
  });

  it('says when the bearer token expired', async () => {
    server.respond((_request, response) => {
      json(response, 401, { error: 'Token expired.' });
    });
    const error = await failureOf(
      client({
        authScheme: 'bearer',
        authorization: () => Promise.resolve({ header: 'Bearer a.b.c', expiresAt: '2020-01-01T00:00:00.000Z' }),
      }).ping(),
    );
    expect(error.remedy).toBe('The bearer token of profile Staging expired at 2020-01-01T00:00:00.000Z: replace it.');
    expect(server.requests).toHaveLength(1);
  });

  it('never sends the Authorization header anywhere but the profile’s address', async () => {
    server.respond((request, response) => {
      const cursor = new URL(request.url, server.baseUrl).searchParams.get('page_cursor');
      if (cursor === null)
        json(
          response,
          200,
          page(
            [pendingTransactionOf('acct_1', 0)],
            'https://evil.example/account/acct_1/pending_transaction?page_cursor=abc',
          ),
        );
      else json(response, 200, page([], null));
    });
    let count = 0;
    for await (const transaction of client().pendingTransactions('acct_1')) {
      expect(transaction.account_id).toBe('acct_1');
      count += 1;
    }
    expect(count).toBe(1);
    expect(server.requests.map((request) => request.url)).toEqual([
      '/account/acct_1/pending_transaction?page_size=100',
      '/account/acct_1/pending_transaction?page_size=100&page_cursor=abc',
    ]);
  });
});

describe('lists without page_next (real answers)', () => {
  it('pages on by page_cursor = the last id while full pages come, and stops at a short one', async () => {
    const hooks = Array.from({ length: 5 }, (_, index) => ({ id: `wh_${String(index)}`, url: 'https://x.example' }));
    server.respond((request, response) => {
      const query = new URL(request.url, server.baseUrl).searchParams;
      const after = query.get('page_cursor');
      const start = after === null ? 0 : hooks.findIndex((hook) => hook.id === after) + 1;
      const size = Number(query.get('page_size'));
      json(response, 200, { data: hooks.slice(start, start + size), total_estimated: 10 });
    });
    const pages = [];
    for await (const page of client().webhookPages({ pageSize: 2 })) pages.push(page.items.map((hook) => hook.id));
    expect(pages).toEqual([['wh_0', 'wh_1'], ['wh_2', 'wh_3'], ['wh_4']]);
    expect(server.requests.map((request) => request.url)).toEqual([
      '/webhook?page_size=2',
      '/webhook?page_size=2&page_cursor=wh_1',
      '/webhook?page_size=2&page_cursor=wh_3',
    ]);
  });

  it('reads a list that is only {data} as one page when it is short', async () => {
    server.respond((_request, response) => {
      json(response, 200, { data: [{ id: 'cdpt_1', type: 'virtual' }] });
    });
    await expect(client().listCardProducts()).resolves.toEqual([{ id: 'cdpt_1', type: 'virtual' }]);
    expect(server.requests).toHaveLength(1);
  });

  it('names the field when a list item has no id', async () => {
    server.respond((_request, response) => {
      json(response, 200, { data: [{ url: 'https://x.example' }] });
    });
    const failure = await failureOf(client().listWebhooks());
    expect(failure.kind).toBe('schema-violation');
    expect(failure.problems).toEqual(['data[0].id: Invalid input: expected string, received undefined']);
  });
});
