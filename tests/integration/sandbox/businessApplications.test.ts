/**
 * Business applications in the sandbox, as the real service serves them (issue 24): created,
 * listed and fetched over real HTTP; one seeded for every business account application; people
 * and documents linked to them, and `--lean` leaving out what the real service's answers leave
 * out. Each bad input is a 400 that names the field, with nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  businessApplication,
  businessApplicationResponse,
  document,
  parseWith,
  personApplication,
  type AccountApplication,
  type BusinessApplication,
  type PersonApplication,
} from '../../../src/shared/bank/index.ts';
import { startClient, type SandboxClient } from './sandboxClient.ts';

let full: SandboxClient;
let lean: SandboxClient;

beforeAll(async () => {
  full = await startClient({ accounts: 1, pendingTransactionsPerAccount: 20 });
  lean = await startClient({ accounts: 1, pendingTransactionsPerAccount: 20, lean: true });
});

afterAll(async () => {
  await full.sandbox.close();
  await lean.sandbox.close();
});

function business(personId: string, documentId?: string) {
  return {
    name: 'Acme Goods Inc',
    description: 'Buys and sells goods.',
    established_on: '2018-08-01',
    incorporation_state: 'DE',
    legal_structure: 'llc',
    tin: '11-3344555',
    naics: '42',
    naics_description: 'Wholesale Trade',
    phone_number: '+1 415-555-1111',
    urls: ['http://example.com'],
    physical_address: { street_line_1: '115 W G St', city: 'Benicia', state: 'CA', postal_code: '94510' },
    mailing_address: {
      street_line_1: '1300 L St',
      city: 'Sacramento',
      state: 'CA',
      postal_code: '95814',
      country: 'US',
    },
    person_applications: [
      { id: personId, roles: ['control_person', 'signer'], ownership_percentage: 30, title: 'CFO' },
    ],
    ...(documentId === undefined ? {} : { document_ids: [documentId] }),
  };
}

async function listOf<Item>(client: SandboxClient, path: string): Promise<Item[]> {
  const reply = await client.get(`${path}?page_size=1000`);
  expect(reply.status).toBe(200);
  return (reply.body as { data: Item[] }).data;
}

describe('seeded business applications', () => {
  it('serves one for every business application id the seeded account applications name, each valid', async () => {
    const applications = await listOf<AccountApplication>(full, '/apply/account_application');
    const named = new Set(applications.flatMap((entry) => entry.business_application_id ?? []));
    expect(named.size).toBeGreaterThan(0);
    expect(new Set(full.sandbox.demo.businessApplications)).toEqual(named);
    for (const id of named) {
      const reply = await full.get(`/apply/business_application/${id}`);
      expect(reply.status, id).toBe(200);
      expect(parseWith(businessApplication, reply.body).ok, id).toBe(true);
    }
  });

  it('links each seeded person and business to documents that exist, and names people that exist', async () => {
    const people = await listOf<PersonApplication>(full, '/apply/person_application');
    const businesses = await listOf<BusinessApplication>(full, '/apply/business_application');
    expect(people.length).toBeGreaterThan(0);
    for (const person of people) {
      expect(parseWith(personApplication, person).ok).toBe(true);
      expect(person.document_ids?.length).toBe(1);
      const linked = await full.get(`/document/${person.document_ids?.[0] ?? ''}`);
      expect(linked.status).toBe(200);
      expect(parseWith(document, linked.body).ok).toBe(true);
      expect((linked.body as { name: string }).name).toContain(person.last_name);
    }
    for (const entry of businesses) {
      expect((await full.get(`/document/${entry.document_ids?.[0] ?? ''}`)).status).toBe(200);
      for (const person of entry.person_applications ?? []) {
        expect((await full.get(`/apply/person_application/${person.id}`)).status).toBe(200);
      }
    }
  });
});

describe('business applications created by a client', () => {
  it('creates one (200) in the reference shape, reads it back and lists it first', async () => {
    const [person] = full.sandbox.demo.personApplications;
    const [documentId] = full.sandbox.demo.documents;
    const created = await full.call('POST', '/apply/business_application', {
      body: business(person ?? '', documentId),
    });
    expect(created.status).toBe(200);
    const made = created.body as BusinessApplication;
    expect(made.id).toMatch(/^abus_/);
    expect(made).toMatchObject({
      name: 'Acme Goods Inc',
      dba: null,
      tin: '11-3344555',
      established_on: '2018-08-01',
      bank_id: 'bank_sandbox',
      identification_number: null,
      person_applications: [
        { id: person, roles: ['control_person', 'signer'], ownership_percentage: 30, title: 'CFO' },
      ],
      document_ids: [documentId],
      bankdata: null,
      userdata: null,
    });
    expect(parseWith(businessApplication, made).ok).toBe(true);
    expect((await full.get(`/apply/business_application/${made.id}`)).body).toEqual(made);
    const [first] = await listOf<BusinessApplication>(full, '/apply/business_application');
    expect(first?.id).toBe(made.id);
  });

  it('answers the same business for the same idempotency key and body, with no second one', async () => {
    const [person] = full.sandbox.demo.personApplications;
    const before = (await listOf(full, '/apply/business_application')).length;
    const headers = { 'x-idempotency-key': 'business-once' };
    const one = await full.call('POST', '/apply/business_application', { body: business(person ?? ''), headers });
    const two = await full.call('POST', '/apply/business_application', { body: business(person ?? ''), headers });
    expect(two.body).toEqual(one.body);
    expect((await listOf(full, '/apply/business_application')).length).toBe(before + 1);
  });

  it('refuses unknown people and documents by name, bad fields by name, unknown fields and empty bodies, writing nothing', async () => {
    const [person] = full.sandbox.demo.personApplications;
    const before = (await listOf(full, '/apply/business_application')).length;
    const nobody = await full.call('POST', '/apply/business_application', { body: business('apsn_nobody') });
    expect(nobody).toMatchObject({ status: 400, body: { error: 'Invalid id person_applications[0].id: apsn_nobody' } });
    const noDocument = await full.call('POST', '/apply/business_application', {
      body: business(person ?? '', 'doc_missing'),
    });
    expect(noDocument).toMatchObject({ status: 400, body: { error: 'Invalid id document_ids[0]: doc_missing' } });
    const wrong = await full.call('POST', '/apply/business_application', {
      body: { ...business(person ?? ''), tin: '123', established_on: '2018-02-30', incorporation_state: 'Delaware' },
    });
    expect(wrong.status).toBe(400);
    expect((wrong.body as { error: string }).error).toMatch(/established_on: .*incorporation_state: .*tin: /s);
    const noPeople = await full.call('POST', '/apply/business_application', {
      body: { ...business(person ?? ''), person_applications: [] },
    });
    expect((noPeople.body as { error: string }).error).toMatch(/person_applications: must name at least one person/);
    const extra = await full.call('POST', '/apply/business_application', {
      body: { ...business(person ?? ''), ssn: '1' },
    });
    expect(extra).toMatchObject({ status: 400, body: { error: expect.stringContaining('ssn') as string } });
    const malformed = await full.call('POST', '/apply/business_application', {
      raw: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
    expect((await listOf(full, '/apply/business_application')).length).toBe(before);
  });

  it('answers 404 for a business it does not have, and 401 without credentials', async () => {
    const missing = await full.get('/apply/business_application/abus_nothing');
    expect(missing).toMatchObject({ status: 404, body: { error: 'No business application with id abus_nothing.' } });
    const anonymous = await fetch(`${full.sandbox.baseUrl}/apply/business_application`);
    expect(anonymous.status).toBe(401);
  });

  it('takes document_ids on a person application and refuses one it does not have', async () => {
    const [documentId] = full.sandbox.demo.documents;
    const applicant = {
      first_name: 'Ada',
      last_name: 'Byron',
      date_of_birth: '1990-12-10',
      email_address: 'ada@example.com',
      phone_number: '2025550100',
      citizenship: 'GB',
      physical_address: { street_line_1: '1 Main St', city: 'Washington', state: 'DC', postal_code: '20500' },
    };
    const created = await full.call('POST', '/apply/person_application', {
      body: { ...applicant, document_ids: [documentId] },
    });
    expect(created).toMatchObject({ status: 200, body: { document_ids: [documentId] } });
    const refused = await full.call('POST', '/apply/person_application', {
      body: { ...applicant, document_ids: ['doc_missing'] },
    });
    expect(refused).toMatchObject({ status: 400, body: { error: 'Invalid id document_ids[0]: doc_missing' } });
  });
});

describe('--lean: business and person applications as the real service answers', () => {
  it('leaves document_ids out of both, lists without page_next, and a client still reads them', async () => {
    const [businessId] = lean.sandbox.demo.businessApplications;
    const fetched = await lean.get(`/apply/business_application/${businessId ?? ''}`);
    expect(fetched.status).toBe(200);
    expect(fetched.body).not.toHaveProperty('document_ids');
    expect(fetched.body).toHaveProperty('tin');
    expect(parseWith(businessApplicationResponse.schema, fetched.body).ok).toBe(true);
    const list = await lean.get('/apply/business_application?page_size=2');
    expect(list.body).not.toHaveProperty('page_next');
    expect(list.body).toHaveProperty('total_estimated');
    const [personId] = lean.sandbox.demo.personApplications;
    const person = await lean.get(`/apply/person_application/${personId ?? ''}`);
    expect(person.body).not.toHaveProperty('document_ids');
    expect(person.body).toHaveProperty('first_name');
    // The same data file, served in full, keeps the links.
    const fullPerson = await full.get(`/apply/person_application/${full.sandbox.demo.personApplications[0] ?? ''}`);
    expect(fullPerson.body).toHaveProperty('document_ids');
  });
});
