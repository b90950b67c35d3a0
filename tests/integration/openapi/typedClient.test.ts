/**
 * The generated-client round trip: a typed openapi-fetch client, built on the types
 * openapi-typescript generated from the served document (bankApi.ts, kept fresh by
 * bankApiTypes.test.ts), drives a real sandbox the way an integrator's code would: list
 * pending transactions page by page, upload a file and create a document from it, register a
 * webhook and receive its notification, and read the typed errors. Every call here is checked
 * by `npm run typecheck` against those types, and every answer is checked at run time against
 * the schema the document gives for it (support/documentSchemas.ts).
 */
import createClient, { type Client } from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.ts';
import { solidPng } from '../../../src/sandbox/seed/pngImage.ts';
import { eventually } from '../sandbox/sandboxClient.ts';
import { startReceiver, type WebhookReceiver } from '../sandbox/webhookReceiver.ts';
import type { components, paths, webhooks } from './bankApi.ts';
import { DocumentSchemas } from './support/documentSchemas.ts';

type Schemas = components['schemas'];
type Notification = webhooks['notification']['post']['requestBody']['content']['application/json'];

let sandbox: RunningSandbox;
let receiver: WebhookReceiver;
let bank: Client<paths>;
let schemas: DocumentSchemas;

function basic(user: string, secret: string): string {
  return 'Basic ' + Buffer.from(`${user}:${secret}`).toString('base64');
}

/** The answer is what the document says this operation answers with this status. */
function expectDescribed(path: keyof paths, method: string, response: Response, body: unknown): void {
  const parsed = schemas.answer(path, method, response.status).safeParse(body);
  expect(parsed.error?.issues ?? [], `${method.toUpperCase()} ${path} ${String(response.status)}`).toEqual([]);
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataFile: ':memory:', accounts: 2, pendingTransactionsPerAccount: 7 });
  receiver = await startReceiver();
  bank = createClient<paths>({
    baseUrl: sandbox.baseUrl,
    headers: { Authorization: basic(sandbox.keyId, sandbox.keySecret) },
  });
  const { data, response } = await bank.GET('/openapi.json');
  expect(response.status).toBe(200);
  schemas = new DocumentSchemas(data);
});

afterAll(async () => {
  await receiver.close();
  await sandbox.close();
});

describe('a client generated from GET /openapi.json, against a real sandbox', () => {
  it('lists the pending transactions of an account, page after page (listAccounts, listPendingTransactions)', async () => {
    const accounts = await bank.GET('/account', { params: { query: { page_size: 10 } } });
    expectDescribed('/account', 'get', accounts.response, accounts.data);
    const accountId = accounts.data?.data[0]?.id;
    expect(accountId).toMatch(/^acct_/);
    if (accountId === undefined) return;

    const seen: Schemas['PendingTransaction'][] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page += 1) {
      const { data, error, response } = await bank.GET('/account/{account_id}/pending_transaction', {
        params: {
          path: { account_id: accountId },
          query: { page_size: 3, ...(cursor === undefined ? {} : { page_cursor: cursor }) },
        },
      });
      expect(error).toBeUndefined();
      expectDescribed('/account/{account_id}/pending_transaction', 'get', response, data);
      if (data === undefined) return;
      seen.push(...data.data);
      // The real service leaves page_next out of some lists; the document says so, and the type does.
      if (data.page_next === null || data.page_next === undefined) break;
      // The cursor is opaque: an integrator takes it from page_next, as the document says.
      cursor = new URL(data.page_next).searchParams.get('page_cursor') ?? undefined;
    }
    expect(seen).toHaveLength(7);
    for (const transaction of seen) {
      expect(transaction.account_id).toBe(accountId);
      expect(transaction.amount).toMatch(/^-?[0-9]+[.][0-9]{2}$/);
    }
    const newestFirst = seen.map((transaction) => transaction.extended_timestamp_precise);
    expect([...newestFirst].sort().reverse()).toEqual(newestFirst);
  });

  it('registers a webhook, uploads a file, creates a document from it and receives document.create (createWebhook, uploadFile, createDocument)', async () => {
    const created = await bank.POST('/webhook', {
      body: {
        event: 'document.create',
        url: `${receiver.url}/hooks/documents`,
        basic_user: 'bank',
        basic_secret: 'a-long-random-secret',
      },
    });
    expect(created.error).toBeUndefined();
    expectDescribed('/webhook', 'post', created.response, created.data);
    const webhook = created.data;
    expect(webhook?.status).toBe('enabled');
    expect(webhook?.basic_user).toBe('bank');
    // basic_secret is typed `null` (never served); openapi-fetch's answer types drop a property
    // whose only type is null (its Readable<T> helper), so it is read through the index signature.
    expect(webhook?.['basic_secret']).toBeNull();

    // The file's bytes go up as they are, with their own media type (the body is typed Blob).
    const png = solidPng(4, 3, [200, 30, 60]);
    const uploaded = await bank.POST('/file', {
      body: new Blob([png], { type: 'image/png' }),
      bodySerializer: (body) => body,
      headers: { 'Content-Type': 'image/png' },
    });
    expect(uploaded.error).toBeUndefined();
    expectDescribed('/file', 'post', uploaded.response, uploaded.data);
    const file: Schemas['File'] | undefined = uploaded.data;
    expect(file?.content_type).toBe('image/png');
    expect(file?.content_length).toBe(png.length);
    if (file === undefined) return;

    const bytes = await bank.GET('/file/{file_id}/content', {
      params: { path: { file_id: file.id } },
      parseAs: 'blob',
    });
    expect(bytes.response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await (bytes.data as Blob).arrayBuffer()).equals(png)).toBe(true);

    const made = await bank.POST('/document', {
      body: {
        type: 'passport',
        name: 'Passport, photo page',
        file_id: file.id,
        fields: { date_of_birth: '1990-04-12' },
      },
      headers: { 'X-Idempotency-Key': 'typed-client-document-1' },
    });
    expect(made.error).toBeUndefined();
    expectDescribed('/document', 'post', made.response, made.data);
    const document: Schemas['Document'] | undefined = made.data;
    expect(document?.file_id).toBe(file.id);
    expect(document?.bankdata).toEqual({});
    if (document === undefined) return;

    const fetched = await bank.GET('/document/{document_id}', { params: { path: { document_id: document.id } } });
    expectDescribed('/document/{document_id}', 'get', fetched.response, fetched.data);
    expect(fetched.data).toEqual(document);

    const arrived = await eventually(
      () => receiver.received.find((notification) => notification.body['id'] === document.id),
      'the document.create notification',
    );
    const notification = arrived.body as Notification;
    expect(schemas.component('WebhookNotification').safeParse(notification).error?.issues ?? []).toEqual([]);
    expect(notification).toEqual({
      event: 'document.create',
      op: 'create',
      id: document.id,
      url: `${sandbox.baseUrl}/document/${document.id}`,
    });
    expect(arrived.authorization).toBe(basic('bank', 'a-long-random-secret'));

    const sends = await eventually(async () => {
      const answer = await bank.GET('/webhook_send', {
        params: { query: { webhook_id: webhook?.id ?? '', object_id: document.id, status: 'sent' } },
      });
      expectDescribed('/webhook_send', 'get', answer.response, answer.data);
      return answer.data?.data.length === 1 ? answer.data.data : undefined;
    }, 'the send record');
    expect(sends[0]).toMatchObject({ object_id: document.id, status: 'sent', attempt_number: 0, will_retry: false });
  });

  it('fetches an account application and uploads card art (getAccountApplication, uploadCardArt)', async () => {
    const applications = await bank.GET('/apply/account_application', { params: { query: { status: 'approved' } } });
    expectDescribed('/apply/account_application', 'get', applications.response, applications.data);
    const approved = applications.data?.data[0];
    expect(approved?.status).toBe('approved');
    if (approved === undefined) return;
    const application = await bank.GET('/apply/account_application/{id}', { params: { path: { id: approved.id } } });
    expectDescribed('/apply/account_application/{id}', 'get', application.response, application.data);
    expect(application.data?.account_id).toMatch(/^acct_/);

    const products = await bank.GET('/cardproduct');
    const product = products.data?.data[0];
    expect(product?.id).toMatch(/^cdpt_/);
    const art = await bank.POST('/file', {
      body: new Blob([solidPng(8, 5, [10, 90, 200])], { type: 'image/png' }),
      bodySerializer: (body) => body,
      headers: { 'Content-Type': 'image/png' },
    });
    if (product === undefined || art.data === undefined) throw new Error('No card product or art file.');
    const uploaded = await bank.POST('/cardproduct/{card_product_id}/uxt_cardart', {
      params: { path: { card_product_id: product.id } },
      body: { asset_type: 'back', file_id: art.data.id },
    });
    expect(uploaded.response.status).toBe(200);
    expectDescribed('/cardproduct/{card_product_id}/uxt_cardart', 'post', uploaded.response, uploaded.data);
    const after = await bank.GET('/cardproduct/{card_product_id}', {
      params: { path: { card_product_id: product.id } },
    });
    expect(after.data?.card_back_image_file_id).toBe(art.data.id);
  });

  it('reads the errors the document lists, typed as Error (404, 400, 409, 401)', async () => {
    const missing = await bank.GET('/document/{document_id}', {
      params: { path: { document_id: 'doc_does_not_exist' } },
    });
    expect(missing.response.status).toBe(404);
    expectDescribed('/document/{document_id}', 'get', missing.response, missing.error);
    const notFound: Schemas['Error'] | undefined = missing.error;
    expect(notFound?.error).toBe('No document with id doc_does_not_exist.');

    // A body the types accept but the server refuses (the file does not exist): 400, named.
    const refused = await bank.POST('/document', {
      body: { type: 'other', name: 'Scan', file_id: 'file_missing', fields: {} },
    });
    expect(refused.response.status).toBe(400);
    expectDescribed('/document', 'post', refused.response, refused.error);
    expect(refused.error?.error).toContain('file_id');

    const first = await bank.POST('/simulation', {
      body: { type: 'account_application.create', simulation: { ownership_type: 'business' } },
      headers: { 'X-Idempotency-Key': 'typed-client-simulation' },
    });
    expect(first.response.status).toBe(202);
    expectDescribed('/simulation', 'post', first.response, first.data);
    const reused = await bank.POST('/simulation', {
      body: { type: 'account_application.create', simulation: { ownership_type: 'personal' } },
      headers: { 'X-Idempotency-Key': 'typed-client-simulation' },
    });
    expect(reused.response.status).toBe(409);
    expectDescribed('/simulation', 'post', reused.response, reused.error);

    const stranger = createClient<paths>({
      baseUrl: sandbox.baseUrl,
      headers: { Authorization: basic('key_x', 'wrong') },
    });
    const unauthorized = await stranger.GET('/webhook');
    expect(unauthorized.response.status).toBe(401);
    expectDescribed('/webhook', 'get', unauthorized.response, unauthorized.error);
    expect(unauthorized.response.headers.get('www-authenticate')).toContain('Basic');
  });

  it('would catch an answer the document does not describe', () => {
    // The run-time check is not a pass-through: a number where the document says a money string fails.
    const page = {
      data: [
        {
          ...(
            schemas.resolved({ $ref: '#/components/schemas/PendingTransaction' }) as {
              examples: Record<string, unknown>[];
            }
          ).examples[0],
          amount: 12.5,
        },
      ],
      page_next: null,
      total_estimated: 1,
    };
    expect(schemas.answer('/account/{account_id}/pending_transaction', 'get', 200).safeParse(page).success).toBe(false);
  });
});
