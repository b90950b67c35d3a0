/**
 * GET /openapi.json: an OpenAPI 3.1.0 description of everything the sandbox serves, generated
 * from the same schemas (src/shared/bank) that validate its requests, so it cannot drift.
 * Version label and deprecations as spec §9 gives them. Written for integrators who generate
 * a client from it: every operation has an operationId in the bank's words, every schema and
 * answer an example (examples.ts), every operation the 4xx answers it can give
 * (errorAnswers.ts). Redocly's recommended rules pass with no warning
 * (tests/integration/openapi/redoclyLint.test.ts) and a typed client generated from it drives
 * a real sandbox (tests/integration/openapi/typedClient.test.ts).
 */
import { z } from 'zod';
import {
  account,
  accountApplication,
  accountApplicationCreateWithNickname,
  accountApplicationFilters,
  ach,
  businessApplication,
  businessApplicationCreateRequest,
  cardArtUploadRequest,
  cardArtUploadResponse,
  cardProduct,
  document,
  documentCreateRequest,
  errorBody,
  fileRecord,
  jsonSchemaOf,
  listEnvelope,
  organizationSettings,
  organizationSettingsUpdate,
  pendingTransaction,
  personApplication,
  personApplicationCreateRequest,
  simulationAccepted,
  simulationRequest,
  smartRetriesApproval,
  tokenRequest,
  tokenResponse,
  transaction,
  webhook,
  webhookCreateRequest,
  webhookNotification,
  webhookSend,
  webhookSendFilters,
  webhookUpdateRequest,
  FILE_MAX_BYTES,
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  type JsonSchema,
} from '../../shared/bank/index.ts';
import { LEAN_LEFT_OUT, LEAN_NULLED, type LeanResource } from '../lean/leanAnswers.ts';
import { errorResponseComponents, errorResponses, type ErrorStatus } from './errorAnswers.ts';
import { EXAMPLE_BASE_URL, EXAMPLE_IDS, SCHEMA_EXAMPLES, exampleOf, type ExampleName } from './examples.ts';

const INTERFACE_VERSION = '1.18.691-g9292fa6c';

/**
 * Who publishes the document and under what terms. The project has no public license or
 * support address yet (package.json is private; electron-builder.yml says "Copyright © 2026
 * Ledgerdesk"), so: proprietary, by reference, and the product's name. Replace both here when
 * the owner publishes them (docs/decisions/19-openapi-license-placeholder.md).
 */
const LICENSE = { name: 'Proprietary', identifier: 'LicenseRef-Ledgerdesk-Proprietary' };
const CONTACT = { name: 'Ledgerdesk' };

/** Each component schema and the definition in src/shared/bank it is generated from. */
export const COMPONENT_SCHEMAS = {
  PendingTransaction: pendingTransaction,
  Document: document,
  DocumentCreateRequest: documentCreateRequest,
  CardArtUploadRequest: cardArtUploadRequest,
  CardArtUploadResponse: cardArtUploadResponse,
  CardProduct: cardProduct,
  AccountApplication: accountApplication,
  AccountApplicationCreateRequest: accountApplicationCreateWithNickname,
  PersonApplication: personApplication,
  PersonApplicationCreateRequest: personApplicationCreateRequest,
  BusinessApplication: businessApplication,
  BusinessApplicationCreateRequest: businessApplicationCreateRequest,
  Transaction: transaction,
  Account: account,
  Ach: ach,
  File: fileRecord,
  Webhook: webhook,
  WebhookCreateRequest: webhookCreateRequest,
  WebhookUpdateRequest: webhookUpdateRequest,
  WebhookNotification: webhookNotification,
  WebhookSend: webhookSend,
  Error: errorBody,
  TokenRequest: tokenRequest,
  TokenResponse: tokenResponse,
  SimulationRequest: simulationRequest,
  SimulationAccepted: simulationAccepted,
  OrganizationSettings: organizationSettings,
  OrganizationSettingsUpdate: organizationSettingsUpdate,
  SmartRetriesApproval: smartRetriesApproval,
} as const satisfies Record<ExampleName, z.ZodType>;

/** What clients send is described as they send it (query strings before coercion, defaults optional). */
const SENT_BY_CLIENTS: ReadonlySet<ExampleName> = new Set([
  'DocumentCreateRequest',
  'AccountApplicationCreateRequest',
  'PersonApplicationCreateRequest',
  'BusinessApplicationCreateRequest',
  'CardArtUploadRequest',
  'WebhookCreateRequest',
  'WebhookUpdateRequest',
  'TokenRequest',
  'SimulationRequest',
  'OrganizationSettingsUpdate',
  'SmartRetriesApproval',
]);

/** Each list's component name, its item's, and the path it is served at (for page_next). */
const LISTS = {
  AccountList: { item: 'Account', path: '/account' },
  PendingTransactionList: { item: 'PendingTransaction', path: `/account/${EXAMPLE_IDS.account}/pending_transaction` },
  DocumentList: { item: 'Document', path: '/document' },
  FileList: { item: 'File', path: '/file' },
  CardProductList: { item: 'CardProduct', path: '/cardproduct' },
  AccountApplicationList: { item: 'AccountApplication', path: '/apply/account_application' },
  PersonApplicationList: { item: 'PersonApplication', path: '/apply/person_application' },
  BusinessApplicationList: { item: 'BusinessApplication', path: '/apply/business_application' },
  TransactionList: { item: 'Transaction', path: `/account/${EXAMPLE_IDS.account}/transaction` },
  AchList: { item: 'Ach', path: '/ach' },
  WebhookList: { item: 'Webhook', path: '/webhook' },
  WebhookSendList: { item: 'WebhookSend', path: '/webhook_send' },
} as const satisfies Record<string, { item: ExampleName; path: string }>;
type ListName = keyof typeof LISTS;

const TAGS = {
  service: 'Connectivity and this document.',
  accounts:
    "Accounts and their pending transactions (spec §4.1); their posted transactions (the real service's, not in the interface).",
  documents: 'Documents that point to uploaded files (spec §4.2), and the files themselves.',
  cardProducts: 'Card products and their card art (spec §4.3).',
  accountApplications:
    "Account applications (spec §4.4); creating them, and the person applications they name (the real service's, not in the interface).",
  ach: 'ACH transfers: the objects ach.* notifications point at.',
  webhooks: 'Webhooks and the log of their send attempts (spec §4.5, §4.6, §6).',
  sandbox:
    'Sandbox only: tokens, simulations and the organization setting. A real bank answers these differently or not at all.',
} as const;
type Tag = keyof typeof TAGS;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** Every answer carries these, as the real service's do (conventions.md; real-wire). */
const NO_STORE_HEADERS = {
  'Cache-Control': {
    description: 'Answers are never cached.',
    schema: { type: 'string', const: 'no-cache, no-store, must-revalidate' },
  },
  Pragma: { description: 'For HTTP/1.0 caches.', schema: { type: 'string', const: 'no-cache' } },
  Expires: { description: 'Already expired.', schema: { type: 'string', const: '0' } },
};

/** A JSON answer: a component and its example. Creates answer 200 too, as the real service does (not 201). */
function answer(description: string, component: ExampleName | ListName, status = '200'): Record<string, unknown> {
  return {
    [status]: {
      description,
      headers: NO_STORE_HEADERS,
      content: { 'application/json': { schema: ref(component), example: exampleOfComponent(component) } },
    },
  };
}

function exampleOfComponent(component: ExampleName | ListName): unknown {
  return component in LISTS ? listExample(component as ListName) : exampleOf(component as ExampleName);
}

/** A first page of one item, with the address of the next page (the total says there is one). */
function listExample(name: ListName): unknown {
  const { item, path } = LISTS[name];
  const first = exampleOf(item) as Record<string, unknown>;
  const cursor = typeof first['id'] === 'string' ? first['id'] : 'cHRfY3Vyc29yX2V4YW1wbGU';
  return {
    data: [first],
    page_next: `${EXAMPLE_BASE_URL}${path}?page_size=1&page_cursor=${cursor}`,
    total_estimated: 2,
  };
}

function listSchema(name: ListName): JsonSchema {
  // The envelope comes from list.ts; only its items become a reference to the resource.
  const envelope = jsonSchemaOf(listEnvelope(z.unknown()));
  const properties = envelope['properties'] as Record<string, JsonSchema>;
  return {
    ...envelope,
    // The real service leaves page_next out of some lists and total_estimated out of others
    // (what `--lean` serves): only the page itself is always there.
    required: ['data'],
    description: `A page of ${LISTS[name].item} objects, newest first.`,
    properties: {
      ...properties,
      data: { type: 'array', items: ref(LISTS[name].item) },
      page_next: {
        ...properties['page_next'],
        description:
          'Absolute URL of the next page (page_cursor set), or null when the list is exhausted. The real service leaves it out of some lists: page on from the last id then.',
      },
      total_estimated: {
        ...properties['total_estimated'],
        description:
          'How many objects the list holds, filters applied, counted up to 10000. Not sent with every list by the real service.',
      },
    },
    examples: [listExample(name)],
  };
}

function pathParameter(name: string, description: string, example: string) {
  return { name, in: 'path', required: true, description, schema: { type: 'string', minLength: 1 }, example };
}

function queryParameter(name: string, schema: JsonSchema, description: string, example?: unknown) {
  return { name, in: 'query', required: false, description, schema, ...(example === undefined ? {} : { example }) };
}

const PAGING = [
  queryParameter(
    'page_cursor',
    { type: 'string', minLength: 1 },
    "Where the page starts: the page_cursor of the previous answer's page_next (for most lists, the id of the last object seen).",
    EXAMPLE_IDS.document,
  ),
  queryParameter(
    'page_size',
    { type: 'integer', minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT },
    `At least 1, at most ${String(PAGE_SIZE_MAX)}; default ${String(PAGE_SIZE_DEFAULT)}.`,
    PAGE_SIZE_DEFAULT,
  ),
  queryParameter('from_date', { type: 'string', format: 'date' }, 'YYYY-MM-DD, inclusive.', '2026-03-01'),
  queryParameter('to_date', { type: 'string', format: 'date' }, 'YYYY-MM-DD, exclusive.', '2026-04-01'),
];

/** Examples of the id filters; an enum filter's example is its first value. */
const FILTER_EXAMPLES: Readonly<Record<string, string>> = {
  account_id: EXAMPLE_IDS.account,
  account_product_id: 'apt_6q1w8e3r5t2y7u',
  business_application_id: 'abus_2w5e8r1t4y7u0i',
  primary_person_application_id: 'apsn_5t8y1u4i7o0p2a',
  object_id: EXAMPLE_IDS.ach,
  webhook_id: EXAMPLE_IDS.webhook,
};

function filtersOf(schema: z.ZodObject): Record<string, unknown>[] {
  const properties = (jsonSchemaOf(schema, 'input').properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).map(([name, property]) => {
    const values = property['enum'];
    const example = Array.isArray(values) ? (values[0] as unknown) : FILTER_EXAMPLES[name];
    return queryParameter(name, property, `Only objects whose ${name} is this.`, example);
  });
}

function jsonBody(component: ExampleName) {
  const examples = SCHEMA_EXAMPLES[component];
  return {
    required: true,
    content: {
      'application/json': {
        schema: ref(component),
        ...(examples.length === 1
          ? { example: examples[0] }
          : {
              examples: Object.fromEntries(
                examples.map((example, index) => [exampleNameOf(example, index), { value: example }]),
              ),
            }),
      },
    },
  };
}

/** `ach.update_status` → `achUpdateStatus`: a simulation example is named after its type. */
function exampleNameOf(example: unknown, index: number): string {
  const type = (example as { type?: unknown }).type;
  if (typeof type !== 'string') return `example${String(index + 1)}`;
  return type.replace(/[._]([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

interface OperationSpec {
  operationId: string;
  summary: string;
  description?: string;
  tag: Tag;
  parameters?: unknown[];
  requestBody?: unknown;
  success: Record<string, unknown>;
  /** Besides 403, 421 and 503, which any request can get (errorAnswers.ts). */
  errors: ErrorStatus[];
  security?: unknown[];
}

const ANY_REQUEST: ErrorStatus[] = ['403', '421', '503'];
/** Authenticated with the API key, and counted by --rate-limit. */
const AUTHENTICATED: ErrorStatus[] = ['401', '429'];
/** A JSON body that is too large or of another media type. */
const BODY: ErrorStatus[] = ['400', '413', '415'];

function operation(spec: OperationSpec): Record<string, unknown> {
  const statuses = [...new Set([...spec.errors, ...ANY_REQUEST])].sort();
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description === undefined ? {} : { description: spec.description }),
    tags: [spec.tag],
    ...(spec.security === undefined ? {} : { security: spec.security }),
    parameters: spec.parameters ?? [],
    ...(spec.requestBody === undefined ? {} : { requestBody: spec.requestBody }),
    responses: { ...spec.success, ...errorResponses(statuses) },
  };
}

/** A list: filters and paging in the query (400 when wrong). */
function listOperation(operationId: string, summary: string, tag: Tag, list: ListName, parameters: unknown[] = []) {
  return operation({
    operationId,
    summary,
    tag,
    parameters: [...parameters, ...PAGING],
    success: answer(`A page of the list, newest first.`, list),
    errors: ['400', ...AUTHENTICATED],
  });
}

/** One object by its id (400 for a malformed path segment, 404 when there is none). */
function fetchOperation(operationId: string, summary: string, tag: Tag, component: ExampleName, id: unknown) {
  return operation({
    operationId,
    summary,
    tag,
    parameters: [id],
    success: answer(`The ${component} object.`, component),
    errors: ['400', '404', ...AUTHENTICATED],
  });
}

/**
 * The records the real service sends without some of the interface's fields, or with null in
 * them (what `--lean` serves, lean/leanAnswers.ts): their schemas list those fields but do not
 * require them (or allow null), so a client generated from the document reads the real bank.
 */
const LEAN_RESOURCE_OF: Partial<Record<ExampleName, LeanResource>> = {
  AccountApplication: 'account_application',
  PendingTransaction: 'pending_transaction',
  Document: 'document',
  CardProduct: 'card_product',
  Webhook: 'webhook',
  PersonApplication: 'person_application',
  BusinessApplication: 'business_application',
};

function requiredAsTheRealServiceSends(name: ExampleName, schema: JsonSchema): JsonSchema {
  const resource = LEAN_RESOURCE_OF[name];
  if (resource === undefined || !Array.isArray(schema['required'])) return schema;
  const leftOut = LEAN_LEFT_OUT[resource];
  const properties = { ...(schema['properties'] as Record<string, JsonSchema>) };
  for (const field of LEAN_NULLED[resource] ?? []) {
    const property = properties[field];
    if (property !== undefined) properties[field] = { anyOf: [property, { type: 'null' }] };
  }
  return {
    ...schema,
    properties,
    required: (schema['required'] as string[]).filter((field) => !leftOut.includes(field)),
  };
}

function schemaComponents(): Record<string, JsonSchema> {
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(COMPONENT_SCHEMAS) as [ExampleName, z.ZodType][]) {
    schemas[name] = {
      ...requiredAsTheRealServiceSends(name, jsonSchemaOf(schema, SENT_BY_CLIENTS.has(name) ? 'input' : 'output')),
      examples: [...SCHEMA_EXAMPLES[name]],
    };
  }
  for (const name of Object.keys(LISTS) as ListName[]) schemas[name] = listSchema(name);
  return schemas;
}

const PING_ANSWER = {
  type: 'object',
  required: ['status'],
  properties: { status: { type: 'string', const: 'ok' } },
  additionalProperties: {},
  examples: [{ status: 'ok' }],
};

/** Only the top of this document is described: a client needs to know it is OpenAPI 3.1. */
const DOCUMENT_ANSWER = {
  type: 'object',
  required: ['openapi', 'info', 'paths'],
  properties: {
    openapi: { type: 'string', const: '3.1.0' },
    info: { type: 'object', additionalProperties: {} },
    paths: { type: 'object', additionalProperties: {} },
  },
  additionalProperties: {},
};

export function openApiDocument(serverUrl: string): Record<string, unknown> {
  const accountId = pathParameter('account_id', 'ID of the account.', EXAMPLE_IDS.account);
  const documentId = pathParameter('document_id', 'ID of the document.', EXAMPLE_IDS.document);
  const fileId = pathParameter('file_id', 'ID of the file.', EXAMPLE_IDS.file);
  const cardProductId = pathParameter('card_product_id', 'ID of the card product.', EXAMPLE_IDS.cardProduct);
  const applicationId = pathParameter(
    'id',
    'Unique identifier of the account application.',
    EXAMPLE_IDS.accountApplication,
  );
  const personApplicationId = pathParameter(
    'person_application_id',
    'ID of the person application.',
    EXAMPLE_IDS.personApplication,
  );
  const businessApplicationId = pathParameter(
    'business_application_id',
    'ID of the business application.',
    EXAMPLE_IDS.businessApplication,
  );
  const achId = pathParameter('ach_id', 'ID of the ACH transfer.', EXAMPLE_IDS.ach);
  const webhookId = pathParameter('webhook_id', 'ID of the webhook.', EXAMPLE_IDS.webhook);
  const webhookSendId = pathParameter('webhook_send_id', 'ID of the send attempt.', EXAMPLE_IDS.webhookSend);
  const binary = { type: 'string', format: 'binary' };

  return {
    openapi: '3.1.0',
    info: {
      title: 'Banking service interface (Ledgerdesk sandbox)',
      version: INTERFACE_VERSION,
      description:
        'Pending transactions, documents, card art upload, account applications and webhooks, served by the Ledgerdesk sandbox bank. Errors are {"error": "<one sentence>"}. Lists are newest first and page with page_cursor. POSTs honour X-Idempotency-Key. Operations tagged sandbox exist only here.',
      license: LICENSE,
      contact: CONTACT,
    },
    servers: [{ url: serverUrl, description: 'This sandbox' }],
    security: [{ basicAuth: [] }, { bearerAuth: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths: {
      '/ping': {
        get: operation({
          operationId: 'ping',
          summary: 'Connectivity check: the one operation that needs no credentials.',
          tag: 'service',
          security: [],
          success: {
            '200': {
              description: 'Up.',
              headers: NO_STORE_HEADERS,
              content: { 'application/json': { schema: PING_ANSWER, example: { status: 'ok' } } },
            },
          },
          errors: [],
        }),
      },
      '/account': { get: listOperation('listAccounts', 'List accounts.', 'accounts', 'AccountList') },
      '/account/{account_id}': {
        get: fetchOperation('getAccount', 'Fetch an account.', 'accounts', 'Account', accountId),
      },
      '/account/{account_id}/pending_transaction': {
        get: operation({
          operationId: 'listPendingTransactions',
          summary: 'List the pending transactions of an account, newest first.',
          description:
            'Pending transactions have no id, so page_cursor is opaque: take it from page_next. A cursor of another account, or edited, is refused with 400.',
          tag: 'accounts',
          parameters: [accountId, ...PAGING],
          success: answer('A page of pending transactions.', 'PendingTransactionList'),
          errors: ['400', '404', ...AUTHENTICATED],
        }),
      },
      '/document': {
        post: operation({
          operationId: 'createDocument',
          summary: 'Create a document that points to an uploaded file.',
          tag: 'documents',
          requestBody: jsonBody('DocumentCreateRequest'),
          success: answer('The document (emits document.create).', 'Document'),
          errors: [...BODY, '409', ...AUTHENTICATED],
        }),
        get: listOperation('listDocuments', 'List documents.', 'documents', 'DocumentList'),
      },
      '/document/{document_id}': {
        get: fetchOperation('getDocument', 'Fetch a document.', 'documents', 'Document', documentId),
      },
      '/file': {
        post: operation({
          operationId: 'uploadFile',
          summary: `Upload a file: its raw bytes as the body, its media type in Content-Type (no multipart), at most ${String(FILE_MAX_BYTES / 1024 / 1024)} MiB.`,
          tag: 'documents',
          // An empty file is refused (400): at least one byte.
          requestBody: { required: true, content: { '*/*': { schema: { ...binary, minLength: 1 } } } },
          success: answer('The file record (emits file.create).', 'File'),
          errors: [...BODY, '409', ...AUTHENTICATED],
        }),
        get: listOperation('listFiles', 'List files.', 'documents', 'FileList'),
      },
      '/file/{file_id}': {
        get: fetchOperation('getFile', 'Fetch a file record.', 'documents', 'File', fileId),
      },
      '/file/{file_id}/content': {
        get: operation({
          operationId: 'getFileContent',
          summary: 'Download the bytes of a file, with the media type they were uploaded with.',
          tag: 'documents',
          parameters: [fileId],
          success: { '200': { description: 'The bytes.', content: { '*/*': { schema: binary } } } },
          errors: ['400', '404', ...AUTHENTICATED],
        }),
      },
      '/cardproduct': {
        get: listOperation('listCardProducts', 'List card products.', 'cardProducts', 'CardProductList'),
      },
      '/cardproduct/{card_product_id}': {
        get: fetchOperation('getCardProduct', 'Fetch a card product.', 'cardProducts', 'CardProduct', cardProductId),
      },
      '/cardproduct/{card_product_id}/uxt_cardart': {
        post: operation({
          operationId: 'uploadCardArt',
          summary: 'Upload card art (an image/png file) to the processor UX toolkit.',
          tag: 'cardProducts',
          parameters: [cardProductId],
          requestBody: jsonBody('CardArtUploadRequest'),
          success: answer('An empty object: the art is recorded on the card product.', 'CardArtUploadResponse'),
          errors: [...BODY, '404', '409', ...AUTHENTICATED],
        }),
      },
      '/account/{account_id}/transaction': {
        get: operation({
          operationId: 'listTransactions',
          summary:
            "List the posted transactions of an account, newest first (the real service's; not in the interface).",
          description: 'Posted transactions have ids (ttx_), so page_cursor is the id of the last one seen.',
          tag: 'accounts',
          parameters: [accountId, ...PAGING],
          success: answer('A page of posted transactions.', 'TransactionList'),
          errors: ['400', '404', ...AUTHENTICATED],
        }),
      },
      '/apply/account_application': {
        get: listOperation(
          'listAccountApplications',
          'List account applications.',
          'accountApplications',
          'AccountApplicationList',
          filtersOf(accountApplicationFilters),
        ),
        post: operation({
          operationId: 'createAccountApplication',
          summary: "Create an account application (the real service's; not in the interface).",
          description:
            'Submitted at once, for a person application that exists (else 400 naming the id). account_product_id, or the deprecated product nickname, which the real service now refuses (and so does the sandbox with --lean).',
          tag: 'accountApplications',
          requestBody: jsonBody('AccountApplicationCreateRequest'),
          success: answer('The application (emits account_application.create).', 'AccountApplication'),
          errors: [...BODY, '409', ...AUTHENTICATED],
        }),
      },
      '/apply/person_application': {
        get: listOperation(
          'listPersonApplications',
          'List person applications.',
          'accountApplications',
          'PersonApplicationList',
        ),
        post: operation({
          operationId: 'createPersonApplication',
          summary: "Create a person application: an applicant (the real service's; not in the interface).",
          description: 'The date of birth must be under 130 years ago, as the real service says.',
          tag: 'accountApplications',
          requestBody: jsonBody('PersonApplicationCreateRequest'),
          success: answer('The person application.', 'PersonApplication'),
          errors: [...BODY, '409', ...AUTHENTICATED],
        }),
      },
      '/apply/person_application/{person_application_id}': {
        get: fetchOperation(
          'getPersonApplication',
          'Fetch a person application.',
          'accountApplications',
          'PersonApplication',
          personApplicationId,
        ),
      },
      '/apply/business_application': {
        get: listOperation(
          'listBusinessApplications',
          'List business applications.',
          'accountApplications',
          'BusinessApplicationList',
        ),
        post: operation({
          operationId: 'createBusinessApplication',
          summary:
            "Create a business application: the business behind a business account (the real service's; not in the interface).",
          description:
            'The people it names must be person applications and its documents documents of this bank, else 400 naming the id.',
          tag: 'accountApplications',
          requestBody: jsonBody('BusinessApplicationCreateRequest'),
          success: answer('The business application.', 'BusinessApplication'),
          errors: [...BODY, '409', ...AUTHENTICATED],
        }),
      },
      '/apply/business_application/{business_application_id}': {
        get: fetchOperation(
          'getBusinessApplication',
          'Fetch a business application.',
          'accountApplications',
          'BusinessApplication',
          businessApplicationId,
        ),
      },
      '/apply/account_application/{id}': {
        get: fetchOperation(
          'getAccountApplication',
          'Fetch an account application.',
          'accountApplications',
          'AccountApplication',
          applicationId,
        ),
      },
      '/ach': { get: listOperation('listAchTransfers', 'List ACH transfers.', 'ach', 'AchList') },
      '/ach/{ach_id}': { get: fetchOperation('getAchTransfer', 'Fetch an ACH transfer.', 'ach', 'Ach', achId) },
      '/webhook': {
        post: operation({
          operationId: 'createWebhook',
          summary: 'Register a webhook: a URL and the one event it receives.',
          tag: 'webhooks',
          requestBody: jsonBody('WebhookCreateRequest'),
          success: answer('The webhook, enabled (emits webhook.create).', 'Webhook'),
          errors: [...BODY, '409', ...AUTHENTICATED],
        }),
        get: listOperation('listWebhooks', 'List webhooks.', 'webhooks', 'WebhookList'),
      },
      '/webhook/{webhook_id}': {
        get: fetchOperation('getWebhook', 'Fetch a webhook.', 'webhooks', 'Webhook', webhookId),
        patch: operation({
          operationId: 'updateWebhook',
          summary: 'Update a webhook; status enabled resets an errored one.',
          tag: 'webhooks',
          parameters: [webhookId],
          requestBody: jsonBody('WebhookUpdateRequest'),
          success: answer('The webhook (emits webhook.update).', 'Webhook'),
          errors: [...BODY, '404', ...AUTHENTICATED],
        }),
        delete: operation({
          operationId: 'deleteWebhook',
          summary: 'Delete a webhook.',
          description:
            'No body is needed; an empty one sent with Content-Type: application/json is no body (the real client does that), and a non-empty one is parsed like any other (so 413 and 415 too).',
          tag: 'webhooks',
          parameters: [webhookId],
          success: { '204': { description: 'Deleted (emits webhook.delete).', headers: NO_STORE_HEADERS } },
          errors: [...BODY, '404', ...AUTHENTICATED],
        }),
      },
      '/webhook_send': {
        get: listOperation(
          'listWebhookSends',
          'List webhook send attempts.',
          'webhooks',
          'WebhookSendList',
          filtersOf(webhookSendFilters),
        ),
      },
      '/webhook_send/{webhook_send_id}': {
        get: fetchOperation('getWebhookSend', 'Fetch one send attempt.', 'webhooks', 'WebhookSend', webhookSendId),
      },
      '/auth/token': {
        post: operation({
          operationId: 'createAuthToken',
          summary: 'Mint an HS256 bearer token for the API key (Basic authentication only).',
          tag: 'sandbox',
          security: [{ basicAuth: [] }],
          requestBody: jsonBody('TokenRequest'),
          success: answer('The token.', 'TokenResponse'),
          // Its own Basic check, before the rate limit (it is not counted).
          errors: [...BODY, '401'],
        }),
      },
      '/simulation': {
        post: operation({
          operationId: 'createSimulation',
          summary: 'Make something happen the way the real sandbox does, emitting its events.',
          tag: 'sandbox',
          requestBody: jsonBody('SimulationRequest'),
          success: answer('Accepted: what was simulated and the object it changed.', 'SimulationAccepted', '202'),
          errors: [...BODY, '404', '409', ...AUTHENTICATED],
        }),
      },
      '/sandbox/organization': {
        get: operation({
          operationId: 'getOrganizationSettings',
          summary: 'The organization type and its Smart Webhook Retries setting.',
          tag: 'sandbox',
          success: answer('The setting.', 'OrganizationSettings'),
          errors: AUTHENTICATED,
        }),
        patch: operation({
          operationId: 'updateOrganizationSettings',
          summary: 'Change the organization type, or ask for Smart Webhook Retries.',
          tag: 'sandbox',
          requestBody: jsonBody('OrganizationSettingsUpdate'),
          success: answer('The setting.', 'OrganizationSettings'),
          errors: [...BODY, ...AUTHENTICATED],
        }),
      },
      '/sandbox/organization/smart_retries/approval': {
        post: operation({
          operationId: 'decideSmartRetriesRequest',
          summary: "The bank approves or rejects a fintech's pending request for Smart Webhook Retries.",
          tag: 'sandbox',
          requestBody: jsonBody('SmartRetriesApproval'),
          success: answer('The setting.', 'OrganizationSettings'),
          errors: [...BODY, '409', ...AUTHENTICATED],
        }),
      },
      '/openapi.json': {
        get: operation({
          operationId: 'getOpenApiDocument',
          summary: 'This document.',
          tag: 'service',
          success: {
            '200': {
              description: 'OpenAPI 3.1.0.',
              headers: NO_STORE_HEADERS,
              content: {
                'application/json': {
                  schema: DOCUMENT_ANSWER,
                  example: { openapi: '3.1.0', info: { title: 'Banking service interface' }, paths: {} },
                },
              },
            },
          },
          errors: AUTHENTICATED,
        }),
      },
    },
    webhooks: {
      notification: {
        post: {
          operationId: 'receiveNotification',
          summary: "What the bank POSTs to a webhook's URL when its event happens.",
          description:
            'Fetch the object at url for its latest state: notifications can arrive out of order. Only 200 and 202 count as delivered; anything else, or no answer within the deadline, is retried up to 15 times on an exponential backoff (spec §6).',
          tags: ['webhooks'],
          security: [{}, { webhookBasicAuth: [] }],
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: ref('WebhookNotification'), example: exampleOf('WebhookNotification') },
            },
          },
          responses: {
            '200': { description: 'Received.' },
            '202': { description: 'Received, to be handled later.' },
            '4XX': { description: 'Not delivered: the attempt is recorded as error and retried.' },
          },
        },
      },
    },
    components: {
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'API key id and secret.' },
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'HS256 JWT from POST /auth/token.',
        },
        webhookBasicAuth: {
          type: 'http',
          scheme: 'basic',
          description:
            "Sent with a notification when the webhook has both basic_user and basic_secret: compare it with the webhook's.",
        },
      },
      schemas: schemaComponents(),
      responses: errorResponseComponents('#/components/schemas/Error'),
    },
  };
}
