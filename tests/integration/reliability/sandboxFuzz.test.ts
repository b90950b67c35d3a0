/**
 * Sandbox API fuzzing driven by its own OpenAPI document (`GET /openapi.json`): for every
 * operation it lists, random valid and invalid requests (path and query parameters, bodies,
 * content types, malformed JSON, bodies past the limits, reused idempotency keys). Every
 * answer's status must be one the document gives for that operation, never a 500; every
 * failure is exactly `{"error": "<sentence>"}`; a refused request writes nothing (the bank's
 * tables, read through a second connection, are unchanged). Then authentication bypass
 * attempts on every protected operation — no header, other schemes, malformed Basic, wrong
 * secrets, `alg: none`, other algorithms, expired, tampered signature or payload, and the
 * key and tokens of another organization (a second sandbox with its own key) — are 401 with
 * `{error}` and nothing else, and write nothing.
 *
 * Deterministic: LEDGERDESK_FUZZ_SEED seeds it; LEDGERDESK_SANDBOX_FUZZ_RUNS (default 1,500)
 * is the total number of fuzzed requests, split over the operations.
 */
import { createHash, createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintToken } from '../../../src/sandbox/auth/jwt.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.ts';
import { rawClient, type RawAnswer, type RawRequest } from './support/httpClient.ts';
import {
  CONTENT_TYPES,
  HOSTILE_SEGMENTS,
  MALFORMED_JSON,
  OVERSIZED_JSON,
  operationsOf,
  SchemaTranslator,
  type OpenApiOperation,
  type OpenApiParameter,
} from './support/openApiRequests.ts';

const SEED = Number(process.env['LEDGERDESK_FUZZ_SEED'] ?? 20_260_808);
const TOTAL_RUNS = Number(process.env['LEDGERDESK_SANDBOX_FUZZ_RUNS'] ?? 1_500);
const OTHER_KEY = { keyId: 'key_other_organization', keySecret: 'other_organization_secret_5d2a91' };
const IDEMPOTENCY_KEYS = ['fuzz-key-1', 'fuzz-key-2', 'fuzz-key-3'];
/** Tables that hold what the API serves and accepts; the delivery queue and send log move on their own. */
const RESOURCE_TABLES = [
  'record',
  'file_content',
  'webhook_credential',
  'webhook_health',
  'pending_transaction',
  'idempotency',
  'meta',
];

let folder: string;
let sandbox: RunningSandbox;
let otherOrganization: RunningSandbox;
let receiver: Server;
let receiverUrl: string;
let reader: DatabaseSync;
let client: ReturnType<typeof rawClient>;
let operations: OpenApiOperation[];
let translator: SchemaTranslator;
let idsByPrefix = new Map<string, string[]>();
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const OVERSIZED_FILE = Buffer.alloc(10 * 1024 * 1024 + 1, 1);

function basic(keyId: string, keySecret: string): string {
  return `Basic ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}`;
}

/** The bank's resource tables, digested (file bytes by length, so big files stay cheap). */
function resourceState(): string {
  const digest = createHash('sha256');
  for (const table of RESOURCE_TABLES) {
    const select =
      table === 'file_content' ? 'SELECT file_id, length(bytes) AS size FROM file_content' : `SELECT * FROM ${table}`;
    const rows = reader
      .prepare(select)
      .all()
      .map((row) => JSON.stringify(row))
      .sort();
    digest.update(`${table}:${String(rows.length)}\n${rows.join('\n')}\n`);
  }
  return digest.digest('hex');
}

function refreshIds(): void {
  const ids = new Map<string, string[]>();
  const rows = reader.prepare('SELECT id FROM record UNION ALL SELECT id FROM webhook_send').all();
  for (const row of rows) {
    const id = String(row['id']);
    const prefix = id.slice(0, id.indexOf('_'));
    const list = ids.get(prefix) ?? [];
    if (list.length < 50) list.push(id);
    ids.set(prefix, list);
  }
  idsByPrefix = ids;
}

function allIds(): string[] {
  return [...idsByPrefix.values()].flat();
}

interface FuzzedRequest extends RawRequest {
  how: string;
}

function pathFor(operation: OpenApiOperation, values: readonly string[]): string {
  let index = 0;
  return operation.path.replace(/\{[^}]+\}/g, () => values[index++] ?? 'x');
}

/** Where a path parameter's real ids come from, by the parameter's name. */
const PREFIX_OF_PARAMETER: Readonly<Record<string, string>> = {
  account_id: 'acct',
  document_id: 'doc',
  file_id: 'file',
  card_product_id: 'cdpt',
  id: 'aact',
  ach_id: 'ach',
  webhook_id: 'wh',
  webhook_send_id: 'whsend',
};

type QueryPairs = [name: string, value: string][];

function validQuery(parameters: readonly OpenApiParameter[]): fc.Arbitrary<QueryPairs> {
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const parameter of parameters) {
    if (parameter.name === 'page_cursor' || parameter.name === 'to_date') continue;
    model[parameter.name] = translator.valid(parameter.schema, parameter.name).map((one) => String(one));
  }
  return fc.record(model, { requiredKeys: [] }).map((chosen) => {
    const query = Object.entries(chosen).flatMap(([name, value]): QueryPairs =>
      value === undefined ? [] : [[name, value]],
    );
    // to_date after from_date, when both are given.
    if (chosen['from_date'] !== undefined && parameters.some((parameter) => parameter.name === 'to_date')) {
      query.push(['to_date', '2031-01-01']);
    }
    return query;
  });
}

function brokenQuery(parameters: readonly OpenApiParameter[]): fc.Arbitrary<{ query: QueryPairs; how: string }> {
  const model: Record<string, fc.Arbitrary<string>> = {};
  for (const parameter of parameters) {
    model[parameter.name] = fc.oneof(
      translator.valid(parameter.schema, parameter.name).map((one) => String(one)),
      fc.string({ maxLength: 20 }),
      fc.constantFrom('', '0', '-1', '1001', '1.5', '1e3', '99999999999999999999', 'NaN', '2024-13-45', 'null', '%00'),
    );
  }
  return fc
    .tuple(
      fc.record(model, { requiredKeys: [] }),
      fc.option(fc.string({ minLength: 1, maxLength: 10 }), { freq: 3 }),
      fc.option(fc.constantFrom(...parameters.map((parameter) => parameter.name), 'page_size'), { freq: 3 }),
    )
    .map(([chosen, unknown, repeated]) => {
      const query = Object.entries(chosen).flatMap(([name, value]): QueryPairs =>
        value === undefined ? [] : [[name, value]],
      );
      const how: string[] = ['broken query'];
      if (unknown !== null) {
        query.push([unknown, '1']);
        how.push(`unknown ${unknown}`);
      }
      if (repeated !== null) {
        query.push([repeated, '1'], [repeated, '2']);
        how.push(`repeated ${repeated}`);
      }
      return { query, how: how.join(' ') };
    });
}

function queryArbitrary(operation: OpenApiOperation): fc.Arbitrary<{ query: string; how: string }> {
  const parameters = operation.parameters.filter((parameter) => parameter.in === 'query');
  return fc
    .oneof(
      { weight: 3, arbitrary: validQuery(parameters).map((query) => ({ query, how: '' })) },
      { weight: 2, arbitrary: brokenQuery(parameters) },
    )
    .map(({ query, how }) => {
      const search = new URLSearchParams();
      for (const [name, text] of query) search.append(name, text);
      const text = search.toString();
      return { query: text === '' ? '' : `?${text}`, how };
    });
}

function bodyArbitrary(
  operation: OpenApiOperation,
): fc.Arbitrary<{ body: Buffer | null; contentType: string | null; how: string }> {
  const anyContentType = fc.constantFrom(...CONTENT_TYPES);
  if (operation.body === null) {
    // Operations without a body, sent one anyway now and then.
    return fc.oneof(
      { weight: 8, arbitrary: fc.constant({ body: null, contentType: null, how: 'no body' }) },
      {
        weight: 1,
        arbitrary: fc.tuple(anyContentType, fc.constantFrom('{}', '{', 'x=1', '')).map(([contentType, text]) => ({
          body: Buffer.from(text),
          contentType,
          how: `unexpected body as ${contentType}`,
        })),
      },
    );
  }
  const schema = operation.body.schema;
  if (schema === null) {
    // POST /file: raw bytes.
    return fc.oneof(
      fc
        .tuple(
          fc.constantFrom('image/png', 'application/pdf', 'image/jpeg; q=1', 'text/plain'),
          fc.uint8Array({ minLength: 1, maxLength: 64 }),
        )
        .map(([contentType, bytes]) => ({ body: Buffer.from(bytes), contentType, how: `bytes as ${contentType}` })),
      fc.constant({ body: PNG, contentType: 'image/png', how: 'a PNG' }),
      fc.tuple(anyContentType, fc.uint8Array({ maxLength: 32 })).map(([contentType, bytes]) => ({
        body: Buffer.from(bytes),
        contentType,
        how: `bytes as "${contentType}"`,
      })),
      fc.constant({ body: Buffer.alloc(0), contentType: 'image/png', how: 'no bytes' }),
      fc.constant({ body: PNG, contentType: null, how: 'bytes without a content type' }),
      fc.constant({ body: OVERSIZED_FILE, contentType: 'image/png', how: 'a file over 10 MiB' }),
    );
  }
  const json = (value: unknown): Buffer => Buffer.from(JSON.stringify(value));
  return fc.oneof(
    {
      weight: 4,
      arbitrary: translator
        .valid(schema)
        .map((value) => ({ body: json(value), contentType: 'application/json', how: 'valid body' })),
    },
    {
      weight: 4,
      arbitrary: translator
        .invalid(schema)
        .map((value) => ({ body: json(value), contentType: 'application/json', how: 'invalid body' })),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(...MALFORMED_JSON).map((text) => ({
        body: Buffer.from(text),
        contentType: 'application/json',
        how: `malformed JSON ${JSON.stringify(text.slice(0, 20))}`,
      })),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(translator.valid(schema), anyContentType).map(([value, contentType]) => ({
        body: json(value),
        contentType,
        how: `valid body as "${contentType}"`,
      })),
    },
    { weight: 1, arbitrary: fc.constant({ body: null, contentType: 'application/json', how: 'no body' }) },
    {
      weight: 1,
      arbitrary: fc.constant({
        body: Buffer.from(OVERSIZED_JSON),
        contentType: 'application/json',
        how: 'a JSON body over 1 MiB',
      }),
    },
  );
}

function requestArbitrary(operation: OpenApiOperation, authorization: () => string): fc.Arbitrary<FuzzedRequest> {
  const pathParameters = operation.parameters.filter((parameter) => parameter.in === 'path');
  const known = (name: string): fc.Arbitrary<string> =>
    fc.constant(null).chain(() => {
      const own = idsByPrefix.get(PREFIX_OF_PARAMETER[name] ?? '') ?? [];
      return fc.constantFrom(...(own.length > 0 ? own : allIds()));
    });
  const segment = (name: string): fc.Arbitrary<string> =>
    fc.oneof(
      { weight: 5, arbitrary: known(name) },
      { weight: 1, arbitrary: fc.constant(null).chain(() => fc.constantFrom(...allIds())) },
      { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_SEGMENTS) },
      { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 30 }).map((text) => encodeURIComponent(text)) },
    );
  const segments = fc.tuple(...pathParameters.map((parameter) => segment(parameter.name)));
  const idempotency =
    operation.method === 'POST'
      ? fc.option(fc.constantFrom(...IDEMPOTENCY_KEYS, '', 'ü-not-ascii', 'k'.repeat(300)), { freq: 3 })
      : fc.constant(null);
  return fc
    .tuple(segments, queryArbitrary(operation), bodyArbitrary(operation), idempotency)
    .map(([values, query, body, key]) => {
      const headers: Record<string, string> = { authorization: authorization() };
      if (body.contentType !== null) headers['content-type'] = body.contentType;
      if (key !== null) headers['x-idempotency-key'] = key;
      return {
        method: operation.method,
        target: pathFor(operation, values) + query.query,
        headers,
        body: body.body,
        how: [body.how, query.how, key === null ? '' : `idempotency key ${JSON.stringify(key.slice(0, 20))}`]
          .filter(Boolean)
          .join('; '),
      };
    });
}

function describeRequest(request: FuzzedRequest): string {
  const target = request.target.length > 200 ? `${request.target.slice(0, 200)}…` : request.target;
  const body =
    request.body === null
      ? ''
      : ` body ${JSON.stringify(request.body.subarray(0, 160).toString('utf8'))}${request.body.length > 160 ? '…' : ''}`;
  return `${request.method} ${target} (${request.how})${body}`;
}

/** `{"error": "<sentence>"}`, and nothing else. */
function expectErrorBody(answer: RawAnswer): string {
  expect(String(answer.headers['content-type'])).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body.toString('utf8')) as unknown;
  expect(body).toEqual({ error: expect.any(String) as unknown });
  const error = (body as { error: string }).error;
  expect(error.trim().length).toBeGreaterThan(0);
  return error;
}

function checkAnswer(operation: OpenApiOperation, answer: RawAnswer): void {
  expect(answer.status, 'a 500').not.toBe(500);
  expect(
    [...operation.statuses],
    `status ${String(answer.status)} is not documented for ${operation.method} ${operation.path}`,
  ).toContain(answer.status);
  if (answer.status >= 400) {
    expectErrorBody(answer);
  } else if (operation.jsonSuccess && answer.status !== 204) {
    expect(String(answer.headers['content-type'])).toMatch(/^application\/json/);
    expect(() => JSON.parse(answer.body.toString('utf8')) as unknown).not.toThrow();
  }
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-sandbox-fuzz-'));
  receiver = createServer((incoming, response) => {
    incoming.resume();
    incoming.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}`;
  sandbox = await startSandbox({
    port: 0,
    dataFile: join(folder, 'sandbox.db'),
    accounts: 2,
    pendingTransactionsPerAccount: 20,
    retryBaseMs: 10,
    // Webhooks never move to error on their own, so only requests change the resource tables.
    errorThreshold: 1_000_000_000,
    deliveryTimeoutMs: 2_000,
  });
  otherOrganization = await startSandbox({
    port: 0,
    dataFile: ':memory:',
    accounts: 1,
    pendingTransactionsPerAccount: 1,
    ...OTHER_KEY,
  });
  reader = new DatabaseSync(join(folder, 'sandbox.db'), { readOnly: true });
  reader.exec('PRAGMA busy_timeout = 5000');
  client = rawClient(sandbox.baseUrl);
  const document = await client.send({
    method: 'GET',
    target: '/openapi.json',
    headers: { authorization: basic(sandbox.keyId, sandbox.keySecret) },
    body: null,
  });
  expect(document.status).toBe(200);
  const parsed = JSON.parse(document.body.toString('utf8')) as unknown;
  operations = operationsOf(parsed);
  // A webhook on our receiver and an event for it, so send records exist to be fetched.
  const headers = { authorization: basic(sandbox.keyId, sandbox.keySecret), 'content-type': 'application/json' };
  await client.send({
    method: 'POST',
    target: '/webhook',
    headers,
    body: Buffer.from(JSON.stringify({ event: 'account.update', url: `${receiverUrl}/hooks/seed` })),
  });
  await client.send({
    method: 'POST',
    target: '/simulation',
    headers,
    body: Buffer.from(
      JSON.stringify({
        type: 'account.pending_transaction',
        simulation: { account_id: sandbox.demo.accounts[0], amount: '-1.00' },
      }),
    ),
  });
  for (let round = 0; round < 400 && sandbox.deliveryBacklog().owed > 0; round += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  refreshIds();
  translator = new SchemaTranslator(parsed, {
    idsByPrefix: () => idsByPrefix,
    webhookUrls: [`${receiverUrl}/hooks/a`, `${receiverUrl}/hooks/b`],
  });
});

afterAll(async () => {
  client.close();
  reader.close();
  await sandbox.close();
  await otherOrganization.close();
  await new Promise<void>((resolve) => {
    receiver.closeAllConnections();
    receiver.close(() => {
      resolve();
    });
  });
  rmSync(folder, { recursive: true, force: true });
});

describe('the sandbox, fuzzed from its own OpenAPI document', () => {
  it('documents every route it serves', () => {
    expect(operations.length).toBeGreaterThan(25);
    process.stdout.write(
      `Sandbox fuzz: ${String(operations.length)} operations, ${String(Math.ceil(TOTAL_RUNS / operations.length))} requests each, seed ${String(SEED)}\n`,
    );
  });

  it('answers every fuzzed request with a documented status, {error} on failure, never a 500, and no partial write', async () => {
    const runs = Math.max(10, Math.ceil(TOTAL_RUNS / operations.length));
    const bearer = sandbox.bearerToken;
    const basicHeader = basic(sandbox.keyId, sandbox.keySecret);
    let turn = 0;
    const authorization = (): string => (turn++ % 2 === 0 ? basicHeader : `Bearer ${bearer}`);
    const statuses = new Map<string, number>();
    for (const [index, operation] of operations.entries()) {
      const details = await fc.check(
        fc.asyncProperty(requestArbitrary(operation, authorization), async (request) => {
          const before = resourceState();
          let answer: RawAnswer;
          try {
            answer = await client.send(request);
          } catch (error) {
            throw new Error(`no answer: ${describeRequest(request)}: ${String(error)}`, { cause: error });
          }
          const key = `${operation.method} ${operation.path} ${String(answer.status)}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
          try {
            checkAnswer(operation, answer);
          } catch (failure) {
            throw new Error(
              `${describeRequest(request)} → ${String(answer.status)} ${answer.body.subarray(0, 300).toString('utf8')}: ${(failure as Error).message}`,
              { cause: failure },
            );
          }
          if (answer.status >= 400 || operation.method === 'GET') {
            expect(resourceState(), `${describeRequest(request)} → ${String(answer.status)} changed the bank`).toBe(
              before,
            );
          } else {
            refreshIds();
          }
        }),
        { seed: SEED + index, numRuns: runs, endOnFailure: true },
      );
      if (details.failed) {
        throw new Error(
          `Sandbox fuzz of ${operation.method} ${operation.path} failed (reproduce: LEDGERDESK_FUZZ_SEED=${String(SEED)}, ` +
            `operation seed ${String(details.seed)}): ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}`,
        );
      }
    }
    // The fuzz reached both sides of every operation it could: some successes, some refusals.
    const succeeded = operations.filter((operation) =>
      [...statuses.keys()].some((key) => key.startsWith(`${operation.method} ${operation.path} 2`)),
    );
    process.stdout.write(
      `Sandbox fuzz statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()), null, 1)}\n`,
    );
    expect(succeeded.length).toBeGreaterThan(operations.length * 0.75);
  });

  it('answers a method a documented path does not take with 405, Allow and {error}', async () => {
    const byPath = new Map<string, Set<string>>();
    for (const operation of operations)
      byPath.set(operation.path, (byPath.get(operation.path) ?? new Set()).add(operation.method));
    for (const [path, methods] of byPath) {
      for (const method of ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'].filter((one) => !methods.has(one))) {
        const answer = await client.send({
          method,
          target: pathFor({ path } as OpenApiOperation, ['x', 'x']),
          headers: { authorization: basic(sandbox.keyId, sandbox.keySecret) },
          body: null,
        });
        expect(answer.status, `${method} ${path}`).toBe(405);
        expect(String(answer.headers['allow']).split(', ').sort()).toEqual([...methods].sort());
        expectErrorBody(answer);
      }
    }
  });
});

function base64url(value: unknown): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
}

function signed(header: unknown, payload: unknown, secret: string, algorithm: 'sha256' | 'sha512' = 'sha256'): string {
  const input = `${base64url(header)}.${base64url(payload)}`;
  return `${input}.${createHmac(algorithm, secret).update(input).digest('base64url')}`;
}

function bypassAttempts(): { name: string; header: string | null }[] {
  const { keyId, keySecret } = sandbox;
  const now = Math.floor(Date.now() / 1000);
  const claims = { sub: keyId, iat: now, exp: now + 3600 };
  const good = mintToken(keyId, keySecret, 3600);
  const [goodHeader = '', goodPayload = '', goodSignature = ''] = good.split('.');
  const flipped = (text: string): string => (text.startsWith('A') ? `B${text.slice(1)}` : `A${text.slice(1)}`);
  return [
    { name: 'no header', header: null },
    { name: 'empty header', header: '' },
    { name: 'blank header', header: '   ' },
    { name: 'scheme only (Basic)', header: 'Basic' },
    { name: 'scheme only (Bearer)', header: 'Bearer' },
    { name: 'empty Basic', header: 'Basic ' },
    { name: 'empty Bearer', header: 'Bearer ' },
    { name: 'Digest scheme', header: `Digest username="${keyId}", response="x"` },
    { name: 'Token scheme', header: `Token ${keySecret}` },
    { name: 'ApiKey scheme', header: `ApiKey ${keyId}:${keySecret}` },
    { name: 'the secret alone', header: keySecret },
    { name: 'Basic, not base64', header: `Basic ${keyId}:${keySecret}` },
    {
      name: 'Basic, base64url alphabet',
      header: `Basic ${Buffer.from(`${keyId}:${keySecret}?>`).toString('base64url')}`,
    },
    { name: 'Basic without colon', header: `Basic ${Buffer.from(keyId + keySecret).toString('base64')}` },
    { name: 'Basic, wrong secret', header: basic(keyId, `${keySecret}x`) },
    { name: 'Basic, secret prefix', header: basic(keyId, keySecret.slice(0, -1)) },
    { name: 'Basic, empty secret', header: basic(keyId, '') },
    { name: 'Basic, wrong key id', header: basic(`${keyId}x`, keySecret) },
    { name: 'Basic, id and secret swapped', header: basic(keySecret, keyId) },
    { name: 'Basic, secret with NUL', header: basic(keyId, `${keySecret}\u0000`) },
    { name: 'Basic, SQL in the id', header: basic("' OR '1'='1", "' OR '1'='1") },
    { name: 'Basic, another organization', header: basic(OTHER_KEY.keyId, OTHER_KEY.keySecret) },
    { name: 'Basic, our id with another organization’s secret', header: basic(keyId, OTHER_KEY.keySecret) },
    { name: 'Bearer, the API secret itself', header: `Bearer ${keySecret}` },
    { name: 'Bearer, Basic credentials', header: `Bearer ${Buffer.from(`${keyId}:${keySecret}`).toString('base64')}` },
    { name: 'Bearer, not a JWT', header: 'Bearer not-a-jwt' },
    { name: 'Bearer, two parts', header: `Bearer ${goodHeader}.${goodPayload}` },
    { name: 'Bearer, four parts', header: `Bearer ${good}.extra` },
    {
      name: 'alg none, no signature',
      header: `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.`,
    },
    {
      name: 'alg none, with signature',
      header: `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(claims)}.${goodSignature}`,
    },
    { name: 'alg None', header: `Bearer ${base64url({ alg: 'None' })}.${base64url(claims)}.` },
    { name: 'alg NONE', header: `Bearer ${base64url({ alg: 'NONE' })}.${base64url(claims)}.` },
    { name: 'no alg', header: `Bearer ${signed({ typ: 'JWT' }, claims, keySecret)}` },
    {
      name: 'alg HS512 signed with the secret',
      header: `Bearer ${signed({ alg: 'HS512', typ: 'JWT' }, claims, keySecret, 'sha512')}`,
    },
    {
      name: 'alg RS256 claimed, HMAC signature',
      header: `Bearer ${signed({ alg: 'RS256', typ: 'JWT' }, claims, keySecret)}`,
    },
    { name: 'expired', header: `Bearer ${mintToken(keyId, keySecret, 60, Date.now() - 3_600_000)}` },
    {
      name: 'expires this second',
      header: `Bearer ${signed({ alg: 'HS256', typ: 'JWT' }, { ...claims, exp: now - 1 }, keySecret)}`,
    },
    { name: 'tampered signature', header: `Bearer ${goodHeader}.${goodPayload}.${flipped(goodSignature)}` },
    { name: 'truncated signature', header: `Bearer ${goodHeader}.${goodPayload}.${goodSignature.slice(0, -2)}` },
    { name: 'empty signature', header: `Bearer ${goodHeader}.${goodPayload}.` },
    {
      name: 'tampered payload (exp pushed out)',
      header: `Bearer ${goodHeader}.${base64url({ ...claims, exp: now + 10 * 365 * 86400 })}.${goodSignature}`,
    },
    {
      name: 'tampered payload (other sub)',
      header: `Bearer ${goodHeader}.${base64url({ ...claims, sub: OTHER_KEY.keyId })}.${goodSignature}`,
    },
    {
      name: 'tampered header (alg none)',
      header: `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${goodPayload}.${goodSignature}`,
    },
    {
      name: 'payload with __proto__',
      header: `Bearer ${signed({ alg: 'HS256' }, '{"__proto__":{"sub":"x"},"iat":1,"exp":1}', 'wrong-key')}`,
    },
    { name: 'signed with a guessable key', header: `Bearer ${signed({ alg: 'HS256', typ: 'JWT' }, claims, 'secret')}` },
    { name: 'signed with the key id', header: `Bearer ${signed({ alg: 'HS256', typ: 'JWT' }, claims, keyId)}` },
    { name: 'another organization’s token', header: `Bearer ${otherOrganization.bearerToken}` },
    {
      name: 'token for another key, signed with our secret',
      header: `Bearer ${mintToken(OTHER_KEY.keyId, keySecret, 3600)}`,
    },
    { name: 'token without sub', header: `Bearer ${signed({ alg: 'HS256' }, { iat: now, exp: now + 60 }, keySecret)}` },
    {
      name: 'token with exp as text',
      header: `Bearer ${signed({ alg: 'HS256' }, { ...claims, exp: String(now + 60) }, keySecret)}`,
    },
    { name: 'a huge token', header: `Bearer ${'a'.repeat(6_000)}.${'b'.repeat(6_000)}.${'c'.repeat(2_000)}` },
  ];
}

describe('authentication bypass attempts', () => {
  it('are 401 with {error} only, WWW-Authenticate, and no data, on every protected operation', async () => {
    const attempts = bypassAttempts();
    const secrets = [sandbox.keySecret, OTHER_KEY.keySecret];
    const before = resourceState();
    let checked = 0;
    for (const operation of operations.filter((one) => one.security.length > 0)) {
      const target = pathFor(
        operation,
        operation.parameters.filter((p) => p.in === 'path').map(() => allIds()[0] ?? 'x'),
      );
      for (const attempt of attempts) {
        // POST /auth/token is Basic only: a valid Bearer token is (rightly) refused there too.
        const headers: Record<string, string> = { 'content-type': 'application/json' };
        if (attempt.header !== null) headers['authorization'] = attempt.header;
        const answer = await client.send({
          method: operation.method,
          target,
          headers,
          body: operation.body === null ? null : Buffer.from(operation.body.schema === null ? 'bytes' : '{}'),
        });
        const where = `${attempt.name} on ${operation.method} ${operation.path}`;
        expect(answer.status, where).toBe(401);
        expect(answer.headers['www-authenticate'], where).toBeDefined();
        const error = expectErrorBody(answer);
        for (const secret of secrets) expect(error, where).not.toContain(secret);
        expect(error, where).not.toMatch(/\b(acct|file|doc|wh|aact|ach|card)_[A-Za-z0-9]/);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(1_000);
    expect(resourceState()).toBe(before);
  });

  it('refuses random Authorization headers with 401 and no data', async () => {
    const protectedOperations = operations.filter((one) => one.security.length > 0 && one.method === 'GET');
    const before = resourceState();
    const details = await fc.check(
      fc.asyncProperty(
        fc.constantFrom(...protectedOperations),
        fc.oneof(
          fc.string({ maxLength: 200 }),
          fc
            .tuple(fc.constantFrom('Basic ', 'Bearer ', 'basic ', 'BEARER '), fc.string({ maxLength: 200 }))
            .map(([scheme, rest]) => scheme + rest),
          fc.tuple(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 })).map(([id, secret]) => basic(id, secret)),
          fc
            .tuple(fc.jsonValue(), fc.jsonValue(), fc.base64String({ maxLength: 44 }))
            .map(
              ([header, payload, signature]) =>
                `Bearer ${base64url(header)}.${base64url(payload)}.${signature.replaceAll('=', '')}`,
            ),
        ),
        async (operation, header) => {
          const answer = await client.send({
            method: operation.method,
            target: pathFor(operation, ['x', 'x']),
            headers: { authorization: header.replace(/[^\t\x20-\x7e]/g, '') },
            body: null,
          });
          expect(answer.status).toBe(401);
          expectErrorBody(answer);
        },
      ),
      { seed: SEED, numRuns: 300 },
    );
    expect(details.failed, `seed ${String(SEED)}: ${String(details.errorInstance)}`).toBe(false);
    expect(resourceState()).toBe(before);
  });

  it('lets the same requests through with the real credentials (the refusals above are not vacuous)', async () => {
    for (const header of [basic(sandbox.keyId, sandbox.keySecret), `Bearer ${sandbox.bearerToken}`]) {
      const answer = await client.send({
        method: 'GET',
        target: '/account',
        headers: { authorization: header },
        body: null,
      });
      expect(answer.status).toBe(200);
    }
    const other = await fetch(`${otherOrganization.baseUrl}/account`, {
      headers: { authorization: `Bearer ${otherOrganization.bearerToken}` },
    });
    expect(other.status).toBe(200);
  });
});
