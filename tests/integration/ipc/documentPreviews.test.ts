/**
 * Document previews (issue 24, item 3) through the real router on the real services, cache and
 * sandbox bank: an applicant names documents whose files are a PNG, a PDF, a text file and a
 * file that says it is a PNG but is not. The first preview fetches the file from the bank (GET
 * /document/{id}, GET /file/{id}/content) and keeps it sealed in the cache; the next one reads
 * the cache, even with the bank down. Unknown documents, a file over the size cap, a type off
 * the allow-list and the bank being down are each refused with their own sentence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFileOf } from '../../../src/main/services/applicants/documentFiles.ts';
import { createDocumentPreviewHandlers } from '../../../src/main/ipc/documentPreviewHandlers.ts';
import type { LedgerServices } from '../../../src/main/services/ledgerServices.ts';
import { solidPng } from '../../../src/sandbox/seed/pngImage.ts';
import type { LedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';
import { startBank, type RunningSandbox } from '../services/support/sandboxBank.ts';
import { openServicesOverIpc, refusal, type ServicesOverIpc } from './support/servicesOverIpc.ts';
import { onePagePdf } from '../../e2e/support/pdfFiles.ts';

const PNG = solidPng(40, 20, [22, 66, 120]);
const PDF = onePagePdf('Certificate of formation');
const BIG_PNG = solidPng(300, 200, [200, 30, 30]);
const documents: Record<'png' | 'pdf' | 'text' | 'fakePng' | 'big', string> = {
  png: '',
  pdf: '',
  text: '',
  fakePng: '',
  big: '',
};
let bankClosed = false;
let applicantId = '';
let applicationId = '';

function basic(): string {
  return `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64')}`;
}

async function post(path: string, body: Buffer | object, contentType = 'application/json'): Promise<{ id: string }> {
  const answer = await fetch(`${sandbox.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: basic(), 'content-type': contentType },
    body: Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
  expect(answer.status, `${path}: ${await answer.clone().text()}`).toBe(200);
  return (await answer.json()) as { id: string };
}

/** Four files, a document for each, a person naming them all, an application naming the person. */
async function seedApplicant(): Promise<void> {
  const files = {
    png: await post('/file', PNG, 'image/png'),
    pdf: await post('/file', PDF, 'application/pdf'),
    text: await post('/file', Buffer.from('not a scan'), 'text/plain'),
    fakePng: await post('/file', Buffer.from('<html>not a png</html>'), 'image/png'),
    big: await post('/file', BIG_PNG, 'image/png'),
  };
  for (const key of Object.keys(files) as (keyof typeof files)[]) {
    const document = await post('/document', {
      type: 'other',
      name: `Scan ${key}`,
      file_id: files[key].id,
      fields: {},
    });
    documents[key] = document.id;
  }
  const person = await post('/apply/person_application', {
    first_name: 'Grace',
    last_name: 'Hopper',
    date_of_birth: '1986-12-09',
    email_address: 'grace@example.com',
    phone_number: '2025550123',
    citizenship: 'US',
    physical_address: { street_line_1: '1 Main St', city: 'Washington', state: 'DC', postal_code: '20500' },
    document_ids: Object.values(documents),
  });
  applicantId = person.id;
  applicationId = (
    await post('/apply/account_application', { primary_person_application_id: person.id, product: 'personal_checking' })
  ).id;
}

let services: ServicesOverIpc;
let sandbox: RunningSandbox;
let ledger: LedgerServices;
let api: LedgerdeskApi;
let profileId: string;

beforeAll(async () => {
  sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 2 });
  services = await openServicesOverIpc({
    folderPrefix: 'document-previews',
    bank: sandbox,
    domains: (wired) => ({ ...createDocumentPreviewHandlers(wired) }),
  });
  ({ ledger, api, profileId } = services);
  await seedApplicant();
  const outcome = await ledger.sync.start({ kind: 'account-application', profileId, applicationId }).done;
  expect(outcome.error ?? null).toBeNull();
  expect(outcome.state).toBe('done');
});

afterAll(async () => {
  await services.close();
  if (!bankClosed) await sandbox.close();
});

function preview(documentId: string) {
  return api.documentPreviews.get({ profileId, applicantId, documentId });
}

describe('document previews', () => {
  it('fetches a PNG from the bank on first preview, then reads it from the cache, sealed at rest', async () => {
    const first = await preview(documents.png);
    expect(first.source).toBe('bank');
    expect(first.contentType).toBe('image/png');
    expect(Buffer.from(first.contentBase64, 'base64').equals(PNG)).toBe(true);
    const again = await preview(documents.png);
    expect(again.source).toBe('cache');
    expect(again.fetchedAt).toBe(first.fetchedAt);
    expect(Buffer.from(again.contentBase64, 'base64').equals(PNG)).toBe(true);
    // Sealed: the cache file holds no run of the image's bytes in clear.
    const row = ledger.cache.database
      .prepare('SELECT body, byte_length, content_type FROM document_files WHERE profile_id = ? AND document_id = ?')
      .get(profileId, documents.png) as { body: Uint8Array; byte_length: number; content_type: string };
    expect(row.byte_length).toBe(PNG.length);
    expect(row.content_type).toBe('image/png');
    expect(Buffer.from(row.body).includes(PNG.subarray(0, 24))).toBe(false);
  });

  it('previews a PDF as its bytes and type', async () => {
    const pdf = await preview(documents.pdf);
    expect(pdf.contentType).toBe('application/pdf');
    expect(Buffer.from(pdf.contentBase64, 'base64').equals(PDF)).toBe(true);
  });

  it('refuses a document the applicant does not name, and one the bank no longer returns', async () => {
    const unknown = await refusal(preview('doc_notnamedbyanyone'));
    expect(unknown.code).toBe('not_found');
    expect(unknown.message).toBe(`Applicant ${applicantId} names no document doc_notnamedbyanyone.`);
    const nobody = await refusal(
      api.documentPreviews.get({ profileId, applicantId: 'apsn_nobody', documentId: documents.png }),
    );
    expect(nobody.code).toBe('not_found');
    expect(nobody.message).toBe('There is no cached applicant apsn_nobody.');
  });

  it('refuses a type off the allow-list, and bytes that are not what their type says', async () => {
    const text = await refusal(preview(documents.text));
    expect(text.code).toBe('bank_error');
    expect(text.message).toContain('is text/plain; previews show PNG, JPEG and PDF only');
    const fake = await refusal(preview(documents.fakePng));
    expect(fake.code).toBe('bank_error');
    expect(fake.message).toContain('says it is image/png, but its bytes are not');
    // Neither is kept.
    expect(ledger.cache.documentFiles.get(profileId, documents.text)).toBeNull();
    expect(ledger.cache.documentFiles.get(profileId, documents.fakePng)).toBeNull();
  });

  it('refuses a file over the size cap while it arrives, keeping nothing', async () => {
    const refused = documentFileOf(
      {
        applicants: ledger.cache.applicants,
        files: ledger.cache.documentFiles,
        bank: () => ledger.clients.clientFor(profileId),
        now: () => new Date(),
        maxBytes: 64,
      },
      { profileId, applicantId, documentId: documents.big },
    );
    expect(BIG_PNG.length).toBeGreaterThan(64);
    await expect(refused).rejects.toThrow(
      `The file of document ${documents.big} is larger than 64 bytes, the most a preview reads.`,
    );
    expect(ledger.cache.documentFiles.get(profileId, documents.big)).toBeNull();
  });

  it('says the bank is down for a file not cached, and still shows a cached one', async () => {
    await sandbox.close();
    bankClosed = true;
    const down = await refusal(preview(documents.big));
    expect(down.code).toBe('offline');
    const cached = await preview(documents.png);
    expect(cached.source).toBe('cache');
  });
});
