/**
 * GET /openapi.json: an OpenAPI 3.1.0 description of everything the sandbox serves, generated
 * from the same schemas (src/shared/bank) that validate its requests, so it cannot drift.
 * Version label and deprecations as spec §9 gives them.
 */
import type { z } from 'zod';
import {
  account,
  accountApplication,
  accountApplicationCreateWithNickname,
  accountApplicationFilters,
  ach,
  cardArtUploadRequest,
  cardArtUploadResponse,
  cardProduct,
  document,
  documentCreateRequest,
  errorBody,
  fileRecord,
  jsonSchemaOf,
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
  PAGE_SIZE_DEFAULT,
  PAGE_SIZE_MAX,
  type JsonSchema,
} from '../../shared/bank/index.ts';

export const INTERFACE_VERSION = '1.18.691-g9292fa6c';

type Operation = Record<string, unknown>;

const COMPONENTS: Readonly<Record<string, z.ZodType>> = {
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
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const jsonContent = (schema: JsonSchema) => ({ 'application/json': { schema } });

const ERROR_DESCRIPTIONS = {
  '400': 'Bad input: the error names the field.',
  '401': 'Missing or invalid credentials.',
  '404': 'No such object.',
  '409':
    'Conflicts with what was done before: an X-Idempotency-Key reused for another request, or a change the object cannot make now.',
  '413': 'The request body is too large.',
  '415': 'The Content-Type of the request body is not accepted here.',
  '503': 'The sandbox is shutting down.',
} as const;
type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

function errors(...statuses: ErrorStatus[]): Record<string, unknown> {
  return Object.fromEntries(
    statuses.map((status) => [status, { description: ERROR_DESCRIPTIONS[status], content: jsonContent(ref('Error')) }]),
  );
}

/** What any operation can answer besides its success: bad input, bad credentials, nothing there, shutting down. */
const ERRORS = errors('400', '401', '404', '503');
/** What an operation with a request body can answer besides: too large, wrong media type (Fastify parses bodies of DELETE too). */
const BODY_ERRORS = errors('413', '415');
/** Operations that honour X-Idempotency-Key, or make moves an object cannot always make. */
const CONFLICT = errors('409');

/** Every answer carries these, as the real service's do (conventions.md; real-wire). */
const NO_STORE_HEADERS = {
  'Cache-Control': { schema: { type: 'string', const: 'no-cache, no-store, must-revalidate' } },
  Pragma: { schema: { type: 'string', const: 'no-cache' } },
  Expires: { schema: { type: 'string', const: '0' } },
};

/** Creates answer 200 too, as the real service does (not 201); only a simulation answers 202. */
function ok(description: string, schema: JsonSchema, status: '200' | '202' = '200'): Record<string, unknown> {
  return { [status]: { description, headers: NO_STORE_HEADERS, content: jsonContent(schema) }, ...ERRORS };
}

function listOf(name: string): JsonSchema {
  return {
    type: 'object',
    required: ['data', 'page_next', 'total_estimated'],
    properties: {
      data: { type: 'array', items: ref(name) },
      page_next: { type: ['string', 'null'], description: 'Absolute URL of the next page, or null when exhausted.' },
      total_estimated: {
        type: 'integer',
        minimum: 0,
        description: 'How many objects the list holds (filters applied), counted up to 10000.',
      },
    },
  };
}

function pathParameter(name: string, description: string) {
  return { name, in: 'path', required: true, schema: { type: 'string' }, description };
}

function queryParameter(name: string, schema: JsonSchema, description: string) {
  return { name, in: 'query', required: false, schema, description };
}

const PAGING = [
  queryParameter('page_cursor', { type: 'string' }, 'Where the page starts: the cursor of the previous page_next.'),
  queryParameter(
    'page_size',
    { type: 'integer', minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_DEFAULT },
    `At least 1, at most ${String(PAGE_SIZE_MAX)}; default ${String(PAGE_SIZE_DEFAULT)}.`,
  ),
  queryParameter('from_date', { type: 'string', format: 'date' }, 'YYYY-MM-DD, inclusive.'),
  queryParameter('to_date', { type: 'string', format: 'date' }, 'YYYY-MM-DD, exclusive.'),
];

function filtersOf(schema: z.ZodObject): Record<string, unknown>[] {
  const properties = (jsonSchemaOf(schema, 'input').properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties).map(([name, property]) => queryParameter(name, property, `Filter on ${name}.`));
}

function get(summary: string, responses: Record<string, unknown>, parameters: unknown[] = []): Operation {
  return { summary, parameters, responses };
}

function withBody(summary: string, body: JsonSchema, responses: Record<string, unknown>, parameters: unknown[] = []) {
  return {
    summary,
    parameters,
    requestBody: { required: true, content: jsonContent(body) },
    responses: { ...responses, ...BODY_ERRORS },
  };
}

export function openApiDocument(serverUrl: string): Record<string, unknown> {
  const schemas: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(COMPONENTS)) {
    schemas[name] = jsonSchemaOf(schema, name.endsWith('Request') || name.endsWith('Update') ? 'input' : 'output');
  }
  const accountId = pathParameter('account_id', 'ID of the account.');
  return {
    openapi: '3.1.0',
    info: {
      title: 'Banking service interface (Ledgerdesk sandbox)',
      version: INTERFACE_VERSION,
      description:
        'Pending transactions, documents, card art upload, account applications and webhooks, served by the Ledgerdesk sandbox bank. Sandbox-only operations are tagged sandbox.',
    },
    servers: [{ url: serverUrl, description: 'This sandbox' }],
    security: [{ basicAuth: [] }, { bearerAuth: [] }],
    components: {
      securitySchemes: {
        basicAuth: { type: 'http', scheme: 'basic', description: 'API key id and secret.' },
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'HS256 JWT from POST /auth/token.',
        },
      },
      schemas,
    },
    paths: {
      '/ping': {
        get: {
          summary: 'Connectivity check.',
          security: [],
          responses: { '200': { description: 'Up.' }, ...errors('503') },
        },
      },
      '/account': { get: get('List accounts.', ok('Accounts, newest first.', listOf('Account')), PAGING) },
      '/account/{account_id}': { get: get('Fetch an account.', ok('The account.', ref('Account')), [accountId]) },
      '/account/{account_id}/pending_transaction': {
        get: get(
          'List pending transactions, newest first (page_cursor is opaque: pending transactions have no id).',
          ok('A page of pending transactions.', listOf('PendingTransaction')),
          [accountId, ...PAGING],
        ),
      },
      '/document': {
        post: withBody('Create a document.', ref('DocumentCreateRequest'), {
          ...ok('The document.', ref('Document')),
          ...CONFLICT,
        }),
        get: get('List documents.', ok('Documents, newest first.', listOf('Document')), PAGING),
      },
      '/document/{document_id}': {
        get: get('Fetch a document.', ok('The document.', ref('Document')), [
          pathParameter('document_id', 'ID of the document.'),
        ]),
      },
      '/file': {
        post: {
          summary: 'Upload a file: raw bytes, media type in Content-Type, at most 10 MiB.',
          requestBody: { required: true, content: { '*/*': { schema: { type: 'string', format: 'binary' } } } },
          responses: { ...ok('The file record.', ref('File')), ...BODY_ERRORS, ...CONFLICT },
        },
        get: get('List files.', ok('Files, newest first.', listOf('File')), PAGING),
      },
      '/file/{file_id}': {
        get: get('Fetch a file record.', ok('The file record.', ref('File')), [
          pathParameter('file_id', 'ID of the file.'),
        ]),
      },
      '/file/{file_id}/content': {
        get: {
          summary: 'Download the bytes of a file.',
          parameters: [pathParameter('file_id', 'ID of the file.')],
          responses: { '200': { description: 'The bytes, with their media type.' }, ...ERRORS },
        },
      },
      '/cardproduct': { get: get('List card products.', ok('Card products.', listOf('CardProduct')), PAGING) },
      '/cardproduct/{card_product_id}': {
        get: get('Fetch a card product.', ok('The card product.', ref('CardProduct')), [
          pathParameter('card_product_id', 'ID of the card product.'),
        ]),
      },
      '/cardproduct/{card_product_id}/uxt_cardart': {
        post: withBody(
          'Upload card art (a PNG file) to the processor UX toolkit.',
          ref('CardArtUploadRequest'),
          { ...ok('Empty object.', ref('CardArtUploadResponse')), ...CONFLICT },
          [pathParameter('card_product_id', 'ID of the card product to upload art for.')],
        ),
      },
      '/account/{account_id}/transaction': {
        get: get(
          "List posted transactions (the real service's; not in the interface), newest first; page_cursor is the last id.",
          ok('A page of transactions.', listOf('Transaction')),
          [accountId, ...PAGING],
        ),
      },
      '/apply/account_application': {
        get: get('List account applications.', ok('Applications.', listOf('AccountApplication')), [
          ...filtersOf(accountApplicationFilters),
          ...PAGING,
        ]),
        post: withBody(
          "Create an account application (the real service's; not in the interface): submitted, for a person application that exists.",
          ref('AccountApplicationCreateRequest'),
          { ...ok('The application.', ref('AccountApplication')), ...CONFLICT },
        ),
      },
      '/apply/person_application': {
        get: get('List person applications.', ok('Person applications.', listOf('PersonApplication')), PAGING),
        post: withBody(
          "Create a person application (the real service's; not in the interface): under 130 years of age.",
          ref('PersonApplicationCreateRequest'),
          { ...ok('The person application.', ref('PersonApplication')), ...CONFLICT },
        ),
      },
      '/apply/person_application/{person_application_id}': {
        get: get('Fetch a person application.', ok('The person application.', ref('PersonApplication')), [
          pathParameter('person_application_id', 'ID of the person application.'),
        ]),
      },
      '/apply/account_application/{id}': {
        get: get('Fetch an account application.', ok('The application.', ref('AccountApplication')), [
          pathParameter('id', 'Unique identifier of the account application.'),
        ]),
      },
      '/ach': { get: get('List ACH transfers.', ok('ACH transfers.', listOf('Ach')), PAGING) },
      '/ach/{ach_id}': {
        get: get('Fetch an ACH transfer.', ok('The ACH.', ref('Ach')), [pathParameter('ach_id', 'ID of the ACH.')]),
      },
      '/webhook': {
        post: withBody('Register a webhook.', ref('WebhookCreateRequest'), {
          ...ok('The webhook.', ref('Webhook')),
          ...CONFLICT,
        }),
        get: get('List webhooks.', ok('Webhooks.', listOf('Webhook')), PAGING),
      },
      '/webhook/{webhook_id}': {
        get: get('Fetch a webhook.', ok('The webhook.', ref('Webhook')), [
          pathParameter('webhook_id', 'ID of the webhook.'),
        ]),
        patch: withBody(
          'Update a webhook (status enabled resets an errored webhook).',
          ref('WebhookUpdateRequest'),
          ok('The webhook.', ref('Webhook')),
          [pathParameter('webhook_id', 'ID of the webhook.')],
        ),
        delete: {
          summary: 'Delete a webhook.',
          parameters: [pathParameter('webhook_id', 'ID of the webhook.')],
          // No body is needed; an empty one sent with Content-Type: application/json is no body (the
          // real client does that), and a non-empty one is parsed like any other (so 413 and 415 too).
          responses: { '204': { description: 'Deleted.', headers: NO_STORE_HEADERS }, ...ERRORS, ...BODY_ERRORS },
        },
      },
      '/webhook_send': {
        get: get('List webhook send attempts.', ok('Send attempts, newest first.', listOf('WebhookSend')), [
          ...filtersOf(webhookSendFilters),
          ...PAGING,
        ]),
      },
      '/webhook_send/{webhook_send_id}': {
        get: get('Fetch one send attempt.', ok('The attempt.', ref('WebhookSend')), [
          pathParameter('webhook_send_id', 'ID of the attempt.'),
        ]),
      },
      '/auth/token': {
        post: {
          ...withBody(
            'Sandbox only: mint an HS256 bearer token (Basic auth).',
            ref('TokenRequest'),
            ok('The token.', ref('TokenResponse')),
          ),
          tags: ['sandbox'],
          security: [{ basicAuth: [] }],
        },
      },
      '/simulation': {
        post: {
          ...withBody('Sandbox only: simulate a change.', ref('SimulationRequest'), {
            ...ok('Accepted.', ref('SimulationAccepted'), '202'),
            ...CONFLICT,
          }),
          tags: ['sandbox'],
        },
      },
      '/sandbox/organization': {
        get: {
          ...get('Sandbox only: the Smart Webhook Retries setting.', ok('The setting.', ref('OrganizationSettings'))),
          tags: ['sandbox'],
        },
        patch: {
          ...withBody(
            'Sandbox only: change the organization type or ask for Smart Webhook Retries.',
            ref('OrganizationSettingsUpdate'),
            ok('The setting.', ref('OrganizationSettings')),
          ),
          tags: ['sandbox'],
        },
      },
      '/sandbox/organization/smart_retries/approval': {
        post: {
          ...withBody(
            "Sandbox only: the bank approves or rejects a fintech's pending request.",
            ref('SmartRetriesApproval'),
            { ...ok('The setting.', ref('OrganizationSettings')), ...CONFLICT },
          ),
          tags: ['sandbox'],
        },
      },
      '/openapi.json': { get: get('This document.', { '200': { description: 'OpenAPI 3.1.0.' }, ...ERRORS }) },
    },
  };
}
