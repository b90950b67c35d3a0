/**
 * Every field rule of spec §2 accepts a valid value and rejects a violating one with a
 * message that names the field.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  accountApplication,
  cardArtUploadRequest,
  document,
  documentCreateRequest,
  errorBody,
  jsonSchemaOf,
  listEnvelope,
  listQuery,
  parseOrThrow,
  parseWith,
  pendingTransaction,
  SchemaViolation,
  webhook,
  webhookCreateRequest,
  webhookNotification,
  webhookSend,
  webhookUpdateRequest,
} from '../../../src/shared/bank/index.ts';
import { samplePendingTransaction } from './sample.ts';

function expectRejected(schema: z.ZodType, value: unknown, field: string): string[] {
  const parsed = parseWith(schema, value);
  expect(parsed.ok, `expected ${JSON.stringify(value)} to be rejected`).toBe(false);
  if (parsed.ok) return [];
  const namesField = (problem: string) =>
    field === '' || [': ', '.', '['].some((next) => problem.startsWith(field + next));
  expect(parsed.problems.filter(namesField), parsed.problems.join('; ')).not.toHaveLength(0);
  return parsed.problems;
}

function expectAccepted<Schema extends z.ZodType>(schema: Schema, value: unknown): z.output<Schema> {
  const parsed = parseWith(schema, value);
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  return parsed.value;
}

function withField(base: Record<string, unknown>, field: string, value: unknown): Record<string, unknown> {
  return { ...base, [field]: value };
}

function withoutField(base: Record<string, unknown>, field: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(base).filter(([key]) => key !== field));
}

describe('pending transaction (spec §2.1)', () => {
  it('parses the spec sample and keeps unknown extra fields', () => {
    const parsed = expectAccepted(pendingTransaction, { ...samplePendingTransaction(), greendot_deposit_id: 'gdep_1' });
    expect(parsed.amount).toBe('-12.50');
    expect((parsed as Record<string, unknown>)['greendot_deposit_id']).toBe('gdep_1');
  });

  it.each([
    ['amount', '1.5'],
    ['amount', '1,00'],
    ['amount', '12'],
    ['amount', 12.5],
    ['amount', '+1.00'],
    ['balance', '10.001'],
    ['balance', null],
    ['date', '2024-13-01'],
    ['date', '2024-02-30'],
    ['date', '2024-3-1'],
    ['date', '14/03/2024'],
    ['extended_timestamp', '2024-03-15T02:11:09'],
    ['extended_timestamp', '2024-03-15T02:11:09+00:00'],
    ['extended_timestamp', '2024-03-15T25:11:09Z'],
    ['extended_timestamp', '2024-03-15T02:11:09.123Z'],
    ['extended_timestamp_precise', '2024-03-15T02:11:09.1234Z'],
    ['extended_timestamp_precise', '2024-03-15T02:11:09Z'],
    ['extended_timestamp_precise', '2024-03-15T02:11:09.123'],
    ['type', 'refund'],
    ['type_source', 'paypal'],
    ['category', 'groceries'],
    ['related_transfer_ids', [1, 2]],
    ['related_transfer_ids', 'ttx_1'],
    ['ach_id', 42],
    ['wire_id', undefined],
    ['partner_deposit_id', false],
    ['account_id', ''],
    ['desc', null],
    ['summary', 7],
    ['trace_id', 3],
    ['check_number', 1001],
  ])('rejects %s = %j naming the field', (field, value) => {
    const candidate =
      value === undefined
        ? withoutField(samplePendingTransaction(), field)
        : withField(samplePendingTransaction(), field, value);
    expectRejected(pendingTransaction, candidate, field);
  });

  it.each([
    ['type', null],
    ['type_source', null],
    ['category', 'interest'],
    ['related_transfer_ids', null],
    ['extended_timestamp_precise', '2024-03-15T02:11:09.123Z'],
    ['amount', '-0.50'],
  ])('accepts %s = %j', (field, value) => {
    expectAccepted(pendingTransaction, withField(samplePendingTransaction(), field, value));
  });
});

const validDocument = {
  id: 'doc_1',
  type: 'passport',
  name: 'Passport of Ada',
  file_id: 'file_1',
  fields: { date_of_birth: '1990-01-02' },
  bankdata: {},
  userdata: {},
  bank_id: 'bank_1',
  organization_id: 'org_1',
  description: '',
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
};

describe('document (spec §2.2, §4.2)', () => {
  it('parses a document', () => {
    expect(expectAccepted(document, validDocument).type).toBe('passport');
  });

  it.each([
    ['type', 'library_card'],
    ['fields', 'dob'],
    ['bankdata', []],
    ['created_at', '2024-01-01'],
    ['updated_at', '2024-01-01 00:00:00'],
    ['organization_id', undefined],
  ])('rejects %s = %j', (field, value) => {
    const candidate = value === undefined ? withoutField(validDocument, field) : withField(validDocument, field, value);
    expectRejected(document, candidate, field);
  });

  const request = { type: 'passport', name: 'Passport', file_id: 'file_1', fields: {} };
  it('accepts a create request with and without bankdata/userdata', () => {
    expectAccepted(documentCreateRequest, request);
    expectAccepted(documentCreateRequest, { ...request, bankdata: { a: 1 }, userdata: { b: 2 } });
  });

  it.each([
    ['type', 'refund'],
    ['name', '   '],
    ['file_id', 'doc_1'],
    ['fields', null],
    ['userdata', { big: 'x'.repeat(1100) }],
    ['description', 'old'],
  ])('refuses create request %s = %j', (field, value) => {
    const problems = expectRejected(
      documentCreateRequest,
      withField(request, field, value),
      field === 'description' ? '' : field,
    );
    expect(problems.join(' ')).toMatch(new RegExp(field));
  });
});

describe('card art upload (spec §2.3)', () => {
  it.each(['front', 'back', 'thumbnail'])('accepts asset_type %s', (assetType) => {
    expectAccepted(cardArtUploadRequest, { asset_type: assetType, file_id: 'file_1' });
  });
  it('rejects an unknown asset type and a non-file id', () => {
    expectRejected(cardArtUploadRequest, { asset_type: 'side', file_id: 'file_1' }, 'asset_type');
    expectRejected(cardArtUploadRequest, { asset_type: 'front', file_id: 'card_1' }, 'file_id');
  });
});

const validApplication = {
  id: 'aact_1',
  account_id: null,
  account_number: null,
  account_number_reservation_id: null,
  account_product_id: 'apt_1',
  bankdata: null,
  business_application_id: null,
  deposit_id: 'adpt_1',
  ownership_type: 'personal',
  person_applications: [{ id: 'apsn_1', roles: ['owner', 'signer'] }],
  primary_person_application_id: 'apsn_1',
  product: null,
  status: 'submitted',
  userdata: null,
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-02T00:00:00Z',
};

describe('account application (spec §2.4)', () => {
  it('parses personal and business applications', () => {
    expectAccepted(accountApplication, validApplication);
    expectAccepted(accountApplication, {
      ...validApplication,
      ownership_type: 'business',
      business_application_id: 'abus_1',
      person_applications: null,
      status: 'approved',
      account_id: 'acct_1',
      account_number: '1234567890',
    });
  });

  it.each([
    ['status', 'pending'],
    ['ownership_type', 'joint'],
    ['person_applications', [{ id: 'apsn_1', roles: ['admin'] }]],
    ['account_id', 5],
    ['deposit_id', null],
    ['created_at', 'yesterday'],
  ])('rejects %s = %j', (field, value) => {
    expectRejected(accountApplication, withField(validApplication, field, value), field);
  });
});

const validWebhook = {
  id: 'wh_1',
  event: 'ach.update',
  url: 'https://example.test/hook',
  status: 'enabled',
  error: null,
  basic_user: 'user',
  basic_secret: null,
  userdata: null,
  created_at: '2024-01-01T00:00:00Z',
  updated_at: '2024-01-01T00:00:00Z',
};

describe('webhook (spec §2.5, §3.2)', () => {
  it('parses a webhook record', () => {
    expectAccepted(webhook, validWebhook);
  });
  it.each([
    ['status', 'pending'],
    ['basic_secret', 'leaked'],
  ])('rejects %s = %j', (field, value) => {
    expectRejected(webhook, withField(validWebhook, field, value), field);
  });

  it('validates create requests', () => {
    expectAccepted(webhookCreateRequest, { event: 'ach.update', url: 'http://127.0.0.1:9/x' });
    expectRejected(webhookCreateRequest, { event: 'ach', url: 'http://127.0.0.1/' }, 'event');
    expectRejected(webhookCreateRequest, { event: 'ach.update', url: 'ftp://x/' }, 'url');
    expectRejected(webhookCreateRequest, { event: 'ach.update', url: 'not a url' }, 'url');
    expectRejected(webhookCreateRequest, { event: 'ach.update', url: 'http://x/', basic_user: 'u' }, 'basic_secret');
    expectRejected(webhookCreateRequest, { url: 'http://x/' }, 'event');
  });

  it('lets a client enable or disable, never set error', () => {
    expectAccepted(webhookUpdateRequest, { status: 'enabled' });
    expectAccepted(webhookUpdateRequest, { status: 'disabled' });
    expectRejected(webhookUpdateRequest, { status: 'error' }, 'status');
    expect(parseWith(webhookUpdateRequest, {}).ok).toBe(false);
    expect(parseWith(webhookUpdateRequest, { colour: 'red' }).ok).toBe(false);
  });
});

describe('webhook notification (spec §2.6)', () => {
  const notification = { event: 'ach.update', op: 'update', id: 'ach_1', url: 'http://bank/ach/ach_1' };
  it('parses a notification', () => {
    expectAccepted(webhookNotification, notification);
  });
  it.each([
    ['event', 'achupdate'],
    ['op', 'explode'],
    ['op', 'create'],
    ['id', ''],
    ['url', undefined],
  ])('rejects %s = %j', (field, value) => {
    const candidate = value === undefined ? withoutField(notification, field) : withField(notification, field, value);
    expectRejected(webhookNotification, candidate, field);
  });
});

describe('webhook send (spec §2.7)', () => {
  const send = {
    id: 'whsend_1',
    webhook_id: 'wh_1',
    object_id: 'ach_1',
    operation: 'update',
    status: 'error',
    attempt_number: 3,
    will_retry: true,
    error: 'HTTP 500',
  };
  it('parses a send record', () => {
    expectAccepted(webhookSend, send);
  });
  it.each([
    ['status', 'pending'],
    ['attempt_number', 1.5],
    ['attempt_number', -1],
    ['attempt_number', '2'],
    ['will_retry', 'yes'],
    ['webhook_id', undefined],
  ])('rejects %s = %j', (field, value) => {
    const candidate = value === undefined ? withoutField(send, field) : withField(send, field, value);
    expectRejected(webhookSend, candidate, field);
  });
});

describe('lists and errors', () => {
  it('defaults page_size to 100 and coerces query strings', () => {
    expect(expectAccepted(listQuery, {}).page_size).toBe(100);
    expect(expectAccepted(listQuery, { page_size: '25' }).page_size).toBe(25);
    expect(expectAccepted(listQuery, { page_size: '1000' }).page_size).toBe(1000);
  });

  it.each(['0', '-1', 'abc', '1.5', '', '1001', 0, -1, 2.5])('rejects page_size %j naming the field', (value) => {
    expectRejected(listQuery, { page_size: value }, 'page_size');
  });

  it('rejects malformed dates, a reversed range and unknown parameters', () => {
    expectRejected(listQuery, { from_date: '2024-13-01' }, 'from_date');
    expectRejected(listQuery, { to_date: '20240101' }, 'to_date');
    expectRejected(listQuery, { from_date: '2024-02-01', to_date: '2024-01-01' }, 'from_date');
    expect(parseWith(listQuery, { pagesize: 1 }).ok).toBe(false);
  });

  it('parses the envelope and the error body', () => {
    const envelope = listEnvelope(pendingTransaction);
    expectAccepted(envelope, { data: [], page_next: null, total_estimated: 0 });
    expectRejected(
      envelope,
      { data: [{ ...samplePendingTransaction(), amount: '1' }], page_next: null, total_estimated: 1 },
      'data[0].amount',
    );
    expectAccepted(errorBody, { error: 'Invalid id primary_person_application_id: unexistant' });
    expectRejected(errorBody, { error: ['a'] }, 'error');
  });

  it('throws a SchemaViolation that says what was read and names the field', () => {
    expect(() =>
      parseOrThrow(
        pendingTransaction,
        { ...samplePendingTransaction(), amount: '1.5' },
        'GET /account/acct_1/pending_transaction',
      ),
    ).toThrow(SchemaViolation);
    try {
      parseOrThrow(pendingTransaction, { ...samplePendingTransaction(), amount: '1.5' }, 'GET /x');
    } catch (error) {
      expect(String(error)).toContain('GET /x: amount: must be an amount with two decimals');
    }
  });
});

describe('JSON Schema', () => {
  it('describes fields, patterns, nullability and deprecation', () => {
    const schema = jsonSchemaOf(pendingTransaction) as {
      properties: Record<string, Record<string, unknown>>;
      required: string[];
    };
    expect(schema.properties['amount']?.['pattern']).toBe('^-?[0-9]+[.][0-9][0-9]$');
    expect(schema.required).toContain('extended_timestamp_precise');
    const documentSchema = jsonSchemaOf(document) as { properties: Record<string, Record<string, unknown>> };
    expect(documentSchema.properties['description']?.['deprecated']).toBe(true);
    const query = jsonSchemaOf(listQuery, 'input') as { properties: Record<string, unknown> };
    expect(Object.keys(query.properties)).toEqual(['page_cursor', 'page_size', 'from_date', 'to_date']);
  });
});
