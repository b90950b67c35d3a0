/**
 * A minimal BankPort over `fetch`, for tests and the command line, until the app's bank
 * client (src/main/services/bank) is adapted to the port. Credentials are held in memory
 * only for the life of the port.
 */
import {
  listEnvelope,
  type ListEnvelope,
  parseOrThrow,
  webhook,
  webhookSend,
  type Webhook,
  type WebhookCreateRequest,
  type WebhookSend,
} from '../../../shared/bank/index.ts';
import { BankRequestError, isUnderBase, type BankPort, type WebhookSendQuery } from './bankPort.ts';

export type BankAuth = { scheme: 'basic'; keyId: string; keySecret: string } | { scheme: 'bearer'; token: string };

/** Pages followed at most by one listing: a bound, not a limit anyone should meet. */
const MAX_PAGES = 10_000;
const webhookSendPage = listEnvelope(webhookSend);

async function reasonOf(response: Response): Promise<string> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    // Not the bank's JSON error: fall back to the status line.
  }
  return `${response.status} ${response.statusText}`;
}

export function fetchBankPort(baseUrl: string, auth: BankAuth, timeoutMs = 15_000): BankPort {
  const root = baseUrl.replace(/\/+$/, '');
  const authorization =
    auth.scheme === 'basic'
      ? 'Basic ' + Buffer.from(`${auth.keyId}:${auth.keySecret}`).toString('base64')
      : `Bearer ${auth.token}`;

  async function call(method: string, url: string, body?: unknown): Promise<Response> {
    if (!isUnderBase(root, url))
      throw new Error(`Refusing to call ${url}: it is not under the bank's address ${root}.`);
    const response = await fetch(url, {
      method,
      headers: {
        authorization,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? null : JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new BankRequestError(response.status, await reasonOf(response));
    return response;
  }

  return {
    baseUrl: root,
    async getObject(url: string): Promise<unknown> {
      return (await call('GET', url)).json();
    },
    async *listWebhookSends(query: WebhookSendQuery): AsyncIterable<WebhookSend> {
      const first = new URL(root + '/webhook_send');
      for (const [name, value] of Object.entries(query)) {
        if (typeof value === 'string') first.searchParams.set(name, value);
      }
      first.searchParams.set('page_size', '1000');
      let next: string | null = first.href;
      for (let page = 0; next !== null && page < MAX_PAGES; page += 1) {
        const response: Response = await call('GET', next);
        const envelope: ListEnvelope<WebhookSend> = parseOrThrow(
          webhookSendPage,
          await response.json(),
          'webhook send list',
        );
        yield* envelope.data;
        next = envelope.data.length === 0 ? null : envelope.page_next;
      }
    },
    async createWebhook(request: WebhookCreateRequest): Promise<Webhook> {
      return parseOrThrow(webhook, await (await call('POST', root + '/webhook', request)).json(), 'webhook');
    },
    async deleteWebhook(id: string): Promise<void> {
      try {
        await call('DELETE', `${root}/webhook/${encodeURIComponent(id)}`);
      } catch (error) {
        if (error instanceof BankRequestError && error.status === 404) return;
        throw error;
      }
    },
  };
}
