/**
 * The interface's own checks (issue 27, item 7), on a real sandbox:
 * - every path the document lists answers every method it does not list with 405 and an
 *   `Allow` header naming those it does (QUERY, PROPFIND, HEAD and OPTIONS included), with or
 *   without a key: the method is wrong whoever asks;
 * - a JSON body over 1 MiB and a file over 10 MiB get a 413 that Node's fetch, axios, node:http
 *   and curl all read, whether the body's length is announced (Content-Length) or streamed
 *   (chunked), and the server answers the next request after it.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import axios from 'axios';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClient, type SandboxClient } from './sandboxClient.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'QUERY', 'PROPFIND', 'OPTIONS', 'HEAD'];
const JSON_OVER_LIMIT = Buffer.from(JSON.stringify({ type: 'other', name: 'x'.repeat(1024 * 1024 + 10) }));
const FILE_OVER_LIMIT = Buffer.alloc(10 * 1024 * 1024 + 1, 7);

let client: SandboxClient;
let folder: string;

beforeAll(async () => {
  client = await startClient({ accounts: 1, pendingTransactionsPerAccount: 2 });
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-interface-checks-'));
});

afterAll(async () => {
  await client.sandbox.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('a method a path does not serve', () => {
  it('is 405 with Allow on every documented path, with and without a key', async () => {
    const document = (await client.get('/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    let checked = 0;
    for (const [path, operations] of Object.entries(document.paths)) {
      const documented = Object.keys(operations).map((method) => method.toUpperCase());
      const target = path.replace(/\{[^}]+\}/g, 'some_id');
      for (const method of METHODS.filter((one) => !documented.includes(one))) {
        for (const authorization of [client.basic, undefined]) {
          const response = await fetch(client.sandbox.baseUrl + target, {
            method,
            headers: authorization === undefined ? {} : { authorization },
          });
          const said = `${method} ${target} ${authorization === undefined ? 'without' : 'with'} a key`;
          expect(response.status, said).toBe(405);
          expect(new Set((response.headers.get('allow') ?? '').split(', ')), said).toEqual(new Set(documented));
          const text = await response.text();
          if (method !== 'HEAD') {
            const { error } = JSON.parse(text) as { error: string };
            expect(error, said).toMatch(`Method ${method} is not allowed on ${target}: use `);
            for (const allowed of documented) expect(error, said).toContain(allowed);
          }
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('QUERY with a body is 405 too, never a 400 about its Content-Type', async () => {
    const response = await fetch(`${client.sandbox.baseUrl}/webhook`, {
      method: 'QUERY',
      headers: { authorization: client.basic, 'content-type': 'application/json' },
      body: '{"event":"ach.create"}',
    });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, GET');
    await response.text();
  });

  it('an unknown path stays 404, and asks for the key first', async () => {
    expect((await fetch(`${client.sandbox.baseUrl}/accounts`, { method: 'QUERY' })).status).toBe(401);
    const known = await fetch(`${client.sandbox.baseUrl}/accounts`, {
      method: 'QUERY',
      headers: { authorization: client.basic },
    });
    expect(known.status).toBe(404);
  });
});

interface Oversized {
  what: string;
  path: string;
  contentType: string;
  body: Buffer;
  limit: RegExp;
}

const OVERSIZED: Oversized[] = [
  {
    what: 'a JSON body over 1 MiB',
    path: '/document',
    contentType: 'application/json',
    body: JSON_OVER_LIMIT,
    limit: /1 MiB/,
  },
  { what: 'a file over 10 MiB', path: '/file', contentType: 'image/png', body: FILE_OVER_LIMIT, limit: /10 MiB/ },
];

interface Read413 {
  status: number;
  error: string;
}

function errorOf(text: string): string {
  return (JSON.parse(text) as { error: string }).error;
}

async function stillAnswers(): Promise<void> {
  expect((await client.get('/ping')).status).toBe(200);
}

function curl(arguments_: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'curl',
      ['-sS', '--max-time', '120', ...arguments_],
      { maxBuffer: 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`curl failed: ${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

function httpPost(oversized: Oversized, chunked: boolean): Promise<Read413> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      `${client.sandbox.baseUrl}${oversized.path}`,
      {
        method: 'POST',
        headers: {
          authorization: client.basic,
          'content-type': oversized.contentType,
          ...(chunked ? {} : { 'content-length': String(oversized.body.length) }),
        },
      },
      (incoming) => {
        let text = '';
        incoming.setEncoding('utf8');
        incoming.on('data', (chunk: string) => (text += chunk));
        incoming.on('end', () => {
          resolve({ status: incoming.statusCode ?? 0, error: errorOf(text) });
        });
      },
    );
    // The server may close its side once it has answered; the answer has been read by then.
    outgoing.on('error', reject);
    if (chunked) {
      for (let offset = 0; offset < oversized.body.length; offset += 64 * 1024) {
        outgoing.write(oversized.body.subarray(offset, offset + 64 * 1024));
      }
      outgoing.end();
    } else {
      outgoing.end(oversized.body);
    }
  });
}

describe.each(OVERSIZED)('$what', (oversized) => {
  const headers = () => ({ authorization: client.basic, 'content-type': oversized.contentType });
  const url = () => `${client.sandbox.baseUrl}${oversized.path}`;
  const expect413 = (read: Read413) => {
    expect(read.status).toBe(413);
    expect(read.error).toMatch(oversized.limit);
  };

  it('is a 413 Node’s fetch reads, its length announced', async () => {
    const response = await fetch(url(), { method: 'POST', headers: headers(), body: oversized.body });
    expect413({ status: response.status, error: errorOf(await response.text()) });
    await stillAnswers();
  });

  it('is a 413 Node’s fetch reads, streamed (chunked)', async () => {
    const response = await fetch(url(), {
      method: 'POST',
      headers: headers(),
      body: Readable.toWeb(Readable.from([oversized.body])),
      duplex: 'half',
    });
    expect413({ status: response.status, error: errorOf(await response.text()) });
    await stillAnswers();
  });

  it('is a 413 axios reads', async () => {
    const response = await axios.post<string>(url(), oversized.body, {
      headers: headers(),
      validateStatus: () => true,
      maxBodyLength: Number.POSITIVE_INFINITY,
      responseType: 'text',
      transformResponse: (data: string) => data,
    });
    expect413({ status: response.status, error: errorOf(response.data) });
    await stillAnswers();
  });

  it('is a 413 node:http reads, announced and chunked', async () => {
    expect413(await httpPost(oversized, false));
    expect413(await httpPost(oversized, true));
    await stillAnswers();
  });

  it('is a 413 curl reads, announced and chunked', async () => {
    const file = join(folder, `${oversized.contentType.replace('/', '-')}.body`);
    writeFileSync(file, oversized.body);
    for (const extra of [[], ['-H', 'Transfer-Encoding: chunked']]) {
      const output = await curl([
        '-w',
        '\n%{http_code}',
        '-X',
        'POST',
        '-H',
        `authorization: ${client.basic}`,
        '-H',
        `content-type: ${oversized.contentType}`,
        ...extra,
        '--data-binary',
        `@${file}`,
        url(),
      ]);
      const [text = '', status = ''] = output.split('\n');
      expect413({ status: Number(status), error: errorOf(text) });
    }
    await stillAnswers();
  });
});
