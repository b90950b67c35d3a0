/**
 * Contract (b): every request the real service was sent (../shared/real-wire, both files) is
 * sent again, as recorded, to the real sandbox on loopback, in the order it was recorded: the
 * sandbox must answer the recorded status, with every field of the recorded body present and
 * of a compatible type (support/compatibility.ts), and the recorded response headers.
 *
 * Ids are translated (support/idTranslation.ts): an object a replayed request made is the
 * sandbox's own; one the recording found already there is played by a stand-in arranged
 * first. The vendor's examples record an answer but not its request: for those, the request
 * is the answer's request-side fields (the ones `POST /apply/account_application` takes), or
 * none for a GET. Authorization was redacted by the recorder: the sandbox's key is sent.
 */
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountApplicationCreateFields } from '../../src/shared/bank/index.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { fieldsMissingOrDifferent } from './support/compatibility.ts';
import { IdTranslation } from './support/idTranslation.ts';
import { recordedExchanges, type RecordedExchange } from './support/realWire.ts';

const exchanges = recordedExchanges();
let sandbox: RunningSandbox;
let ids: IdTranslation;

interface SandboxAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text: string;
}

function basic(): string {
  return `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64')}`;
}

/** One request, exactly: the recorded headers (Content-Type on a bodyless GET or DELETE included), no more. */
function send(method: string, path: string, headers: Record<string, string>, body: unknown): Promise<SandboxAnswer> {
  const payload = body === null ? null : Buffer.from(JSON.stringify(body));
  const url = new URL(path, sandbox.baseUrl);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      {
        method,
        headers: {
          ...headers,
          authorization: basic(),
          ...(payload === null ? {} : { 'content-length': String(payload.length) }),
        },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = null;
          if (text !== '') {
            try {
              parsed = JSON.parse(text) as unknown;
            } catch {
              parsed = text;
            }
          }
          resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: parsed, text });
        });
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload ?? undefined);
  });
}

async function arrange(method: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await send(method, path, { 'Content-Type': 'application/json' }, body);
  if (answer.status < 200 || answer.status >= 300)
    throw new Error(`arranging ${method} ${path}: ${String(answer.status)} ${answer.text}`);
  return answer.body as Record<string, unknown>;
}

/** The request a vendor example stands for: the fields of its answer that the create takes. */
function requestOfExample(exchange: RecordedExchange): unknown {
  if (exchange.request.method !== 'POST') return null;
  const answer = exchange.response.body as Record<string, unknown>;
  const takes = Object.keys(accountApplicationCreateFields.shape);
  return Object.fromEntries(Object.entries(answer).filter(([name, value]) => takes.includes(name) && value !== null));
}

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, dataFile: ':memory:', pendingTransactionsPerAccount: 40 });
  // Stand-ins for what the recordings found already there: an applicant, a webhook (so the
  // recorded list of webhooks has something to be compared with), and seeded objects.
  const applicant = await arrange('POST', '/apply/person_application', {
    first_name: 'Contract',
    last_name: 'Stand-in',
    date_of_birth: '1980-05-17',
    email_address: 'contract@example.com',
    phone_number: '2025550100',
    citizenship: 'US',
    physical_address: { street_line_1: '1 Main St', city: 'Washington', state: 'DC', postal_code: '20500' },
  });
  // Discard port on loopback: no event of the replay is one this webhook waits for.
  const webhook = await arrange('POST', '/webhook', { event: 'ach.update', url: 'http://127.0.0.1:9/stand-in' });
  ids = new IdTranslation({
    account: sandbox.demo.accounts[0],
    accountApplication: sandbox.demo.accountApplications[0],
    personApplication: String(applicant['id']),
    webhook: String(webhook['id']),
    cardProduct: sandbox.demo.cardProducts[0],
    file: sandbox.demo.files[0],
    document: sandbox.demo.documents[0],
  });
});

afterAll(async () => {
  await sandbox.close();
});

describe('every recorded request of the real service gets the recorded answer from the sandbox', () => {
  it.each(exchanges.map((exchange) => [`${exchange.source} ${exchange.name}`, exchange] as const))(
    '%s',
    async (_name, exchange) => {
      const path = ids.path(exchange.request.path);
      const body = ids.body(exchange.request.recorded ? exchange.request.body : requestOfExample(exchange));
      const headers = exchange.request.recorded ? exchange.request.headers : { 'Content-Type': 'application/json' };
      const answer = await send(exchange.request.method, path, headers, body);

      expect(answer.status, `${exchange.request.method} ${path} answered ${answer.text}`).toBe(
        exchange.response.status,
      );
      const recorded = exchange.response.body;
      if (recorded !== null) {
        expect(fieldsMissingOrDifferent(recorded, answer.body), `the fields of ${exchange.name}`).toEqual([]);
      } else {
        expect(answer.text, 'no body, as recorded').toBe('');
      }
      for (const [name, value] of Object.entries(exchange.response.headers)) {
        expect(answer.headers[name], `header ${name}`).toBe(value);
      }
      // An object this request made stands for the recorded one from now on.
      const recordedId = (recorded as { id?: unknown } | null)?.id;
      const servedId = (answer.body as { id?: unknown } | null)?.id;
      if (typeof recordedId === 'string' && typeof servedId === 'string' && exchange.request.method === 'POST') {
        ids.created(recordedId, servedId);
      }
    },
  );
});

describe('the comparison itself', () => {
  it('names a field the sandbox leaves out, and one of another type', async () => {
    const { fieldsMissingOrDifferent: compare } = await import('./support/compatibility.ts');
    expect(compare({ data: [{ id: 'a', amount: '1.00', extra: 1 }] }, { data: [{ id: 'b', amount: 1 }] })).toEqual([
      'data[0].amount: the real service sends string, the sandbox number',
      "data[0].extra: missing from the sandbox's answer",
    ]);
    expect(compare({ data: [{ id: 'a' }] }, { data: [] })).toEqual([
      'data: the sandbox listed nothing to compare with',
    ]);
    expect(compare({ account_id: 'acct_1', roles: ['owner'] }, { account_id: null, roles: [] })).toEqual([]);
  });
});
