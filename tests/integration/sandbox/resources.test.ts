/** Documents, files, card art, account applications, accounts, ACHs and OpenAPI over real HTTP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  account,
  accountApplication,
  cardProduct,
  document,
  fileRecord,
  parseWith,
  type AccountApplication,
  type CardProduct,
  type Document,
  type FileRecord,
} from '../../../src/shared/bank/index.ts';
import { solidPng } from '../../../src/sandbox/seed/pngImage.ts';
import { startClient, type SandboxClient } from './sandboxClient.ts';

const error = (body: unknown) => (body as { error: string }).error;

describe('sandbox: resources', () => {
  let client: SandboxClient;
  let scanFile = '';
  let pngFile = '';
  beforeAll(async () => {
    client = await startClient();
    pngFile = client.sandbox.demo.files[0] ?? '';
    scanFile = client.sandbox.demo.files[3] ?? '';
  });
  afterAll(async () => {
    await client.sandbox.close();
  });

  const count = async (path: string) =>
    ((await client.get(`${path}?page_size=1000`)).body as { data: unknown[] }).data.length;

  describe('files', () => {
    it('stores raw bytes with their media type and serves the record and the bytes', async () => {
      const bytes = solidPng(4, 4, [1, 2, 3]);
      const created = await client.call('POST', '/file', { raw: bytes, headers: { 'content-type': 'image/png' } });
      expect(created.status).toBe(200);
      const file = created.body as FileRecord;
      expect(parseWith(fileRecord, file).ok).toBe(true);
      expect(file).toMatchObject({
        content_type: 'image/png',
        content_length: bytes.length,
        content_url: `${client.sandbox.baseUrl}/file/${file.id}/content`,
      });
      expect((await client.get(`/file/${file.id}`)).body).toEqual(file);
      const content = await fetch(`${client.sandbox.baseUrl}/file/${file.id}/content`, {
        headers: { authorization: client.basic },
      });
      expect(content.headers.get('content-type')).toBe('image/png');
      expect(Buffer.from(await content.arrayBuffer()).equals(bytes)).toBe(true);
    });

    it('refuses a file without Content-Type or as multipart (415), an empty file (400) and one over 10 MiB (413)', async () => {
      const before = await count('/file');
      expect((await client.call('POST', '/file', { raw: Buffer.from('abc') })).status).toBe(415);
      const multipart = await client.call('POST', '/file', {
        raw: '--x\r\nContent-Disposition: form-data; name="f"\r\n\r\nabc\r\n--x--\r\n',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      });
      expect(multipart.status).toBe(415);
      expect(error(multipart.body)).toMatch(/not multipart/);
      const empty = await client.call('POST', '/file', {
        raw: Buffer.alloc(0),
        headers: { 'content-type': 'text/plain' },
      });
      expect(empty.status).toBe(400);
      const huge = await client.call('POST', '/file', {
        raw: Buffer.alloc(10 * 1024 * 1024 + 1),
        headers: { 'content-type': 'application/octet-stream' },
      });
      expect(huge.status).toBe(413);
      expect(error(huge.body)).toMatch(/10 MiB/);
      expect(await count('/file')).toBe(before);
    });

    it('answers 404 for an unknown file', async () => {
      expect((await client.get('/file/file_nope')).status).toBe(404);
      expect((await client.get('/file/file_nope/content')).status).toBe(404);
    });
  });

  describe('documents', () => {
    const valid = () => ({
      type: 'passport',
      name: 'Passport',
      file_id: scanFile,
      fields: { date_of_birth: '1990-04-01' },
    });

    it('creates a document with defaults for bankdata and userdata, then serves and lists it', async () => {
      const created = await client.call('POST', '/document', { body: valid() });
      expect(created.status).toBe(200);
      const doc = created.body as Document;
      expect(parseWith(document, doc).ok).toBe(true);
      expect(doc).toMatchObject({
        bankdata: {},
        userdata: {},
        bank_id: 'bank_sandbox',
        organization_id: 'org_sandbox',
      });
      expect(doc.id).toMatch(/^doc_/);
      expect(doc.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect('description' in doc).toBe(true);
      expect((await client.get(`/document/${doc.id}`)).body).toEqual(doc);
      const list = (await client.get('/document?page_size=1')).body as { data: Document[]; page_next: string };
      expect(list.data[0]).toEqual(doc);
      expect(list.page_next).toContain('page_cursor=' + doc.id);
    });

    it('honours X-Idempotency-Key: same key and body, same document; other body, 409', async () => {
      const headers = { 'x-idempotency-key': 'doc-key-1' };
      const first = await client.call('POST', '/document', { body: valid(), headers });
      const again = await client.call('POST', '/document', { body: valid(), headers });
      expect(again.status).toBe(first.status);
      expect(again.body).toEqual(first.body);
      const before = await count('/document');
      const conflict = await client.call('POST', '/document', { body: { ...valid(), name: 'Other' }, headers });
      expect(conflict.status).toBe(409);
      expect(error(conflict.body)).toMatch(/X-Idempotency-Key/);
      expect(await count('/document')).toBe(before);
    });

    const bad: [string, unknown, RegExp][] = [
      ['a wrong type', { type: 'library_card' }, /type: Invalid option/],
      ['an empty name', { name: '  ' }, /name: must not be empty/],
      ['a name of the wrong type', { name: 42 }, /name: Invalid input: expected string/],
      ['a file_id without the file_ prefix', { file_id: 'doc_123' }, /file_id: must be an id starting with file_/],
      ['a file that does not exist', { file_id: 'file_doesnotexist' }, /file_id: no file with id file_doesnotexist/],
      ['fields that are not an object', { fields: [1, 2] }, /fields/],
      ['bankdata that is not an object', { bankdata: 'x' }, /bankdata/],
      [
        'userdata over 1 KB',
        { userdata: { note: 'x'.repeat(1100) } },
        /userdata: must serialize to at most 1024 bytes/,
      ],
      ['an unknown field', { colour: 'blue' }, /unknown field: "colour"/],
      ['the deprecated description', { description: 'old' }, /unknown field: "description"/],
    ];
    for (const [what, change, message] of bad) {
      it(`refuses ${what} with 400, writing nothing`, async () => {
        const before = await count('/document');
        const reply = await client.call('POST', '/document', { body: { ...valid(), ...(change as object) } });
        expect(reply.status).toBe(400);
        expect(error(reply.body)).toMatch(message);
        expect(await count('/document')).toBe(before);
      });
    }

    it('refuses a body missing required fields, naming each', async () => {
      const reply = await client.call('POST', '/document', { body: {} });
      expect(reply.status).toBe(400);
      for (const field of ['type', 'name', 'file_id', 'fields']) expect(error(reply.body)).toContain(`${field}:`);
    });

    it('answers 404 for an unknown document', async () => {
      expect((await client.get('/document/doc_nope')).status).toBe(404);
    });
  });

  describe('card art', () => {
    it('records PNG art on the card product and answers {}', async () => {
      const product = client.sandbox.demo.cardProducts[1] ?? '';
      for (const asset of ['front', 'back', 'thumbnail']) {
        const reply = await client.call('POST', `/cardproduct/${product}/uxt_cardart`, {
          body: { asset_type: asset, file_id: pngFile },
        });
        expect(reply.status).toBe(200);
        expect(reply.body).toEqual({});
      }
      const shown = (await client.get(`/cardproduct/${product}`)).body as CardProduct;
      expect(parseWith(cardProduct, shown).ok).toBe(true);
      expect(shown.card_art).toEqual({ front: pngFile, back: pngFile, thumbnail: pngFile });
      // The real record's own fields carry the front and back art (real-wire get_card_products_success).
      expect(shown).toMatchObject({
        card_front_image_file_id: pngFile,
        card_back_image_file_id: pngFile,
        type: 'virtual',
        status: 'active',
      });
      const list = (await client.get('/cardproduct')).body as { data: CardProduct[] };
      expect(list.data.map((entry) => entry.id).sort()).toEqual([...client.sandbox.demo.cardProducts].sort());
    });

    it('answers 404 for an unknown card product', async () => {
      const reply = await client.call('POST', '/cardproduct/cdpt_nope/uxt_cardart', {
        body: { asset_type: 'front', file_id: pngFile },
      });
      expect(reply.status).toBe(404);
      expect(error(reply.body)).toMatch(/No card product with id cdpt_nope/);
    });

    it('refuses a wrong asset type, a non-PNG file, PNG-labelled bytes that are not PNG, and an unknown file', async () => {
      const product = client.sandbox.demo.cardProducts[0] ?? '';
      const before = (await client.get(`/cardproduct/${product}`)).body;
      const post = (body: unknown) => client.call('POST', `/cardproduct/${product}/uxt_cardart`, { body });
      const wrongType = await post({ asset_type: 'side', file_id: pngFile });
      expect(wrongType.status).toBe(400);
      expect(error(wrongType.body)).toMatch(/asset_type/);
      const jpegFile = (
        await client.call('POST', '/file', {
          raw: Buffer.from('\xff\xd8\xff\xe0 a JPEG scan', 'latin1'),
          headers: { 'content-type': 'image/jpeg' },
        })
      ).body as FileRecord;
      const jpeg = await post({ asset_type: 'front', file_id: jpegFile.id });
      expect(jpeg.status).toBe(400);
      expect(error(jpeg.body)).toMatch(/must be a PNG image.*image\/jpeg/);
      const fake = (
        await client.call('POST', '/file', { raw: Buffer.from('not a png'), headers: { 'content-type': 'image/png' } })
      ).body as FileRecord;
      const fakePng = await post({ asset_type: 'front', file_id: fake.id });
      expect(fakePng.status).toBe(400);
      expect(error(fakePng.body)).toMatch(/bytes are not a PNG/);
      expect((await post({ asset_type: 'front', file_id: 'file_unknown' })).status).toBe(400);
      expect((await post({ asset_type: 'front' })).status).toBe(400);
      expect((await client.get(`/cardproduct/${product}`)).body).toEqual(before);
    });
  });

  describe('account applications', () => {
    it('serves every status, business ones with business_application_id and null person_applications', async () => {
      const list = (await client.get('/apply/account_application?page_size=1000')).body as {
        data: AccountApplication[];
      };
      expect(list.data).toHaveLength(24);
      for (const application of list.data) {
        expect(parseWith(accountApplication, application).ok).toBe(true);
        if (application.ownership_type === 'business') {
          expect(application.business_application_id).toMatch(/^abus_/);
          expect(application.person_applications).toBeNull();
        } else {
          expect(application.person_applications?.[0]?.id).toBe(application.primary_person_application_id);
        }
        expect(application.account_id !== null).toBe(application.status === 'approved');
      }
      expect(new Set(list.data.map((entry) => entry.status)).size).toBe(8);
      const id = client.sandbox.demo.accountApplications[0] ?? '';
      const one = await client.get(`/apply/account_application/${id}`);
      expect(one.status).toBe(200);
      expect((one.body as AccountApplication).id).toBe(id);
    });

    it('filters by each filterable field', async () => {
      const all = (
        (await client.get('/apply/account_application?page_size=1000')).body as { data: AccountApplication[] }
      ).data;
      const sample = all.find((entry) => entry.status === 'approved' && entry.ownership_type === 'business');
      expect(sample).toBeDefined();
      const filters: Record<string, string> = {
        status: 'kyc',
        ownership_type: 'business',
        account_product_id: sample?.account_product_id ?? '',
        account_id: sample?.account_id ?? '',
        business_application_id: sample?.business_application_id ?? '',
        primary_person_application_id: sample?.primary_person_application_id ?? '',
      };
      for (const [name, value] of Object.entries(filters)) {
        const expected = all.filter((entry) => entry[name] === value);
        const reply = await client.get(`/apply/account_application?page_size=1000&${name}=${value}`);
        expect((reply.body as { data: AccountApplication[] }).data).toEqual(expected);
        expect(expected.length).toBeGreaterThan(0);
      }
      const combined = await client.get('/apply/account_application?status=approved&ownership_type=personal');
      expect((combined.body as { data: AccountApplication[] }).data).toHaveLength(2);
    });

    it('pages with page_cursor = the last id seen, and refuses unknown cursors and filter values', async () => {
      const first = (await client.get('/apply/account_application?page_size=10')).body as {
        data: AccountApplication[];
        page_next: string;
      };
      const second = (await client.get(first.page_next.slice(client.sandbox.baseUrl.length))).body as {
        data: AccountApplication[];
      };
      expect(second.data[0]?.id).not.toBe(first.data[9]?.id);
      expect((await client.get('/apply/account_application?page_cursor=aact_unknown')).status).toBe(400);
      const badStatus = await client.get('/apply/account_application?status=pending&ownership_type=corporate');
      expect(badStatus.status).toBe(400);
      expect(error(badStatus.body)).toMatch(/status: .*ownership_type: /);
      expect((await client.get('/apply/account_application/aact_nope')).status).toBe(404);
    });
  });

  describe('accounts and ACHs', () => {
    it('lists and serves accounts, 404 for an unknown one', async () => {
      const list = (await client.get('/account')).body as { data: unknown[] };
      expect(list.data).toHaveLength(4);
      for (const entry of list.data) expect(parseWith(account, entry).ok).toBe(true);
      const id = client.sandbox.demo.accounts[2] ?? '';
      expect(((await client.get(`/account/${id}`)).body as { id: string }).id).toBe(id);
      expect((await client.get('/account/acct_nope')).status).toBe(404);
    });

    it('lists and serves ACHs', async () => {
      const list = (await client.get('/ach')).body as { data: { id: string }[] };
      expect(list.data.length).toBeGreaterThanOrEqual(5);
      const id = client.sandbox.demo.achs[0] ?? '';
      expect(((await client.get(`/ach/${id}`)).body as { id: string }).id).toBe(id);
      expect((await client.get('/ach/ach_nope')).status).toBe(404);
    });
  });

  describe('the HTTP edge', () => {
    it('answers malformed JSON, wrong Content-Type, empty and non-object bodies with clear errors', async () => {
      const raw = (text: string, contentType = 'application/json') =>
        client.call('POST', '/webhook', { raw: text, headers: { 'content-type': contentType } });
      const malformed = await raw('{"event": ');
      expect(malformed.status).toBe(400);
      expect(error(malformed.body)).toMatch(/not valid JSON/);
      const wrongType = await raw('event=ach.update', 'application/x-www-form-urlencoded');
      expect(wrongType.status).toBe(415);
      expect(error(wrongType.body)).toMatch(/Content-Type "application\/x-www-form-urlencoded" is not supported/);
      expect((await raw('')).status).toBe(400);
      const array = await raw('[1,2]');
      expect(array.status).toBe(400);
      expect(error(array.body)).toMatch(/must be a JSON object/);
      const missing = await client.call('POST', '/webhook', {});
      expect(error(missing.body)).toMatch(/body is missing/);
    });

    it('answers a JSON body over 1 MiB with 413', async () => {
      const reply = await client.call('POST', '/document', { body: { type: 'other', name: 'x'.repeat(1024 * 1024) } });
      expect(reply.status).toBe(413);
      expect(error(reply.body)).toMatch(/1 MiB/);
    });

    it('answers unknown routes with 404 and wrong methods with 405 and Allow', async () => {
      const unknown = await client.get('/accounts');
      expect(unknown.status).toBe(404);
      expect(error(unknown.body)).toMatch(/No route GET \/accounts/);
      const wrong = await client.call('DELETE', '/document');
      expect(wrong.status).toBe(405);
      expect(wrong.headers.get('allow')).toBe('POST, GET');
      const put = await client.call('PUT', `/account/${client.sandbox.demo.accounts[0] ?? ''}/pending_transaction`);
      expect(put.status).toBe(405);
      expect(put.headers.get('allow')).toBe('GET');
    });

    it('describes everything in an OpenAPI 3.1.0 document', async () => {
      const reply = await client.get('/openapi.json');
      expect(reply.status).toBe(200);
      const spec = reply.body as {
        openapi: string;
        info: { version: string };
        components: {
          securitySchemes: Record<string, { scheme: string }>;
          schemas: Record<string, { properties: Record<string, { deprecated?: boolean }> }>;
        };
        paths: Record<string, Record<string, unknown>>;
      };
      expect(spec.openapi).toBe('3.1.0');
      expect(spec.info.version).toBe('1.18.691-g9292fa6c');
      expect(spec.components.securitySchemes.basicAuth?.scheme).toBe('basic');
      expect(spec.components.securitySchemes.bearerAuth?.scheme).toBe('bearer');
      expect(spec.components.schemas.Document?.properties.description?.deprecated).toBe(true);
      for (const path of [
        '/account/{account_id}/pending_transaction',
        '/document',
        '/cardproduct/{card_product_id}/uxt_cardart',
        '/apply/account_application/{id}',
        '/webhook',
        '/webhook/{webhook_id}',
        '/webhook_send',
        '/file',
        '/auth/token',
        '/simulation',
        '/sandbox/organization',
        '/ping',
      ]) {
        expect(spec.paths[path], path).toBeDefined();
      }
    });
  });
});
