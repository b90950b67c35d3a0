/**
 * Contract (a): every answer the real service gave (../shared/real-wire, both files) is served
 * again from loopback, status, headers and body as recorded, to the app's own BankClient
 * over HTTP, and the client reads it: an object or a list exactly as sent, a 204 as done, an
 * error as the bank's own sentence. Each request the client made is checked against the
 * recorded one (method and path; the body too where the client sends the recorded one).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BankClient } from '../../src/main/services/bank/bankClient.ts';
import { BankError } from '../../src/main/services/bank/bankError.ts';
import type { DriftObservation } from '../../src/main/services/bank/fieldDrift.ts';
import { clientOperationFor } from './support/clientOperations.ts';
import { recordedExchanges, type RecordedExchange } from './support/realWire.ts';
import { startReplayBank, type ReplayBank } from './support/replayBank.ts';

const exchanges = recordedExchanges();
let bank: ReplayBank;

beforeAll(async () => {
  bank = await startReplayBank();
});

afterAll(async () => {
  await bank.close();
});

function clientOn(baseUrl: string, drift: DriftObservation[]): BankClient {
  return new BankClient(
    {
      profileName: 'Real wire',
      authScheme: 'basic',
      baseUrl,
      authorization: () =>
        Promise.resolve({ header: `Basic ${Buffer.from('key_contract:secret').toString('base64')}`, expiresAt: null }),
      // One attempt: a recorded answer is what it is; nothing here should need a retry.
      retry: { maxAttempts: 1 },
    },
    { onDrift: (observation) => drift.push(observation) },
  );
}

function objectOf(value: unknown): Record<string, unknown> {
  expect(typeof value === 'object' && value !== null && !Array.isArray(value), 'an object').toBe(true);
  return value as Record<string, unknown>;
}

async function replay(exchange: RecordedExchange): Promise<{ value: unknown; drift: DriftObservation[] }> {
  const operation = clientOperationFor(exchange);
  if (operation === null) {
    throw new Error(`No BankClient call makes ${exchange.request.method} ${exchange.request.path} (${exchange.name}).`);
  }
  bank.answerWith(exchange);
  const drift: DriftObservation[] = [];
  const read = await operation(clientOn(bank.baseUrl, drift));
  return { value: read.value, drift };
}

describe('every recorded answer of the real service is read by the BankClient', () => {
  it('has recordings to replay from both files', () => {
    expect(exchanges.filter((exchange) => exchange.source === 'sbx-cassettes.json').length).toBeGreaterThan(0);
    expect(exchanges.filter((exchange) => exchange.source === 'hack-examples.json').length).toBeGreaterThan(0);
  });

  it.each(exchanges.map((exchange) => [`${exchange.source} ${exchange.name}`, exchange] as const))(
    '%s',
    async (_name, exchange) => {
      const { status, body } = exchange.response;
      if (status >= 400) {
        const failure = await replay(exchange).then(
          () => null,
          (error: unknown) => error,
        );
        expect(failure, 'the client reports the refusal').toBeInstanceOf(BankError);
        const bankError = failure as BankError;
        expect(bankError.status).toBe(status);
        // The bank's own sentence reaches the user as sent.
        expect(bankError.serverMessage).toBe((body as { error: string }).error);
      } else {
        const { value } = await replay(exchange);
        if (body === null) {
          expect(value, 'an empty answer is read as done').toBeUndefined();
        } else if (Array.isArray(objectOf(body)['data'])) {
          // A list: every item, exactly as sent (unknown fields kept, absent ones left absent).
          expect(value).toEqual(objectOf(body)['data']);
        } else {
          expect(objectOf(value)).toEqual(body);
        }
      }
      // The client asked for what the recording shows.
      const asked = bank.received[0];
      expect(asked?.method).toBe(exchange.request.method);
      expect(asked?.path).toBe(exchange.request.path);
      if (
        exchange.request.recorded &&
        exchange.request.body !== null &&
        /\/(webhook|person_application)$/.test(asked?.path ?? '')
      ) {
        // Where the client sends the recorded body, it sends it unchanged (null basic_user included).
        expect(JSON.parse(asked?.body ?? 'null')).toEqual(exchange.request.body);
      }
    },
  );
});

describe('drift, as the client measures it on the recorded answers', () => {
  function driftOfExchange(name: string) {
    const exchange = exchanges.find((candidate) => candidate.name === name);
    if (exchange === undefined) throw new Error(`no recording ${name}`);
    return replay(exchange).then((read) => read.drift);
  }

  it('names the expected fields a real account application left out, by name only', async () => {
    const drift = await driftOfExchange('get_account_application_success.yml');
    const application = drift.find((observation) => observation.resource === 'account_application');
    expect(application?.records).toBe(1);
    expect(Object.keys(application?.missing ?? {})).toEqual(
      expect.arrayContaining(['account_product_id', 'account_number_reservation_id']),
    );
    expect(JSON.stringify(drift)).not.toMatch(/aact_|apsn_|acct_|137000/);
  });

  it('counts the lists that came without page_next', async () => {
    for (const name of ['get_webhooks_success.yml', 'get_card_products_success.yml']) {
      const drift = await driftOfExchange(name);
      const envelope = drift.find((observation) => observation.resource.endsWith(' list'));
      expect(envelope?.missing, name).toEqual({ page_next: 1 });
    }
  });
});
