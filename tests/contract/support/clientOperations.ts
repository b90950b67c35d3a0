/**
 * Which call of the real BankClient reads each recorded answer: the operation the recorded
 * request is. A recorded request no call makes fails the suite by name, so a new recording
 * cannot go unread. For creates, the client sends its own valid request (the client's strict
 * schemas refuse what the real service refuses, like the deprecated `product`); what is under
 * test here is the reading of the answer.
 */
import type { BankClient } from '../../../src/main/services/bank/bankClient.ts';
import type { RecordedExchange } from './realWire.ts';

export interface ClientRead {
  /** What the client made of the answer: an object, a list's items, or nothing (204). */
  value: unknown;
  /** The operation, in the interface's words. */
  operation: string;
}

async function allItems<Item>(pages: AsyncIterable<{ items: Item[] }>): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of pages) items.push(...page.items);
  return items;
}

function field(body: unknown, name: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? value : fallback;
}

type Operation = (client: BankClient, exchange: RecordedExchange, match: RegExpExecArray) => Promise<unknown>;

const OPERATIONS: readonly { method: string; path: RegExp; operation: string; call: Operation }[] = [
  {
    method: 'GET',
    path: /^\/apply\/account_application\/([^/]+)$/,
    operation: 'GET /apply/account_application/{id}',
    call: (client, _exchange, match) => client.getAccountApplication(decodeURIComponent(match[1] ?? '')),
  },
  {
    method: 'GET',
    path: /^\/apply\/account_application$/,
    operation: 'GET /apply/account_application',
    // Each application read on its own: a recorded one the client could not read shows as its problems.
    call: async (client) =>
      (await allItems(client.accountApplicationPages())).map((received) =>
        received.ok ? received.value : { malformed: received.problems },
      ),
  },
  {
    method: 'POST',
    path: /^\/apply\/account_application$/,
    operation: 'POST /apply/account_application',
    call: (client, exchange) =>
      client.createAccountApplication({
        primary_person_application_id: stringOr(
          field(exchange.request.body, 'primary_person_application_id') ??
            field(exchange.response.body, 'primary_person_application_id'),
          'apsn_contract',
        ),
        account_product_id: stringOr(field(exchange.response.body, 'account_product_id'), 'apt_contract'),
      }),
  },
  {
    method: 'POST',
    path: /^\/apply\/person_application$/,
    operation: 'POST /apply/person_application',
    // The recorded body is a valid request for the client: the age rule is the bank's.
    call: (client, exchange) =>
      client.createPersonApplication(exchange.request.body as Parameters<BankClient['createPersonApplication']>[0]),
  },
  {
    method: 'POST',
    path: /^\/webhook$/,
    operation: 'POST /webhook',
    call: (client, exchange) =>
      client.createWebhook(exchange.request.body as Parameters<BankClient['createWebhook']>[0]),
  },
  {
    method: 'GET',
    path: /^\/webhook$/,
    operation: 'GET /webhook',
    call: (client) => client.listWebhooks(),
  },
  {
    method: 'DELETE',
    path: /^\/webhook\/([^/]+)$/,
    operation: 'DELETE /webhook/{id}',
    call: (client, _exchange, match) => client.deleteWebhook(decodeURIComponent(match[1] ?? '')),
  },
  {
    method: 'GET',
    path: /^\/cardproduct$/,
    operation: 'GET /cardproduct',
    call: (client) => client.listCardProducts(),
  },
  {
    method: 'GET',
    path: /^\/account\/([^/]+)\/transaction$/,
    operation: 'GET /account/{account_id}/transaction',
    call: (client, _exchange, match) => allItems(client.transactionPages(decodeURIComponent(match[1] ?? ''))),
  },
];

/** The client call that makes the recorded request, or null when none does. */
export function clientOperationFor(exchange: RecordedExchange): ((client: BankClient) => Promise<ClientRead>) | null {
  for (const candidate of OPERATIONS) {
    if (candidate.method !== exchange.request.method) continue;
    const match = candidate.path.exec(exchange.request.path);
    if (match === null) continue;
    return async (client) => ({
      operation: candidate.operation,
      value: await candidate.call(client, exchange, match),
    });
  }
  return null;
}
