/**
 * Issue 37, item 3: a file's content is read whether the bank answers its bytes or, as the
 * vendor documents GET /file/{id}/content ("Download a file", in
 * ../shared/real-wire/docs-examples.json), JSON with a short-lived `content_url`, fetched at
 * once without the bank's Authorization. The lean sandbox answers the JSON form, and its
 * download address refuses a request that carries an Authorization header.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BankClient } from '../../../src/main/services/bank/bankClient.ts';
import { BankError } from '../../../src/main/services/bank/bankError.ts';
import type { SandboxTraffic } from '../../../src/sandbox/index.ts';
import { basicOf, startBank, type RunningSandbox } from '../services/support/sandboxBank.ts';
import { json, startFaultServer, type FaultServer } from '../services/support/faultServer.ts';

const PREVIEW = { maxBytes: 10 * 1024 * 1024, accept: ['image/png', 'image/jpeg', 'application/pdf'] };

interface DocsExtra {
  id: string;
  response: { content_type?: string; body: Record<string, unknown> };
}
const docs = JSON.parse(
  readFileSync(new URL('../../../../shared/real-wire/docs-examples.json', import.meta.url), 'utf8'),
) as {
  extra_examples: DocsExtra[];
};
const documentedAnswer = docs.extra_examples.find((example) => example.id === 'docs-extra:file.content');

let lean: RunningSandbox;
let full: RunningSandbox;
const traffic: SandboxTraffic[] = [];

beforeAll(async () => {
  [lean, full] = await Promise.all([startBank({ lean: true, traffic: (entry) => traffic.push(entry) }), startBank({})]);
});

afterAll(async () => {
  await Promise.all([lean.close(), full.close()]);
});

function clientOf(sandbox: RunningSandbox, baseUrl = sandbox.baseUrl): BankClient {
  return new BankClient({
    profileName: 'Bank',
    authScheme: 'basic',
    baseUrl,
    authorization: () => Promise.resolve({ header: basicOf(sandbox), expiresAt: null }),
    retry: { baseDelayMs: 5, maxDelayMs: 10 },
  });
}

async function fileRecord(
  sandbox: RunningSandbox,
  id: string,
): Promise<{ content_hash: string; content_type: string }> {
  const answer = await fetch(`${sandbox.baseUrl}/file/${id}`, { headers: { authorization: basicOf(sandbox) } });
  return (await answer.json()) as { content_hash: string; content_type: string };
}

describe('GET /file/{id}/content', () => {
  it('is the documented JSON form in the lean sandbox: content_url, fetched without the bank’s Authorization', async () => {
    const [fileId] = lean.demo.files;
    if (fileId === undefined) throw new Error('the sandbox seeded no file');
    const raw = await fetch(`${lean.baseUrl}/file/${fileId}/content`, { headers: { authorization: basicOf(lean) } });
    expect(raw.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await raw.json()) as Record<string, unknown>;
    // The documented answer's fields, each of the documented type.
    expect(documentedAnswer).toBeDefined();
    for (const [field, example] of Object.entries(documentedAnswer?.response.body ?? {})) {
      expect(typeof body[field], field).toBe(typeof example);
    }
    const withKey = await fetch(String(body['content_url']), { headers: { authorization: basicOf(lean) } });
    expect(withKey.status).toBe(400);

    const record = await fileRecord(lean, fileId);
    const mark = traffic.length;
    const file = await clientOf(lean).readFileContent(fileId, PREVIEW);
    expect(createHash('sha1').update(file.bytes).digest('hex')).toBe(record.content_hash);
    expect(file.contentType).toBe(record.content_type);
    const requests = traffic.slice(mark).flatMap((entry) => (entry.kind === 'request' ? [entry] : []));
    expect(requests.map((entry) => entry.path.replace(/[^/]+$/, '*'))).toEqual([
      `/file/${fileId}/*`,
      '/sandbox/file_download/*',
    ]);
    // The bank's key authenticated the first; the download carried none (it would have been refused).
    expect(requests.map((entry) => [entry.status, entry.keyId])).toEqual([
      [200, lean.keyId],
      [200, null],
    ]);
  });

  it('reads the same bytes as the full sandbox answers directly', async () => {
    const [fileId] = full.demo.files;
    if (fileId === undefined) throw new Error('the sandbox seeded no file');
    const file = await clientOf(full).readFileContent(fileId, PREVIEW);
    expect(createHash('sha1').update(file.bytes).digest('hex')).toBe((await fileRecord(full, fileId)).content_hash);
  });
});

describe('a bank that answers exactly as the vendor documents it', () => {
  let bank: FaultServer;
  let storage: FaultServer;
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

  beforeAll(async () => {
    [bank, storage] = await Promise.all([startFaultServer(), startFaultServer()]);
  });
  afterAll(async () => {
    await Promise.all([bank.close(), storage.close()]);
  });

  function documented(overrides: Record<string, unknown>): Record<string, unknown> {
    return { ...documentedAnswer?.response.body, ...overrides };
  }

  it('follows content_url on another host, with no Authorization, and takes the declared type over octet-stream', async () => {
    bank.respond((_request, response) => {
      json(
        response,
        200,
        documented({
          content_url: `${storage.baseUrl}/signed/abc?sig=1`,
          content_type: 'image/png',
          content_length: png.length,
        }),
      );
    });
    storage.respond((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      response.end(png);
    });
    const file = await clientOf(full, bank.baseUrl).readFileContent('file_1', PREVIEW);
    expect(Buffer.from(file.bytes).equals(png)).toBe(true);
    expect(file.contentType).toBe('image/png');
    expect(bank.requests.at(-1)?.headers.authorization).toBe(basicOf(full));
    expect(storage.requests.at(-1)?.url).toBe('/signed/abc?sig=1');
    expect(storage.requests.at(-1)?.headers.authorization).toBeUndefined();
  });

  it('refuses a file the answer says is larger than the cap, before downloading it', async () => {
    const before = storage.requests.length;
    bank.respond((_request, response) => {
      json(response, 200, documented({ content_url: `${storage.baseUrl}/big`, content_length: PREVIEW.maxBytes + 1 }));
    });
    const error = (await clientOf(full, bank.baseUrl)
      .readFileContent('file_1', PREVIEW)
      .catch((failure: unknown) => failure)) as BankError;
    expect(error.kind).toBe('too-large');
    expect(storage.requests.length).toBe(before);
  });

  it('refuses a download larger than the cap as it arrives', async () => {
    bank.respond((_request, response) => {
      json(response, 200, documented({ content_url: `${storage.baseUrl}/big`, content_length: 10 }));
    });
    storage.respond((_request, response) => {
      response.writeHead(200, { 'content-type': 'image/png' });
      response.end(Buffer.alloc(2048));
    });
    const error = (await clientOf(full, bank.baseUrl)
      .readFileContent('file_1', { ...PREVIEW, maxBytes: 1024 })
      .catch((failure: unknown) => failure)) as BankError;
    expect(error.kind).toBe('too-large');
  });

  it('says an expired download address so, and an answer without content_url as unreadable', async () => {
    bank.respond((_request, response) => {
      json(response, 200, documented({ content_url: `${storage.baseUrl}/expired` }));
    });
    storage.respond((_request, response) => {
      response.writeHead(403, { 'content-type': 'application/xml' });
      response.end('<Error><Code>AccessDenied</Code></Error>');
    });
    const expired = (await clientOf(full, bank.baseUrl)
      .readFileContent('file_1', PREVIEW)
      .catch((failure: unknown) => failure)) as BankError;
    expect(expired.kind).toBe('forbidden');
    expect(expired.remedy).toMatch(/valid only a short time/);

    bank.respond((_request, response) => {
      json(response, 200, { id: 'file_1', content_type: 'image/png' });
    });
    const unreadable = (await clientOf(full, bank.baseUrl)
      .readFileContent('file_1', PREVIEW)
      .catch((failure: unknown) => failure)) as BankError;
    expect(unreadable.kind).toBe('schema-violation');
    expect(unreadable.message).toMatch(/without a usable content_url/);
  });

  it('never downloads from http:// when the bank is https://', async () => {
    const https = new BankClient({
      profileName: 'Bank',
      authScheme: 'basic',
      baseUrl: 'https://bank.invalid',
      authorization: () => Promise.resolve({ header: 'Basic x', expiresAt: null }),
    });
    await expect(
      https.http.fetchLinked({ url: `${storage.baseUrl}/x`, endpoint: 'GET x', accept: '*/*', maxBytes: 10 }),
    ).rejects.toThrow(/is not https:\/\//);
  });
});
