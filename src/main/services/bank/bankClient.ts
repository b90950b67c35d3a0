/**
 * The bank's interface as typed calls, one client per profile. Requests are checked strictly
 * before they are sent; answers are read with the tolerant response schemas of
 * src/shared/bank (response.ts: only an object's id and a list's data are required, unknown
 * fields kept). A field that is present with the wrong type is a BankError that names the
 * field and the endpoint. Lists are async iterators; listPaging.ts decides where a list goes on.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  accountResponse,
  accountApplicationResponse,
  cardArtUploadRequest,
  cardArtUploadResponse,
  cardProductResponse,
  documentCreateRequest,
  documentResponse,
  fileResponse,
  listResponseOf,
  PAGE_SIZE_DEFAULT,
  parseOrThrow,
  parseWith,
  pendingTransactionResponse,
  webhookCreateRequest,
  webhookResponse,
  webhookSendFilters,
  webhookSendResponse,
  webhookUpdateRequest,
  type AccountApplicationResponse,
  type AccountResponse,
  type CardArtUploadRequest,
  type CardProductResponse,
  type DocumentCreateRequest,
  type DocumentResponse,
  type FileResponse,
  type PendingTransactionResponse,
  type WebhookCreateRequest,
  type WebhookResponse,
  type WebhookSendFilters,
  type WebhookSendResponse,
  type WebhookUpdateRequest,
} from '../../../shared/bank/index.ts';
import { BankError } from './bankError.ts';
import { BankHttp, type BankHttpOptions, type BankRequest } from './bankHttp.ts';
import { nextPageOf } from './listPaging.ts';

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
  /** Told before each retried page request (see BankRequest.onRetry). */
  onRetry?: BankRequest['onRetry'];
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

  async *accountPages(options: PageOptions = {}): AsyncGenerator<Page<AccountResponse>> {
    yield* this.#pages('GET /account', '/account', accountResponse.schema, {}, options);
  }

  async listAccounts(signal?: AbortSignal): Promise<AccountResponse[]> {
    return collect(this.accountPages({ pageSize: 1000, ...(signal ? { signal } : {}) }));
  }

  async *pendingTransactionPages(
    accountId: string,
    range: DateRange = {},
    options: PageOptions = {},
  ): AsyncGenerator<Page<PendingTransactionResponse>> {
    yield* this.#pages(
      'GET /account/{account_id}/pending_transaction',
      `/account/${pathSegment(accountId)}/pending_transaction`,
      pendingTransactionResponse.schema,
      { from_date: range.fromDate, to_date: range.toDate },
      options,
    );
  }

  async *pendingTransactions(
    accountId: string,
    range: DateRange = {},
    options: PageOptions = {},
  ): AsyncGenerator<PendingTransactionResponse> {
    for await (const page of this.pendingTransactionPages(accountId, range, options)) yield* page.items;
  }

  async createDocument(request: DocumentCreateRequest, options: WriteOptions = {}): Promise<DocumentResponse> {
    const body = parseOrThrow(documentCreateRequest, request, 'Document');
    return this.#call(
      { method: 'POST', path: '/document', endpoint: 'POST /document', json: body, ...this.#writeOptions(options) },
      documentResponse.schema,
    );
  }

  /** Raw bytes with their media type (no multipart): the file a document or card art points to. */
  async uploadFile(data: Uint8Array, contentType: string, options: WriteOptions = {}): Promise<FileResponse> {
    return this.#call(
      {
        method: 'POST',
        path: '/file',
        endpoint: 'POST /file',
        bytes: { data, contentType },
        ...this.#writeOptions(options),
      },
      fileResponse.schema,
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

  async *cardProductPages(options: PageOptions = {}): AsyncGenerator<Page<CardProductResponse>> {
    yield* this.#pages('GET /cardproduct', '/cardproduct', cardProductResponse.schema, {}, options);
  }

  async listCardProducts(signal?: AbortSignal): Promise<CardProductResponse[]> {
    return collect(this.cardProductPages({ pageSize: 1000, ...(signal ? { signal } : {}) }));
  }

  async getAccountApplication(id: string, signal?: AbortSignal): Promise<AccountApplicationResponse> {
    return this.#call(
      {
        method: 'GET',
        path: `/apply/account_application/${pathSegment(id)}`,
        endpoint: 'GET /apply/account_application/{id}',
        ...(signal ? { signal } : {}),
      },
      accountApplicationResponse.schema,
    );
  }

  async *webhookSendPages(
    filters: WebhookSendFilters = {},
    range: DateRange = {},
    options: PageOptions = {},
  ): AsyncGenerator<Page<WebhookSendResponse>> {
    const valid = parseOrThrow(webhookSendFilters, filters, 'Webhook send filters');
    yield* this.#pages(
      'GET /webhook_send',
      '/webhook_send',
      webhookSendResponse.schema,
      { ...valid, from_date: range.fromDate, to_date: range.toDate },
      options,
    );
  }

  async *webhookPages(options: PageOptions = {}): AsyncGenerator<Page<WebhookResponse>> {
    yield* this.#pages('GET /webhook', '/webhook', webhookResponse.schema, {}, options);
  }

  async listWebhooks(signal?: AbortSignal): Promise<WebhookResponse[]> {
    return collect(this.webhookPages({ pageSize: 1000, ...(signal ? { signal } : {}) }));
  }

  async getWebhook(id: string, signal?: AbortSignal): Promise<WebhookResponse> {
    return this.#call(
      {
        method: 'GET',
        path: `/webhook/${pathSegment(id)}`,
        endpoint: 'GET /webhook/{id}',
        ...(signal ? { signal } : {}),
      },
      webhookResponse.schema,
    );
  }

  async createWebhook(request: WebhookCreateRequest, options: WriteOptions = {}): Promise<WebhookResponse> {
    const body = parseOrThrow(webhookCreateRequest, request, 'Webhook');
    return this.#call(
      { method: 'POST', path: '/webhook', endpoint: 'POST /webhook', json: body, ...this.#writeOptions(options) },
      webhookResponse.schema,
    );
  }

  /** Not retried after an ambiguous failure: PATCH is not idempotent by contract. */
  async updateWebhook(id: string, changes: WebhookUpdateRequest, signal?: AbortSignal): Promise<WebhookResponse> {
    const body = parseOrThrow(webhookUpdateRequest, changes, 'Webhook changes');
    return this.#call(
      {
        method: 'PATCH',
        path: `/webhook/${pathSegment(id)}`,
        endpoint: 'PATCH /webhook/{id}',
        json: body,
        ...(signal ? { signal } : {}),
      },
      webhookResponse.schema,
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

  async #call<Schema extends z.ZodType>(request: BankRequest, schema: Schema): Promise<z.output<Schema>> {
    const answer = await this.#http.send(request);
    return this.#validate(request.endpoint, schema, answer.body, answer.attempts);
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
  ): AsyncGenerator<Page<z.output<Item>>> {
    const envelope = listResponseOf(item);
    const pageSize = options.pageSize ?? PAGE_SIZE_DEFAULT;
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
          // Always sent: a list without page_next pages on only after a full page of this size.
          page_size: pageSize,
          ...(cursor === null ? {} : { page_cursor: cursor }),
        },
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onRetry ? { onRetry: options.onRetry } : {}),
      });
      const page = this.#validate(endpoint, envelope, answer.body, answer.attempts);
      const next = nextPageOf(page, pageSize, this.baseUrl);
      if (!next.ok) {
        throw new BankError({
          kind: 'schema-violation',
          endpoint,
          profileName: this.profileName,
          status: null,
          serverMessage: `the answer does not match the interface: ${next.problem}`,
          retryable: false,
          remedy: 'Tell the bank: its paging is broken.',
          problems: [next.problem],
          attempts: answer.attempts,
        });
      }
      if (next.cursor !== null && seen.has(next.cursor)) {
        throw new BankError({
          kind: 'schema-violation',
          endpoint,
          profileName: this.profileName,
          status: null,
          serverMessage: `the next page repeats the cursor ${next.cursor}, so the list would never end`,
          retryable: false,
          remedy: 'Tell the bank: its paging is broken.',
          attempts: answer.attempts,
        });
      }
      if (next.cursor !== null) seen.add(next.cursor);
      yield { items: page.data, nextCursor: next.cursor };
      if (next.cursor === null) return;
      cursor = next.cursor;
    }
  }
}

async function collect<Item>(pages: AsyncIterable<Page<Item>>): Promise<Item[]> {
  const all: Item[] = [];
  for await (const page of pages) all.push(...page.items);
  return all;
}
