/**
 * What the sandbox serves because the real service does (issue 14): person applications,
 * account applications created by a client, posted transactions, and `--lean`, the real
 * service's shapes. Each bad input is a 400 that names the field, with nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClient, type SandboxClient } from './sandboxClient.ts';

const APPLICANT = {
  first_name: 'Grace',
  last_name: 'Hopper',
  date_of_birth: '1986-12-09',
  email_address: 'grace@example.com',
  phone_number: '2025550123',
  citizenship: 'US',
  physical_address: { street_line_1: '1 Main St', city: 'Washington', state: 'DC', postal_code: '20500' },
};

let full: SandboxClient;
let lean: SandboxClient;

beforeAll(async () => {
  full = await startClient({ accounts: 1, pendingTransactionsPerAccount: 60 });
  lean = await startClient({ accounts: 1, pendingTransactionsPerAccount: 60, lean: true });
});

afterAll(async () => {
  await full.sandbox.close();
  await lean.sandbox.close();
});

async function countOf(client: SandboxClient, path: string): Promise<number> {
  const reply = await client.get(`${path}?page_size=1000`);
  return (reply.body as { data: unknown[] }).data.length;
}

describe('person applications', () => {
  it('creates one (200), reads it back and lists it', async () => {
    const created = await full.call('POST', '/apply/person_application', { body: APPLICANT });
    expect(created.status).toBe(200);
    const person = created.body as { id: string; first_name: string; mailing_address: unknown };
    expect(person).toMatchObject({ first_name: 'Grace', mailing_address: null });
    expect(person.id).toMatch(/^apsn_/);
    expect((await full.get(`/apply/person_application/${person.id}`)).body).toEqual(person);
    const list = (await full.get('/apply/person_application')).body as { data: { id: string }[] };
    expect(list.data[0]?.id).toBe(person.id);
  });

  it('refuses a date of birth 130 years ago or in the future, an unknown field, and no body, writing nothing', async () => {
    const before = await countOf(full, '/apply/person_application');
    const old = await full.call('POST', '/apply/person_application', {
      body: { ...APPLICANT, date_of_birth: '1732-02-22' },
    });
    expect(old).toMatchObject({
      status: 400,
      body: { error: 'Invalid date of birth: must be less than 130 years of age. date_of_birth: 1732-02-22' },
    });
    const future = await full.call('POST', '/apply/person_application', {
      body: { ...APPLICANT, date_of_birth: '2999-01-01' },
    });
    expect(future.status).toBe(400);
    const unknown = await full.call('POST', '/apply/person_application', { body: { ...APPLICANT, ssn: '1' } });
    expect(unknown).toMatchObject({ status: 400, body: { error: expect.stringContaining('ssn') as string } });
    const wrong = await full.call('POST', '/apply/person_application', {
      body: { ...APPLICANT, phone_number: '555', physical_address: { ...APPLICANT.physical_address, state: 'dc' } },
    });
    expect((wrong.body as { error: string }).error).toMatch(/phone_number: .*physical_address\.state: /);
    const empty = await full.call('POST', '/apply/person_application', {
      raw: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(empty.status).toBe(400);
    expect(await countOf(full, '/apply/person_application')).toBe(before);
  });
});

describe('account applications created by a client', () => {
  it('creates a submitted application for an applicant that exists (200)', async () => {
    const [applicant] = full.sandbox.demo.personApplications;
    const created = await full.call('POST', '/apply/account_application', {
      body: { primary_person_application_id: applicant, account_product_id: 'apt_11ha1payax7042' },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      status: 'submitted',
      ownership_type: 'personal',
      account_product_id: 'apt_11ha1payax7042',
      person_applications: [{ id: applicant, roles: ['owner', 'signer'] }],
      primary_person_application_id: applicant,
      product: null,
    });
    const id = (created.body as { id: string }).id;
    expect((await full.get(`/apply/account_application/${id}`)).status).toBe(200);
  });

  it('takes the deprecated product nickname as the recordings do, the same product every time', async () => {
    const [applicant] = full.sandbox.demo.personApplications;
    const make = () =>
      full.call('POST', '/apply/account_application', {
        body: { primary_person_application_id: applicant, product: 'personal_savings' },
      });
    const [one, two] = [await make(), await make()];
    expect(one.status).toBe(200);
    const productOf = (reply: typeof one) => (reply.body as { account_product_id: string }).account_product_id;
    expect(productOf(one)).toMatch(/^apt_/);
    expect(productOf(two)).toBe(productOf(one));
  });

  it('makes a business application with no person applications', async () => {
    const [applicant] = full.sandbox.demo.personApplications;
    const created = await full.call('POST', '/apply/account_application', {
      body: {
        primary_person_application_id: applicant,
        account_product_id: 'apt_11ha1payax7044',
        business_application_id: 'abus_11hb4dzeb572hh',
        person_applications: [],
      },
    });
    expect(created.body).toMatchObject({ ownership_type: 'business', person_applications: null });
  });

  it('refuses an applicant that does not exist in the real words, a missing product, and other ids by name', async () => {
    const before = await countOf(full, '/apply/account_application');
    const unknown = await full.call('POST', '/apply/account_application', {
      body: { primary_person_application_id: 'unexistant', product: 'personal_savings' },
    });
    expect(unknown).toMatchObject({
      status: 400,
      body: { error: 'Invalid id primary_person_application_id: unexistant' },
    });
    const [applicant] = full.sandbox.demo.personApplications;
    const noProduct = await full.call('POST', '/apply/account_application', {
      body: { primary_person_application_id: applicant },
    });
    expect((noProduct.body as { error: string }).error).toMatch(/account_product_id: is required/);
    const badPeople = await full.call('POST', '/apply/account_application', {
      body: {
        primary_person_application_id: applicant,
        account_product_id: 'apt_1',
        person_applications: [{ id: 'apsn_nobody', roles: ['owner'] }],
      },
    });
    expect((badPeople.body as { error: string }).error).toBe('Invalid id person_applications[0].id: apsn_nobody');
    expect(await countOf(full, '/apply/account_application')).toBe(before);
  });
});

describe('posted transactions', () => {
  it('lists the rows that move the balance, newest first, paging by page_next and by the last id', async () => {
    const [account] = full.sandbox.demo.accounts;
    const all = (await full.get(`/account/${account ?? ''}/transaction?page_size=1000`)).body as {
      data: { id: string; type: string | null; fingerprint: string }[];
      page_next: string | null;
    };
    expect(all.page_next).toBeNull();
    expect(all.data.length).toBeGreaterThan(10);
    expect(all.data.some((row) => row.type === 'hold' || row.type === 'hold_release')).toBe(false);
    expect(all.data.every((row) => row.fingerprint === row.id && row.id.startsWith('ttx_'))).toBe(true);
    const first = (await full.get(`/account/${account ?? ''}/transaction?page_size=5`)).body as {
      data: { id: string }[];
      page_next: string;
    };
    expect(first.data.map((row) => row.id)).toEqual(all.data.slice(0, 5).map((row) => row.id));
    const next = new URL(first.page_next);
    expect(next.searchParams.get('page_cursor')).toBe(first.data[4]?.id);
    const second = (await full.get(`${next.pathname}${next.search}`)).body as { data: { id: string }[] };
    expect(second.data.map((row) => row.id)).toEqual(all.data.slice(5, 10).map((row) => row.id));
  });

  it('refuses a cursor of another account and answers 404 for an unknown account', async () => {
    const [account] = full.sandbox.demo.accounts;
    const refused = await full.get(`/account/${account ?? ''}/transaction?page_cursor=ttx_000000000000ab`);
    expect(refused.status).toBe(400);
    expect((await full.get('/account/acct_nobody/transaction')).status).toBe(404);
  });
});

describe('--lean: the real service shapes', () => {
  it('leaves out of each resource what the real service leaves out, and of its lists page_next', async () => {
    const [application] = lean.sandbox.demo.accountApplications.slice(2);
    const leanApplication = (await lean.get(`/apply/account_application/${application ?? ''}`)).body as Record<
      string,
      unknown
    >;
    const fullApplication = (await full.get(`/apply/account_application/${application ?? ''}`)).body as Record<
      string,
      unknown
    >;
    expect(
      Object.keys(fullApplication)
        .filter((name) => !(name in leanApplication))
        .sort(),
    ).toEqual(['account_number', 'ownership_type', 'product']);
    expect(leanApplication['deposit_id']).toBeNull();
    // The third seeded application is a business one: [] where the interface says null.
    expect(leanApplication['person_applications']).toEqual([]);

    const [account] = lean.sandbox.demo.accounts;
    const pending = (await lean.get(`/account/${account ?? ''}/pending_transaction?page_size=5`)).body as Record<
      string,
      unknown
    >;
    expect(Object.keys(pending)).toEqual(['data']);
    expect((pending['data'] as Record<string, unknown>[]).some((row) => 'partner_deposit_id' in row)).toBe(false);

    const products = (await lean.get('/cardproduct')).body as { data: Record<string, unknown>[] };
    expect(Object.keys(products)).toEqual(['data', 'total_estimated']);
    for (const product of products.data) {
      expect(Object.keys(product).sort()).toEqual([
        'card_back_image_file_id',
        'card_front_image_file_id',
        'created_at',
        'id',
        'status',
        'type',
        'updated_at',
        'userdata',
      ]);
    }

    const [document] = lean.sandbox.demo.documents;
    const leanDocument = (await lean.get(`/document/${document ?? ''}`)).body as Record<string, unknown>;
    expect(['bank_id', 'organization_id', 'description'].filter((name) => name in leanDocument)).toEqual([]);

    const webhook = await lean.call('POST', '/webhook', {
      body: { event: 'ach.update', url: 'https://hooks.example/lean', basic_user: null, basic_secret: null },
    });
    expect(webhook.status).toBe(200);
    expect('basic_user' in (webhook.body as object) || 'basic_secret' in (webhook.body as object)).toBe(false);
  });

  it('answers errors and other resources as before, and replays an idempotent create lean too', async () => {
    expect((await lean.get('/document/doc_nobody')).body).toEqual({ error: 'No document with id doc_nobody.' });
    const files = (await lean.get('/file')).body as Record<string, unknown>;
    expect(Object.keys(files)).toEqual(['data', 'page_next', 'total_estimated']);
    const [, , , scan] = lean.sandbox.demo.files;
    const create = () =>
      lean.call('POST', '/document', {
        body: { type: 'passport', name: 'Lean replay', file_id: scan, fields: {} },
        headers: { 'x-idempotency-key': 'lean-replay-1' },
      });
    const [first, again] = [await create(), await create()];
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect('organization_id' in (again.body as object)).toBe(false);
  });

  it('refuses the deprecated product nickname, as the real service now does', async () => {
    const [applicant] = lean.sandbox.demo.personApplications;
    const refused = await lean.call('POST', '/apply/account_application', {
      body: { primary_person_application_id: applicant, product: 'personal_savings' },
    });
    expect(refused).toMatchObject({ status: 400, body: { error: expect.stringContaining('product') as string } });
  });
});
