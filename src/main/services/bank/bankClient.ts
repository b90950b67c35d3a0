/**
 * The bank's interface as typed calls, one client per profile. Every answer is checked
 * against the shared schemas (unknown extra fields kept); a violation is a BankError that
 * names the field and the endpoint. Lists are async iterators over `{data, page_next}`.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  account,
  accountApplication,
  cardArtUploadRequest,
  cardArtUploadResponse,
  cardProduct,
  document,
  documentCreateRequest,
  fileRecord,
  listEnvelope,
  parseOrThrow,
  parseWith,
  pendingTransaction,
  webhook,
  webhookCreateRequest,
  webhookSend,
  webhookSendFilters,
  webhookUpdateRequest,
  type Account,
  type AccountApplication,
  type CardArtUploadRequest,
  type CardProduct,
  type Document,
  type DocumentCreateRequest,
  type FileRecord,
  type PendingTransaction,
  type Webhook,
  type WebhookCreateRequest,
  type WebhookSend,
  type WebhookSendFilters,
  type WebhookUpdateRequest,
} from '../../../shared/bank/index.ts';
import { BankError } from './bankError.ts';
import { BankHttp, type BankHttpOptions, type BankRequest } from './bankHttp.ts';
import { presentPartnerDeposit, presentPartnerDepositInList } from './partnerDeposit.ts';

/** One page of a list, and the cursor that resumes after it (null at the end). */
export interface Page<Item> {
  items: Item[];
  nextCursor: string | null;
}

export interface PageOptions {
  /** Resume after this cursor (a previous page's nextCursor). */
  startAfter?: string | null;
  /** 1 to 1000; the bank's default is 100. */
  pageSize?: number;
  signal?: AbortSignal;
}

export interface DateRange {
  /** YYYY-MM-DD, inclusive. */
  fromDate?: string;
  /** YYYY-MM-DD, exclusive. */
  toDate?: string;
}

export interface WriteOptions {
  /** Reuse to make a repeated create return the first result; a fresh one by default. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

const pingAnswer = z.unknown();

function pathSegment(value: string): string {
  return encodeURIComponent(value);
}

export class BankClient {
  readonly #http: BankHttp;

  constructor(options: BankHttpOptions | BankHttp) {
    this.#http = options instanceof BankHttp ? options : new BankHttp(options);
  }

  get profileName(): string {
    return this.#http.profileName;
  }

  get baseUrl(): string {
    return this.#http.baseUrl;
  }

  /**
   * The client's HTTP layer (credentials, timeouts, safe retries, typed errors), for reading
   * an address the bank itself gave (a notification's `url`, spec §6.8).
   */
  get http(): BankHttp {
    return this.#http;
  }

  /** Connectivity check: resolves when the bank answers (the bank may not check credentials here). */
  async ping(signal?: AbortSignal): Promise<void> {
    await this.#call(
      { method: 'GET', path: '/ping', endpoint: 'GET /ping', ...(signal ? { signal } : {}) },
      pingAnswer,
    );
  }

  /**
   * "Test connection": reach the bank AND prove the credentials work. GET /ping needs no
   * credentials, so it alone would call a revoked key "connected"; one authenticated
   * single-row page of GET /account settles it (401/403 become the typed "check the API key").
   */
  async checkConnection(signal?: AbortSignal): Promise<void> {
    await this.ping(signal);
    const pages = this.accountPages({ pageSize: 1, ...(signal ? { signal } : {}) });
    await pages.next();
    await pages.return(undefined);
  }

  async *accountPages(options: PageOptions = {}): AsyncGenerator<Page<Account>> {
    yield* this.#pages('GET /account', '/account', account, {}, options);
  }

  async listAccounts(signal?: AbortSignal): Promise<Account[]> {
    return collect(this.accountPages({ pageSize: 1000, ...(signal ? { signal } : {}) }));
  }

  async *pendingTransactionPages(
    accountId: string,
    range: DateRange = {},
    options: PageOptions = {},
  ): AsyncGenerator<Page<PendingTransaction>> {
    yield* this.#pages(
      'GET /account/{account_id}/pending_transaction',
      `/account/${pathSegment(accountId)}/pending_transaction`,
      pendingTransaction,
      { from_date: range.fromDate, to_date: range.toDate },
      options,
      presentPartnerDepositInList,
    );
  }

  async *pendingTransactions(
    accountId: string,
    range: DateRange = {},
    options: PageOptions = {},
  ): AsyncGenerator<PendingTransaction> {
    for await (const page of this.pendingTransactionPages(accountId, range, options)) yield* page.items;
  }

  async createDocument(request: DocumentCreateRequest, options: WriteOptions = {}): Promise<Document> {
    const body = parseOrThrow(documentCreateRequest, request, 'Document');
    return this.#call(
      { method: 'POST', path: '/document', endpoint: 'POST /document', json: body, ...this.#writeOptions(options) },
      document,
    );
  }

  /** Raw bytes with their media type (no multipart): the file a document or card art points to. */
  async uploadFile(data: Uint8Array, contentType: string, options: WriteOptions = {}): Promise<FileRecord> {
    return this.#call(
      {
        method: 'POST',
        path: '/file',
        endpoint: 'POST /file',
        bytes: { data, contentType },
        ...this.#writeOptions(options),
      },
      fileRecord,
    );
  }

  async uploadCardArt(
    cardProductId: string,
    request: CardArtUploadRequest,
    options: WriteOptions = {},
  ): Promise<Record<string, unknown>> {
    const body = parseOrThrow(cardArtUploadRequest, request, 'Card art upload');
    return this.#call(
      {
        method: 'POST',
        path: `/cardproduct/${pathSegment(cardProductId)}/uxt_cardart`,
        endpoint: 'POST /cardproduct/{card_product_id}/uxt_cardart',
        json: body,
        ...this.#writeOptions(options),
      },
      cardArtUploadResponse,
    );
  }

  async *cardProductPages(options: PageOptions = {}): AsyncGenerator<Page<CardProduct>> {
    yield* this.#pages('GET /cardproduct', '/cardproduct', cardProduct, {}, options);
  }

  async listCardProducts(signal?: AbortSignal): Promise<CardProduct[]> {
    return collect(this.cardProductPages({ pageSize: 1000, ...(signal ? { signal } : {}) }));
  }

  async getAccountApplication(id: string, signal?: AbortSignal): Promise<AccountApplication> {
    return this.#call(
      {
        method: 'GET',
        path: `/apply/account_application/${pathSegment(id)}`,
        endpoint: 'GET /apply/account_application/{id}',
        ...(signal ? { signal } : {}),
      },
      accountApplication,
    );
  }

  async *webhookSendPages(
    filters: WebhookSendFilters = {},
    range: DateRange = {},
    options: PageOptions = {},
  ): AsyncGenerator<Page<WebhookSend>> {
    const valid = parseOrThrow(webhookSendFilters, filters, 'Webhook send filters');
    yield* this.#pages(
      'GET /webhook_send',
      '/webhook_send',
      webhookSend,
      { ...valid, from_date: range.fromDate, to_date: range.toDate },
      options,
    );
  }

  async *webhookPages(options: PageOptions = {}): AsyncGenerator<Page<Webhook>> {
    yield* this.#pages('GET /webhook', '/webhook', webhook, {}, options);
  }

  async listWebhooks(signal?: AbortSignal): Promise<Webhook[]> {
    return collect(this.webhookPages({ pageSize: 1000, ...(signal ? { signal } : {}) }));
  }

  async getWebhook(id: string, signal?: AbortSignal): Promise<Webhook> {
    return this.#call(
      {
        method: 'GET',
        path: `/webhook/${pathSegment(id)}`,
        endpoint: 'GET /webhook/{id}',
        ...(signal ? { signal } : {}),
      },
      webhook,
    );
  }

  async createWebhook(request: WebhookCreateRequest, options: WriteOptions = {}): Promise<Webhook> {
    const body = parseOrThrow(webhookCreateRequest, request, 'Webhook');
    return this.#call(
      { method: 'POST', path: '/webhook', endpoint: 'POST /webhook', json: body, ...this.#writeOptions(options) },
      webhook,
    );
  }

  /** Not retried after an ambiguous failure: PATCH is not idempotent by contract. */
  async updateWebhook(id: string, changes: WebhookUpdateRequest, signal?: AbortSignal): Promise<Webhook> {
    const body = parseOrThrow(webhookUpdateRequest, changes, 'Webhook changes');
    return this.#call(
      {
        method: 'PATCH',
        path: `/webhook/${pathSegment(id)}`,
        endpoint: 'PATCH /webhook/{id}',
        json: body,
        ...(signal ? { signal } : {}),
      },
      webhook,
    );
  }

  /** Deleting twice is the same as once: a retried delete that finds nothing succeeded. */
  async deleteWebhook(id: string, signal?: AbortSignal): Promise<void> {
    try {
      await this.#http.send({
        method: 'DELETE',
        path: `/webhook/${pathSegment(id)}`,
        endpoint: 'DELETE /webhook/{id}',
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      if (error instanceof BankError && error.kind === 'not-found' && error.attempts > 1) return;
      throw error;
    }
  }

  #writeOptions(options: WriteOptions): Pick<BankRequest, 'idempotencyKey' | 'signal'> {
    return {
      idempotencyKey: options.idempotencyKey ?? randomUUID(),
      ...(options.signal ? { signal: options.signal } : {}),
    };
  }

  async #call<Schema extends z.ZodType>(
    request: BankRequest,
    schema: Schema,
    present: (body: unknown) => unknown = presentPartnerDeposit,
  ): Promise<z.output<Schema>> {
    const answer = await this.#http.send(request);
    return this.#validate(request.endpoint, schema, present(answer.body), answer.attempts);
  }

  #validate<Schema extends z.ZodType>(
    endpoint: string,
    schema: Schema,
    body: unknown,
    attempts: number,
  ): z.output<Schema> {
    const parsed = parseWith(schema, body);
    if (parsed.ok) return parsed.value;
    throw new BankError({
      kind: 'schema-violation',
      endpoint,
      profileName: this.profileName,
      status: null,
      serverMessage: `the answer does not match the interface: ${parsed.problems.slice(0, 5).join('; ')}`,
      retryable: false,
      remedy: 'The bank sent data this version of Ledgerdesk cannot read; tell the bank or update Ledgerdesk.',
      problems: parsed.problems,
      attempts,
    });
  }

  async *#pages<Item extends z.ZodType>(
    endpoint: string,
    path: string,
    item: Item,
    query: Record<string, string | number | undefined>,
    options: PageOptions,
    present: (body: unknown) => unknown = (body) => body,
  ): AsyncGenerator<Page<z.output<Item>>> {
    const envelope = listEnvelope(item);
    let cursor = options.startAfter ?? null;
    const seen = new Set<string>();
    // Bounded: each page must move the cursor forward, and a cursor never repeats.
    for (;;) {
      const answer = await this.#http.send({
        method: 'GET',
        path,
        endpoint,
        query: {
          ...query,
          page_size: options.pageSize,
          ...(cursor === null ? {} : { page_cursor: cursor }),
        },
        ...(options.signal ? { signal: options.signal } : {}),
      });
      const page = this.#validate(endpoint, envelope, present(answer.body), answer.attempts);
      const next = page.data.length === 0 ? null : this.#cursorOf(endpoint, page.page_next, answer.attempts);
      if (next !== null && seen.has(next)) {
        throw new BankError({
          kind: 'schema-violation',
          endpoint,
          profileName: this.profileName,
          status: null,
          serverMessage: `page_next repeats the cursor ${next}, so the list would never end`,
          retryable: false,
          remedy: 'Tell the bank: its paging is broken.',
          attempts: answer.attempts,
        });
      }
      if (next !== null) seen.add(next);
      yield { items: page.data, nextCursor: next };
      if (next === null) return;
      cursor = next;
    }
  }

  /**
   * The next page's cursor, taken from page_next. We never request page_next itself: the
   * Authorization header goes only to the profile's own base address.
   */
  #cursorOf(endpoint: string, pageNext: string | null, attempts: number): string | null {
    if (pageNext === null) return null;
    let cursor: string | null;
    try {
      cursor = new URL(pageNext, this.baseUrl + '/').searchParams.get('page_cursor');
    } catch {
      cursor = null;
    }
    if (cursor === null || cursor === '') {
      throw new BankError({
        kind: 'schema-violation',
        endpoint,
        profileName: this.profileName,
        status: null,
        serverMessage: 'the answer does not match the interface: page_next: must be a URL with a page_cursor',
        retryable: false,
        remedy: 'Tell the bank: its paging is broken.',
        problems: ['page_next: must be a URL with a page_cursor'],
        attempts,
      });
    }
    return cursor;
  }
}

async function collect<Item>(pages: AsyncIterable<Page<Item>>): Promise<Item[]> {
  const all: Item[] = [];
  for await (const page of pages) all.push(...page.items);
  return all;
}
