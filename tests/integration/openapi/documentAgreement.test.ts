/**
 * The document and the server agree (issue 27, item 7). A property-based run (fast-check,
 * fixed seed, a bounded number of requests) builds request bodies around every rule the server
 * enforces: non-blank text, real dates, e-mail addresses, absolute http(s) webhook URLs,
 * basic_user with basic_secret, a PATCH that changes something, non-zero and positive amounts,
 * an account product given one way or the other. Each body is judged twice, by a JSON Schema
 * 2020-12 validator (ajv with its formats) reading the served `/openapi.json`, and by a real
 * sandbox: the sandbox refuses with 400 exactly the bodies the document calls invalid, and
 * every answer it gives is valid against the answer's schema in the document. Then every list
 * and record the sandbox serves, in its own shapes and in `--lean` (the real service's), is
 * valid against the document's answer schemas: they require only what the real bank sends.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountProductIdOf } from '../../../src/sandbox/accountProducts.ts';
import { clientOf, type Reply, type SandboxClient } from '../sandbox/sandboxClient.ts';
import { startSandbox } from '../../../src/sandbox/index.ts';

const SEED = 20_261_127;
const RUNS_PER_OPERATION = 60;

// ajv-formats is CommonJS: its function is the module's default export, or that export's own default.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as unknown as (
  ajv: Ajv2020,
) => Ajv2020;

interface OpenApiDocument {
  components: { schemas: Record<string, unknown> };
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>
  >;
}

let receiver: Server;
let hookUrl: string;
let bank: SandboxClient;
let lean: SandboxClient;
let ajv: Ajv2020;
let document: OpenApiDocument;

function validatorOf(schema: unknown): ValidateFunction {
  return ajv.compile({ $ref: `openapi${(schema as { $ref: string }).$ref}` });
}

function component(name: string): ValidateFunction {
  return validatorOf({ $ref: `#/components/schemas/${name}` });
}

/** The validator of an operation's 200 answer, or null when it is not JSON. */
function answerValidator(path: string, method: string): ValidateFunction | null {
  const schema = document.paths[path]?.[method]?.responses['200']?.content?.['application/json']?.schema;
  return schema === undefined ? null : validatorOf(schema);
}

function problemsOf(validate: ValidateFunction): string {
  return ajv.errorsText(validate.errors, { separator: '; ' });
}

beforeAll(async () => {
  receiver = createServer((incoming, response) => {
    incoming.resume();
    incoming.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}`;
  bank = clientOf(await startSandbox({ accounts: 2, pendingTransactionsPerAccount: 5 }));
  lean = clientOf(await startSandbox({ accounts: 2, pendingTransactionsPerAccount: 5, lean: true }));
  const served = await bank.get('/openapi.json');
  expect(served.status).toBe(200);
  document = served.body as OpenApiDocument;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  // The document is one schema resource whose components are reached by JSON pointer.
  ajv.addSchema({ $id: 'openapi', components: document.components });
});

afterAll(async () => {
  await bank.sandbox.close();
  await lean.sandbox.close();
  await new Promise<void>((resolve) => {
    receiver.closeAllConnections();
    receiver.close(() => {
      resolve();
    });
  });
});

/** A field left out, or one of the given values. */
function maybe<Value>(...values: Value[]): fc.Arbitrary<Value | undefined> {
  return fc.option(fc.constantFrom(...values), { nil: undefined, freq: 4 });
}

function withoutUndefined(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined));
}

const EMAILS = [
  'dana@example.org',
  'dana.okafor+bank@sub.example.co',
  "o'brien@example.com",
  'dana@example-.org',
  'dana@-example.org',
  'dana@ex..org',
  'dana.@example.org',
  '.dana@example.org',
  'dana@example',
  'dana@example.c',
  'dana example@example.org',
  'dana@@example.org',
  '',
];
const DATES = ['1990-04-12', '2000-02-29', '1990-02-30', '1900-02-29', '1990-13-01', '1990-4-12', '19900412'];
const TEXTS = ['Dana', ' Dana ', '   ', '', '\t\n'];
const URL_FORMS = [
  (base: string) => `${base}/hooks/a`,
  (base: string) => `${base.replace('http', 'HTTP')}/hooks/b?x=1`,
  (base: string) => base.replace('http://', 'http:'),
  (base: string) => ` ${base}/hooks/c`,
  (base: string) => `${base}/hooks/d e`,
  (base: string) => base.replace('http', 'ftp'),
  () => 'http://',
  () => '/hooks/relative',
  () => '',
];
const AMOUNTS = ['1.00', '0.01', '-1.00', '-0.01', '0.00', '-0.00', '000.00', '10', '1.5', 'abc'];

interface Trial {
  method: 'POST' | 'PATCH';
  path: string;
  /** The operation in the document, as its path is written there. */
  documented: string;
  component: string;
  body: Record<string, unknown>;
}

function webhookCreates(): fc.Arbitrary<Trial> {
  return fc
    .record({
      event: fc.constantFrom('document.create', 'Document.create', ''),
      url: fc.constantFrom(...URL_FORMS).map((form) => form(hookUrl)),
      basic_user: fc.option(fc.constantFrom('bank', '', null), { nil: undefined }),
      basic_secret: fc.option(fc.constantFrom('s3cret', '', null), { nil: undefined }),
    })
    .map((body) => ({
      method: 'POST',
      path: '/webhook',
      documented: '/webhook',
      component: 'WebhookCreateRequest',
      body: withoutUndefined(body),
    }));
}

function webhookUpdates(webhookId: string): fc.Arbitrary<Trial> {
  return fc
    .record({
      url: maybe(...URL_FORMS.map((form) => form(hookUrl))),
      status: maybe('enabled', 'disabled', 'error'),
      // As a pair (one alone depends on what the webhook holds, which the document says in words).
      credentials: maybe<[string | null, string | null]>(
        ['bank', 's3cret'],
        [null, null],
        ['bank', null],
        [null, 's3cret'],
        ['', 's3cret'],
      ),
    })
    .map(({ credentials, ...body }) => ({
      method: 'PATCH',
      path: `/webhook/${webhookId}`,
      documented: '/webhook/{webhook_id}',
      component: 'WebhookUpdateRequest',
      body: withoutUndefined({
        ...body,
        ...(credentials === undefined ? {} : { basic_user: credentials[0], basic_secret: credentials[1] }),
      }),
    }));
}

function personApplications(): fc.Arbitrary<Trial> {
  return fc
    .record({
      first_name: fc.constantFrom(...TEXTS),
      last_name: fc.constantFrom('Okafor', '  '),
      date_of_birth: fc.constantFrom(...DATES),
      email_address: fc.constantFrom(...EMAILS),
      city: fc.constantFrom(...TEXTS),
    })
    .map(({ city, ...person }) => ({
      method: 'POST',
      path: '/apply/person_application',
      documented: '/apply/person_application',
      component: 'PersonApplicationCreateRequest',
      body: {
        ...person,
        phone_number: '2025550143',
        citizenship: 'US',
        physical_address: { street_line_1: '1600 Pennsylvania Ave NW', city, state: 'DC', postal_code: '20500' },
      },
    }));
}

function simulations(accountId: string, personApplicationId: string): fc.Arbitrary<Trial> {
  const trial = (body: Record<string, unknown>): Trial => ({
    method: 'POST',
    path: '/simulation',
    documented: '/simulation',
    component: 'SimulationRequest',
    body,
  });
  return fc.oneof(
    fc
      .record({ amount: fc.constantFrom(...AMOUNTS), direction: fc.constantFrom('credit', 'debit') })
      .map((simulation) => trial({ type: 'ach.create', simulation: { account_id: accountId, ...simulation } })),
    fc.record({ amount: fc.constantFrom(...AMOUNTS), desc: maybe(...TEXTS) }).map((simulation) =>
      trial({
        type: 'account.pending_transaction',
        simulation: withoutUndefined({ account_id: accountId, ...simulation }),
      }),
    ),
    fc.record({ email_address: maybe(...EMAILS), phone_number: maybe('2025550100') }).map((change) =>
      trial({
        type: 'person_application.update',
        simulation: withoutUndefined({ person_application_id: personApplicationId, ...change }),
      }),
    ),
  );
}

function accountApplications(personApplicationId: string): fc.Arbitrary<Trial> {
  return fc
    .record({
      account_product_id: maybe(accountProductIdOf('personal_checking')),
      product: maybe('personal_checking', 'no_such_product'),
    })
    .map((chosen) => ({
      method: 'POST',
      path: '/apply/account_application',
      documented: '/apply/account_application',
      component: 'AccountApplicationCreateRequest',
      body: withoutUndefined({ primary_person_application_id: personApplicationId, ...chosen }),
    }));
}

function organizationUpdates(): fc.Arbitrary<Trial> {
  return fc
    .record({ smart_retries: maybe(true, false), organization_type: maybe('fintech', 'nonsense') })
    .map((body) => ({
      method: 'PATCH',
      path: '/sandbox/organization',
      documented: '/sandbox/organization',
      component: 'OrganizationSettingsUpdate',
      body: withoutUndefined(body),
    }));
}

async function judge(trial: Trial): Promise<void> {
  const validRequest = component(trial.component);
  const documentSays = validRequest(trial.body);
  const reply: Reply = await bank.call(trial.method, trial.path, { body: trial.body });
  const said = `${trial.method} ${trial.path} ${JSON.stringify(trial.body)} → ${String(reply.status)} ${reply.text.slice(0, 300)}`;
  // 404 and 409 are about the bank's state (an unknown id, a move it cannot make now), not the body's shape.
  const serverTook = reply.status !== 400;
  expect([200, 202, 400, 404, 409], said).toContain(reply.status);
  expect(
    serverTook,
    documentSays
      ? `the document takes this body, the sandbox refused it: ${said}`
      : `the document refuses this body (${problemsOf(validRequest)}), the sandbox took it: ${said}`,
  ).toBe(documentSays);
  if (reply.status === 200 || reply.status === 202) {
    const validAnswer = answerValidator(trial.documented, trial.method.toLowerCase());
    if (validAnswer !== null) {
      expect(
        validAnswer(reply.body),
        `the answer disagrees with the document: ${problemsOf(validAnswer)}; ${said}`,
      ).toBe(true);
    }
  }
}

describe('the document and the sandbox agree', () => {
  it('on every body a property run builds around the rules the server enforces', async () => {
    const accountId = bank.sandbox.demo.accounts[0] ?? '';
    const personApplicationId = bank.sandbox.demo.personApplications[0] ?? '';
    const created = await bank.call('POST', '/webhook', { body: { event: 'document.create', url: `${hookUrl}/own` } });
    expect(created.status).toBe(200);
    const webhookId = (created.body as { id: string }).id;
    const trials = fc.oneof(
      webhookCreates(),
      webhookUpdates(webhookId),
      personApplications(),
      simulations(accountId, personApplicationId),
      accountApplications(personApplicationId),
      organizationUpdates(),
    );
    await fc.assert(fc.asyncProperty(trials, judge), { seed: SEED, numRuns: RUNS_PER_OPERATION * 6 });
  });

  it('on the rules named in the issue, one by one', async () => {
    const personApplicationId = bank.sandbox.demo.personApplications[0] ?? '';
    // The address the issue found accepted: a domain label that ends with a hyphen.
    await judge({
      method: 'POST',
      path: '/simulation',
      documented: '/simulation',
      component: 'SimulationRequest',
      body: {
        type: 'person_application.update',
        simulation: { person_application_id: personApplicationId, email_address: 'dana@example-.org' },
      },
    });
    const personSchema = component('PersonApplicationCreateRequest');
    expect(personSchema({ ...exampleOf('PersonApplicationCreateRequest') })).toBe(true);
    expect(personSchema({ ...exampleOf('PersonApplicationCreateRequest'), email_address: 'dana@example-.org' })).toBe(
      false,
    );
    expect(component('WebhookUpdateRequest')({})).toBe(false);
    expect(component('WebhookCreateRequest')({ event: 'ach.create', url: `${hookUrl}/x`, basic_user: 'bank' })).toBe(
      false,
    );
    // An empty file: refused by the sandbox, and the document's upload takes at least one byte.
    const emptyFile = await bank.call('POST', '/file', {
      raw: Buffer.alloc(0),
      headers: { 'content-type': 'image/png' },
    });
    expect(emptyFile.status).toBe(400);
    const upload = (
      document.paths['/file']?.['post'] as unknown as {
        requestBody: { content: Record<string, { schema: { minLength?: number } }> };
      }
    ).requestBody.content['*/*']?.schema;
    expect(upload?.minLength).toBe(1);
  });
});

function exampleOf(name: string): Record<string, unknown> {
  const schema = document.components.schemas[name] as { examples: Record<string, unknown>[] };
  return { ...schema.examples[0] };
}

describe('answers require only what the real bank sends', () => {
  const LISTS = [
    '/account',
    '/document',
    '/file',
    '/cardproduct',
    '/apply/account_application',
    '/apply/person_application',
    '/apply/business_application',
    '/ach',
    '/webhook',
    '/webhook_send',
  ];
  /** The record path of each list, where the records' ids are fetched one by one. */
  const RECORD_OF: Record<string, string> = {
    '/account': '/account/{account_id}',
    '/document': '/document/{document_id}',
    '/file': '/file/{file_id}',
    '/cardproduct': '/cardproduct/{card_product_id}',
    '/apply/account_application': '/apply/account_application/{id}',
    '/apply/person_application': '/apply/person_application/{person_application_id}',
    '/apply/business_application': '/apply/business_application/{business_application_id}',
    '/ach': '/ach/{ach_id}',
    '/webhook': '/webhook/{webhook_id}',
    '/webhook_send': '/webhook_send/{webhook_send_id}',
  };

  async function checkServed(client: SandboxClient, shape: string): Promise<number> {
    let checked = 0;
    const expectValid = (path: string, documented: string, reply: Reply) => {
      expect(reply.status, `${shape} GET ${path}`).toBe(200);
      const validate = answerValidator(documented, 'get');
      expect(validate, documented).not.toBeNull();
      if (validate === null) return;
      expect(validate(reply.body), `${shape} GET ${path}: ${problemsOf(validate)}`).toBe(true);
      checked += 1;
    };
    await client.call('POST', '/webhook', {
      body: { event: 'account.update', url: `${hookUrl}/${shape}`, basic_user: 'bank', basic_secret: 's3cret' },
    });
    const accountId = client.sandbox.demo.accounts[0] ?? '';
    for (const [path, documented] of [
      [`/account/${accountId}/pending_transaction`, '/account/{account_id}/pending_transaction'],
      [`/account/${accountId}/transaction`, '/account/{account_id}/transaction'],
    ] as const) {
      expectValid(path, documented, await client.get(`${path}?page_size=3`));
    }
    for (const list of LISTS) {
      const page = await client.get(`${list}?page_size=3`);
      expectValid(list, list, page);
      const first = (page.body as { data: { id?: string }[] }).data[0];
      const record = RECORD_OF[list];
      if (first?.id !== undefined && record !== undefined) {
        expectValid(record, record, await client.get(record.replace(/\{[^}]+\}/, first.id)));
      }
    }
    return checked;
  }

  it('in the sandbox’s own shapes', async () => {
    expect(await checkServed(bank, 'own')).toBeGreaterThan(LISTS.length);
  });

  it('in the real service’s shapes (--lean)', async () => {
    expect(await checkServed(lean, 'lean')).toBeGreaterThan(LISTS.length);
  });
});
