/**
 * What the OpenAPI document promises integrators, checked on the document itself (Redocly's
 * rules run on the served one in tests/integration/openapi/redoclyLint.test.ts): an
 * operationId on every operation, an example on every schema and every JSON answer, each
 * example accepted by the definition in src/shared/bank it illustrates, and the 4xx answers
 * of every operation with the error body.
 */
import { describe, expect, it } from 'vitest';
import { parseWith } from '../../../src/shared/bank/index.ts';
import { COMPONENT_SCHEMAS, openApiDocument } from '../../../src/sandbox/openapi/openApiDocument.ts';
import { SCHEMA_EXAMPLES, type ExampleName } from '../../../src/sandbox/openapi/examples.ts';

type Json = Record<string, unknown>;

const document = openApiDocument('http://127.0.0.1:4010') as {
  info: Json;
  paths: Record<string, Record<string, Json>>;
  webhooks: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
};

function resolved(value: unknown): Json {
  const record = value as Json;
  const reference = record['$ref'];
  if (typeof reference !== 'string') return record;
  const [, section, name] = /^#\/components\/(\w+)\/(\w+)$/.exec(reference) ?? [];
  return resolved((document.components as Record<string, Record<string, unknown>>)[section ?? '']?.[name ?? '']);
}

const operations = [
  ...Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ where: `${method.toUpperCase()} ${path}`, operation })),
  ),
  ...Object.entries(document.webhooks).flatMap(([name, item]) =>
    Object.entries(item).map(([method, operation]) => ({ where: `webhook ${name} ${method}`, operation })),
  ),
];

describe('the OpenAPI document', () => {
  it('names every operation in the bank words, once each', () => {
    const ids = operations.map(({ operation }) => operation['operationId']);
    expect(ids.every((id) => typeof id === 'string' && /^[a-z][A-Za-z]+$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const byPath = Object.fromEntries(operations.map(({ where, operation }) => [where, operation['operationId']]));
    expect(byPath).toMatchObject({
      'GET /account/{account_id}/pending_transaction': 'listPendingTransactions',
      'POST /document': 'createDocument',
      'POST /cardproduct/{card_product_id}/uxt_cardart': 'uploadCardArt',
      'GET /apply/account_application/{id}': 'getAccountApplication',
      'GET /webhook_send': 'listWebhookSends',
      'POST /webhook': 'createWebhook',
      'PATCH /webhook/{webhook_id}': 'updateWebhook',
      'POST /file': 'uploadFile',
      'POST /simulation': 'createSimulation',
    });
  });

  it('gives every schema an example its definition in src/shared/bank accepts', () => {
    for (const [name, schema] of Object.entries(document.components.schemas)) {
      expect(Array.isArray(schema['examples']) && schema['examples'].length > 0, name).toBe(true);
    }
    for (const [name, definition] of Object.entries(COMPONENT_SCHEMAS)) {
      for (const example of SCHEMA_EXAMPLES[name as ExampleName]) {
        const parsed = parseWith(definition, example);
        expect(parsed.ok ? [] : parsed.problems, name).toEqual([]);
      }
    }
    // One example of each simulation the sandbox runs.
    expect(SCHEMA_EXAMPLES.SimulationRequest.map((example) => example.type)).toEqual([
      'ach.create',
      'ach.update_status',
      'account.pending_transaction',
      'account_application.update_status',
      'account_application.create',
      'person_application.update',
      'webhook.error',
    ]);
  });

  it('gives every JSON answer and request body an example', () => {
    for (const { where, operation } of operations) {
      const bodies = [
        ...Object.entries(operation['responses'] as Json).map(([status, answer]) => ({
          what: `${where} ${status}`,
          content: resolved(answer)['content'] as Json | undefined,
        })),
        { what: `${where} request body`, content: (operation['requestBody'] as Json | undefined)?.['content'] as Json },
      ];
      for (const { what, content } of bodies) {
        const json = content?.['application/json'] as Json | undefined;
        if (json === undefined) continue;
        expect('example' in json || 'examples' in json, what).toBe(true);
      }
    }
  });

  it('lists the 4xx answers of every operation, each with the error body', () => {
    for (const { where, operation } of operations) {
      const statuses = Object.keys(operation['responses'] as Json);
      expect(
        statuses.some((status) => status.startsWith('4')),
        where,
      ).toBe(true);
      if (where.startsWith('webhook')) continue; // what a receiver answers is the receiver's
      // Any request can be refused by the local-server guard or meet a shutdown.
      expect(statuses, where).toEqual(expect.arrayContaining(['403', '421', '503']));
      for (const status of statuses.filter((each) => /^[45]/.test(each))) {
        const answer = resolved((operation['responses'] as Json)[status]);
        const json = (answer['content'] as Json)['application/json'] as Json;
        expect(json['schema'], `${where} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
      }
    }
  });

  it('carries a license and contact', () => {
    expect(document.info['license']).toMatchObject({ name: expect.any(String) as unknown });
    expect(document.info['contact']).toMatchObject({ name: expect.any(String) as unknown });
  });
});
