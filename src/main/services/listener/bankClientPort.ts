/**
 * The listener's BankPort over the app's bank client (src/main/services/bank): the profile's
 * credentials, timeouts, safe retries and typed errors, for hydration, reconciliation and
 * registration. Hydration reads a notification's `url` through the same HTTP layer, and
 * only when that address is under the profile's base address.
 */
import { BankClient } from '../bank/bankClient.ts';
import { BankError } from '../bank/bankError.ts';
import type { BankHttp, BankHttpOptions } from '../bank/bankHttp.ts';
import type { WebhookSendResponse } from '../../../shared/bank/index.ts';
import { isUnderBase, type BankPort, type WebhookSendQuery } from './bankPort.ts';

/** Over a profile's client (the app: `clients.clientFor(profileId)`), or a client made from its options. */
export function bankClientPort(options: BankClient | BankHttpOptions | BankHttp): BankPort {
  const client = options instanceof BankClient ? options : new BankClient(options);
  const http = client.http;
  const base = new URL(http.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  return {
    baseUrl: http.baseUrl,
    outbound: { transport: http.transport, policy: http.network },
    async getObject(url: string): Promise<unknown> {
      if (!isUnderBase(http.baseUrl, url)) {
        throw new Error(`Refusing to fetch ${url}: it is not under the bank's address ${http.baseUrl}.`);
      }
      const target = new URL(url);
      const path = target.pathname.slice(basePath.length) || '/';
      const query = Object.fromEntries(target.searchParams);
      // The endpoint named in messages is the object's kind, e.g. GET /ach/{id}.
      const endpoint = `GET ${path.replace(/\/[^/]+$/, '/{id}')}`;
      return (await http.send({ method: 'GET', path, endpoint, query })).body;
    },
    async *listWebhookSends(query: WebhookSendQuery): AsyncIterable<WebhookSendResponse> {
      const { from_date: fromDate, to_date: toDate, ...filters } = query;
      const range = { ...(fromDate === undefined ? {} : { fromDate }), ...(toDate === undefined ? {} : { toDate }) };
      for await (const page of client.webhookSendPages(filters, range, { pageSize: 1000 })) yield* page.items;
    },
    async createWebhook(request, options = {}) {
      await client.checkWebhookAddress(request.url, options.allowHttp === true);
      return client.createWebhook(request);
    },
    async deleteWebhook(id: string): Promise<void> {
      try {
        await client.deleteWebhook(id);
      } catch (error) {
        // Already gone is what was wanted.
        if (error instanceof BankError && error.kind === 'not-found') return;
        throw error;
      }
    },
  };
}
