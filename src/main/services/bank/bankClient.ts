/**
 * The bank's interface as typed calls, one client per profile. Requests are checked strictly
 * before they are sent; answers are read with the tolerant response schemas of
 * src/shared/bank (response.ts: only an object's id and a list's data are required, unknown
 * fields kept). A field that is present with the wrong type is a BankError that names the
 * field and the endpoint. Lists are async iterators; listPaging.ts decides where a list goes on
 * (datePaging.ts for records without ids when the bank sends no page_next). Every resource
 * read is measured for drift (fieldDrift.ts) and told to `onDrift`: names and counts only.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  accountApplicationCreateRequest,
  accountApplicationFilters,
  accountResponse,
  accountApplicationResponse,
  businessApplicationCreateRequest,
  businessApplicationResponse,
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
  personApplicationCreateRequest,
  personApplicationResponse,
  transactionResponse,
  webhookCreateRequest,
  webhookResponse,
  webhookSendFilters,
  webhookSendResponse,
  webhookUpdateRequest,
  type AccountApplicationCreateRequest,
  type AccountApplicationFilters,
  type AccountApplicationResponse,
  type AccountResponse,
  type BusinessApplicationCreateRequest,
  type BusinessApplicationResponse,
  type FieldNames,
  type CardArtUploadRequest,
  type CardProductResponse,
  type DocumentCreateRequest,
  type DocumentResponse,
  type FileResponse,
  type PendingTransactionResponse,
  type PersonApplicationCreateRequest,
  type PersonApplicationResponse,
  type TransactionResponse,
  type WebhookCreateRequest,
  type WebhookResponse,
  type WebhookSendFilters,
  type WebhookSendResponse,
  type WebhookUpdateRequest,
} from '../../../shared/bank/index.ts';
import { BankError } from './bankError.ts';
import { BankHttp, type BankHttpOptions, type BankRequest } from './bankHttp.ts';
import { decodeDateStep, encodeDateStep, requestOfStep, walkOn, type DateStep } from './datePaging.ts';
import { listEnvelopeResponse, observeDrift, type DriftListener } from './fieldDrift.ts';
import { nextPageOf } from './listPaging.ts';
import { readFileAnswer } from './fileContent.ts';
import { checkWebhookAddress } from './webhookAddress.ts';

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

/**
 * A record of an applicant list, read one by one: a person or business application that does
 * not fit its schema is kept as received, with what is wrong with it (field names and rules,
 * never a value), instead of failing the whole page. Only an id is required of each.
 */
export type ReceivedRecord<Item> =
  { id: string; ok: true; value: Item } | { id: string; ok: false; raw: Record<string, unknown>; problems: string[] };

/** An applicant list's records: what a page needs to name each one. */
const identifiedRecord = z.looseObject({ id: z.string().min(1) });

export interface WriteOptions {
  /** Reuse to make a repeated create return the first result; a fresh one by default. */
  idempotencyKey?: string;
  signal?: AbortSignal;
}

const pingAnswer = z.unknown();

function pathSegment(value: string): string {
  return encodeURIComponent(value);
}

/** How an answer is read: a resource of the bank (its drift measured), or a plain schema. */
interface Reading<Schema extends z.ZodType> {
  schema: Schema;
  resource?: ResourceOf;
}
interface ResourceOf {
  name: string;
  response: FieldNames;
}
type ResourceReading<Schema extends z.ZodType> = Reading<Schema> & { resource: ResourceOf };

function resourceReading<Response extends FieldNames & { schema: z.ZodType }>(
  name: string,
  response: Response,
): ResourceReading<Response['schema']> {
  return { schema: response.schema, resource: { name, response } };
}

/** A pending transaction's creation date, as its list's date filters see it (UTC). */
function pendingTransactionDateOf(item: PendingTransactionResponse): string | null {
  const stamp = item.extended_timestamp ?? item.extended_timestamp_precise ?? null;
  if (typeof stamp === 'string' && stamp.length >= 10) return stamp.slice(0, 10);
  return typeof item.date === 'string' ? item.date : null;
}

export interface BankClientReading {
  /** Told what each answer showed of drift: fields left out, fields not in the interface. */
  onDrift?: DriftListener;
}

export class BankClient {
  readonly #http: BankHttp;
  readonly #onDrift: DriftListener | undefined;

  constructor(options: BankHttpOptions | BankHttp, reading: BankClientReading = {}) {
    this.#http = options instanceof BankHttp ? options : new BankHttp(options);
    this.#onDrift = reading.onDrift;
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
      { schema: pingAnswer },
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
    yield* this.#pages('GET /account', '/account', resourceReading('account', accountResponse), {}, options);
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
      resourceReading('pending_transaction', pendingTransactionResponse),
      {},
      options,
      { range, dateOf: pendingTransactionDateOf },
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
      resourceReading('document', documentResponse),
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
      resourceReading('file', fileResponse),
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
      { schema: cardArtUploadResponse },
    );
  }

  async *cardProductPages(options: PageOptions = {}): AsyncGenerator<Page<CardProductResponse>> {
    yield* this.#pages(
      'GET /cardproduct',
      '/cardproduct',
      resourceReading('card_product', cardProductResponse),
      {},
      options,
    );
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
      resourceReading('account_application', accountApplicationResponse),
    );
  }

  /**
   * One account application read on its own, kept as received when malformed (a status this
   * client does not know): opening it by id must not fail on one unknown value. 404 is a
   * BankError 'not-found'.
   */
  async receiveAccountApplication(
    id: string,
    signal?: AbortSignal,
  ): Promise<ReceivedRecord<AccountApplicationResponse>> {
    return this.#receivedOne(
      `/apply/account_application/${pathSegment(id)}`,
      'GET /apply/account_application/{id}',
      'account_application',
      accountApplicationResponse,
      signal,
    );
  }

  /**
   * The account application list, each application read on its own: one the bank sent
   * malformed is kept as received with its problems (told as drift) instead of failing the page.
   * @param range creation dates, from (inclusive) to (exclusive): the list's from_date and to_date
   */
  async *accountApplicationPages(
    filters: AccountApplicationFilters = {},
    options: PageOptions = {},
    range: DateRange = {},
  ): AsyncGenerator<Page<ReceivedRecord<AccountApplicationResponse>>> {
    const valid = parseOrThrow(accountApplicationFilters, filters, 'Account application filters');
    yield* this.#receivedPages(
      'GET /apply/account_application',
      '/apply/account_application',
      'account_application',
      accountApplicationResponse,
      range,
      options,
      valid,
    );
  }

  /**
   * Person applications (the real service's list; not in the interface), created from
   * `fromDate` (inclusive) to `toDate` (exclusive). A malformed record is kept as received.
   */
  async *personApplicationPages(
    range: DateRange = {},
    options: PageOptions = {},
  ): AsyncGenerator<Page<ReceivedRecord<PersonApplicationResponse>>> {
    yield* this.#receivedPages(
      'GET /apply/person_application',
      '/apply/person_application',
      'person_application',
      personApplicationResponse,
      range,
      options,
    );
  }

  /** Business applications (the real service's list; not in the interface), like personApplicationPages. */
  async *businessApplicationPages(
    range: DateRange = {},
    options: PageOptions = {},
  ): AsyncGenerator<Page<ReceivedRecord<BusinessApplicationResponse>>> {
    yield* this.#receivedPages(
      'GET /apply/business_application',
      '/apply/business_application',
      'business_application',
      businessApplicationResponse,
      range,
      options,
    );
  }

  /** One document (GET /document/{id}): which file holds it; 404 is a BankError 'not-found'. */
  async getDocument(id: string, signal?: AbortSignal): Promise<DocumentResponse> {
    return this.#call(
      {
        method: 'GET',
        path: `/document/${pathSegment(id)}`,
        endpoint: 'GET /document/{document_id}',
        ...(signal ? { signal } : {}),
      },
      resourceReading('document', documentResponse),
    );
  }

  /**
   * A file's bytes (GET /file/{id}/content), at most `maxBytes` of them: a longer body is
   * refused as it arrives (BankError 'too-large'). The bank answers either the bytes or, as the
   * real service documents it, JSON with a short-lived `content_url` (fileContent.ts), which is
   * fetched at once. The media type is the download's Content-Type, lowercase without
   * parameters; whether it may be shown is the caller's to decide.
   */
  async readFileContent(
    id: string,
    options: { maxBytes: number; accept: readonly string[]; signal?: AbortSignal },
  ): Promise<{ bytes: Uint8Array; contentType: string }> {
    const endpoint = 'GET /file/{file_id}/content';
    const answer = await this.#http.send({
      method: 'GET',
      path: `/file/${pathSegment(id)}/content`,
      endpoint,
      binary: {
        // The JSON form's answer is small, but the bytes may come as they are: the same cap.
        maxBytes: options.maxBytes,
        accept: [...options.accept, 'application/json;q=0.5'].join(', '),
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (answer.file === undefined) throw new Error('GET /file/{file_id}/content answered without its bytes.');
    return readFileAnswer(this.#http, answer.file, { ...options, endpoint }, this.#onDrift);
  }

  /** One person application, kept as received when malformed; 404 is a BankError 'not-found'. */
  async getPersonApplication(id: string, signal?: AbortSignal): Promise<ReceivedRecord<PersonApplicationResponse>> {
    return this.#receivedOne(
      `/apply/person_application/${pathSegment(id)}`,
      'GET /apply/person_application/{id}',
      'person_application',
      personApplicationResponse,
      signal,
    );
  }

  /** One business application, kept as received when malformed; 404 is a BankError 'not-found'. */
  async getBusinessApplication(id: string, signal?: AbortSignal): Promise<ReceivedRecord<BusinessApplicationResponse>> {
    return this.#receivedOne(
      `/apply/business_application/${pathSegment(id)}`,
      'GET /apply/business_application/{id}',
      'business_application',
      businessApplicationResponse,
      signal,
    );
  }

  async *#receivedPages<Response extends FieldNames & { schema: z.ZodType }>(
    endpoint: string,
    path: string,
    name: string,
    response: Response,
    range: DateRange,
    options: PageOptions,
    filters: Record<string, string | undefined> = {},
  ): AsyncGenerator<Page<ReceivedRecord<z.output<Response['schema']>>>> {
    for await (const page of this.#pages(
      endpoint,
      path,
      { schema: identifiedRecord, resource: { name, response } },
      { ...filters, from_date: range.fromDate, to_date: range.toDate },
      options,
    )) {
      yield {
        items: page.items.map((item) => this.#received(name, response, item)),
        nextCursor: page.nextCursor,
      };
    }
  }

  async #receivedOne<Response extends FieldNames & { schema: z.ZodType }>(
    path: string,
    endpoint: string,
    name: string,
    response: Response,
    signal: AbortSignal | undefined,
  ): Promise<ReceivedRecord<z.output<Response['schema']>>> {
    const item = await this.#call(
      { method: 'GET', path, endpoint, ...(signal ? { signal } : {}) },
      { schema: identifiedRecord, resource: { name, response } },
    );
    return this.#received(name, response, item);
  }

  /** A record read on its own: its value, or as received with its problems (told as drift). */
  #received<Response extends FieldNames & { schema: z.ZodType }>(
    name: string,
    response: Response,
    item: z.output<typeof identifiedRecord>,
  ): ReceivedRecord<z.output<Response['schema']>> {
    const parsed = parseWith(response.schema, item);
    if (parsed.ok) return { id: item.id, ok: true, value: parsed.value as z.output<Response['schema']> };
    const problems = parsed.problems.slice(0, 10);
    this.#tellMalformed(name, problems);
    return { id: item.id, ok: false, raw: item, problems };
  }

  #tellMalformed(resource: string, problems: readonly string[]): void {
    if (this.#onDrift === undefined) return;
    const malformed: Record<string, number> = {};
    // A problem reads `field: rule`; the field's name is what the ledger counts.
    for (const problem of problems) {
      const field = problem.split(':')[0]?.trim() ?? '';
      malformed[field === '' ? '(record)' : field] = 1;
    }
    try {
      this.#onDrift({ resource, records: 0, missing: {}, unknown: {}, malformed });
    } catch {
      // Drift is a measurement.
    }
  }

  /** Not in the interface: the real service's `POST /apply/account_application` (it answers 200). */
  async createAccountApplication(
    request: AccountApplicationCreateRequest,
    options: WriteOptions = {},
  ): Promise<AccountApplicationResponse> {
    const body = parseOrThrow(accountApplicationCreateRequest, request, 'Account application');
    return this.#call(
      {
        method: 'POST',
        path: '/apply/account_application',
        endpoint: 'POST /apply/account_application',
        json: body,
        ...this.#writeOptions(options),
      },
      resourceReading('account_application', accountApplicationResponse),
    );
  }

  /** Not in the interface: the real service's `POST /apply/person_application`. */
  async createPersonApplication(
    request: PersonApplicationCreateRequest,
    options: WriteOptions = {},
  ): Promise<PersonApplicationResponse> {
    const body = parseOrThrow(personApplicationCreateRequest, request, 'Person application');
    return this.#call(
      {
        method: 'POST',
        path: '/apply/person_application',
        endpoint: 'POST /apply/person_application',
        json: body,
        ...this.#writeOptions(options),
      },
      resourceReading('person_application', personApplicationResponse),
    );
  }

  /** Not in the interface: the real service's `POST /apply/business_application`. */
  async createBusinessApplication(
    request: BusinessApplicationCreateRequest,
    options: WriteOptions = {},
  ): Promise<BusinessApplicationResponse> {
    const body = parseOrThrow(businessApplicationCreateRequest, request, 'Business application');
    return this.#call(
      {
        method: 'POST',
        path: '/apply/business_application',
        endpoint: 'POST /apply/business_application',
        json: body,
        ...this.#writeOptions(options),
      },
      resourceReading('business_application', businessApplicationResponse),
    );
  }

  /** Posted transactions (not in the interface; the real service's `GET /account/{id}/transaction`). */
  async *transactionPages(
    accountId: string,
    range: DateRange = {},
    options: PageOptions = {},
  ): AsyncGenerator<Page<TransactionResponse>> {
    yield* this.#pages(
      'GET /account/{account_id}/transaction',
      `/account/${pathSegment(accountId)}/transaction`,
      resourceReading('transaction', transactionResponse),
      { from_date: range.fromDate, to_date: range.toDate },
      options,
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
      resourceReading('webhook_send', webhookSendResponse),
      { ...valid, from_date: range.fromDate, to_date: range.toDate },
      options,
    );
  }

  async *webhookPages(options: PageOptions = {}): AsyncGenerator<Page<WebhookResponse>> {
    yield* this.#pages('GET /webhook', '/webhook', resourceReading('webhook', webhookResponse), {}, options);
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
      resourceReading('webhook', webhookResponse),
    );
  }

  /**
   * Refuses (WebhookAddressRefused), before anything is sent, an address this bank cannot be
   * given (webhookAddress.ts): anything but a public https:// address, unless this is the
   * embedded sandbox, or `allowHttp` and the bank says it delivers there
   * (GET /sandbox/webhook_url_policy).
   */
  async checkWebhookAddress(url: string, allowHttp = false, signal?: AbortSignal): Promise<void> {
    await checkWebhookAddress(url, {
      embeddedSandbox: this.#http.embeddedSandbox,
      allowHttp,
      profileName: this.profileName,
      bankAcceptsAnyAddress: async () => {
        try {
          const answer = await this.#http.send({
            method: 'GET',
            path: '/sandbox/webhook_url_policy',
            endpoint: 'GET /sandbox/webhook_url_policy',
            ...(signal ? { signal } : {}),
          });
          const policy = answer.body as { https_only?: unknown; public_only?: unknown } | null;
          return policy?.https_only === false && policy.public_only === false;
        } catch (error) {
          if (error instanceof BankError && (error.kind === 'not-found' || error.kind === 'bad-request')) return false;
          throw error;
        }
      },
    });
  }

  async createWebhook(request: WebhookCreateRequest, options: WriteOptions = {}): Promise<WebhookResponse> {
    const body = parseOrThrow(webhookCreateRequest, request, 'Webhook');
    return this.#call(
      { method: 'POST', path: '/webhook', endpoint: 'POST /webhook', json: body, ...this.#writeOptions(options) },
      resourceReading('webhook', webhookResponse),
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
      resourceReading('webhook', webhookResponse),
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

  async #call<Schema extends z.ZodType>(request: BankRequest, reading: Reading<Schema>): Promise<z.output<Schema>> {
    const answer = await this.#http.send(request);
    const value = this.#validate(request.endpoint, reading.schema, answer.body, answer.attempts, answer.status);
    if (reading.resource !== undefined) this.#measure(reading.resource.name, reading.resource.response, [answer.body]);
    return value;
  }

  /** Tells the drift of what was read; a listener that fails never fails the read. */
  #measure(resource: string, response: FieldNames, records: readonly unknown[]): void {
    if (this.#onDrift === undefined) return;
    const observation = observeDrift(resource, response, records);
    if (observation === null) return;
    try {
      this.#onDrift(observation);
    } catch {
      // Drift is a measurement: losing one is better than losing the answer it came with.
    }
  }

  /**
   * @param answeredStatus the bank's status when it is a success: an answer that cannot be
   *   read then still says the bank acted, with the id the answer named when it has one
   */
  #validate<Schema extends z.ZodType>(
    endpoint: string,
    schema: Schema,
    body: unknown,
    attempts: number,
    answeredStatus?: number,
  ): z.output<Schema> {
    const parsed = parseWith(schema, body);
    if (parsed.ok) return parsed.value;
    const objectId =
      typeof body === 'object' && body !== null && 'id' in body && typeof body.id === 'string' && body.id !== ''
        ? body.id
        : null;
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
      ...(answeredStatus === undefined ? {} : { unread: { status: answeredStatus, objectId } }),
    });
  }

  #pagingError(endpoint: string, problem: string, attempts: number): BankError {
    return new BankError({
      kind: 'schema-violation',
      endpoint,
      profileName: this.profileName,
      status: null,
      serverMessage: `the answer does not match the interface: ${problem}`,
      retryable: false,
      remedy: 'Tell the bank: its paging is broken.',
      problems: [problem],
      attempts,
    });
  }

  /**
   * @param byDate for records without ids: how to page on when the bank sends no page_next
   *   (datePaging.ts); the range is then the walk's, not the query's
   */
  async *#pages<Item extends z.ZodType>(
    endpoint: string,
    path: string,
    reading: ResourceReading<Item>,
    query: Record<string, string | number | undefined>,
    options: PageOptions,
    byDate?: { range: DateRange; dateOf: (item: z.output<Item>) => string | null },
  ): AsyncGenerator<Page<z.output<Item>>> {
    const envelope = listResponseOf(reading.schema);
    const pageSize = options.pageSize ?? PAGE_SIZE_DEFAULT;
    let cursor = options.startAfter ?? null;
    const seen = new Set<string>();
    // Bounded: each page must move the cursor forward, and a cursor never repeats.
    for (;;) {
      let step: DateStep | null;
      try {
        step = byDate === undefined ? null : decodeDateStep(cursor);
      } catch (error) {
        throw this.#pagingError(endpoint, (error as Error).message, 0);
      }
      const asked = byDate === undefined ? { range: {}, pageSize } : requestOfStep(step, byDate.range, pageSize);
      const answer = await this.#http.send({
        method: 'GET',
        path,
        endpoint,
        query: {
          ...query,
          ...(byDate === undefined ? {} : { from_date: asked.range.fromDate, to_date: asked.range.toDate }),
          // Always sent: a list without page_next pages on only after a full page of this size.
          page_size: asked.pageSize,
          ...(cursor === null || step !== null ? {} : { page_cursor: cursor }),
        },
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.onRetry ? { onRetry: options.onRetry } : {}),
      });
      const page = this.#validate(endpoint, envelope, answer.body, answer.attempts);
      this.#measure(`${reading.resource.name} list`, listEnvelopeResponse, [answer.body]);
      this.#measure(reading.resource.name, reading.resource.response, page.data);
      const next = nextPageOf(page, asked.pageSize, this.baseUrl);
      if (!next.ok) throw this.#pagingError(endpoint, next.problem, answer.attempts);
      let items: z.output<Item>[] = page.data;
      let nextCursor: string | null = next.cursor;
      if (byDate !== undefined && (next.how === 'no-cursor' || step !== null)) {
        // No cursor from the bank for these records: walk on by date.
        const walk = walkOn(page.data, page.data.length >= asked.pageSize, step, byDate.range, byDate.dateOf);
        if (!walk.ok) throw this.#pagingError(endpoint, walk.problem, answer.attempts);
        items = walk.items;
        nextCursor = walk.next === null ? null : encodeDateStep(walk.next);
      }
      if (nextCursor !== null && seen.has(nextCursor)) {
        throw new BankError({
          kind: 'schema-violation',
          endpoint,
          profileName: this.profileName,
          status: null,
          serverMessage: `the next page repeats the cursor ${nextCursor}, so the list would never end`,
          retryable: false,
          remedy: 'Tell the bank: its paging is broken.',
          attempts: answer.attempts,
        });
      }
      if (nextCursor !== null) seen.add(nextCursor);
      yield { items, nextCursor };
      if (nextCursor === null) return;
      cursor = nextCursor;
    }
  }
}

async function collect<Item>(pages: AsyncIterable<Page<Item>>): Promise<Item[]> {
  const all: Item[] = [];
  for await (const page of pages) all.push(...page.items);
  return all;
}
