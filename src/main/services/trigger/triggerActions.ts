/**
 * How each event is caused at the bank, through its own interface: POST /simulation for what
 * only the bank can do (an ACH moving, an application being reviewed, a webhook giving up)
 * and the ordinary endpoints for the rest (uploading a file, creating a document, enabling a
 * webhook). Each action chooses sensible defaults for what it is not given, and reports the
 * object as the bank then has it and the notifications the change caused.
 */
import { randomUUID } from 'node:crypto';
import {
  simulationAccepted,
  type AccountResponse,
  type AccountApplicationStatus,
  type AchStatus,
  type SimulationRequest,
  type WebhookResponse,
  type WebhookNotification,
} from '../../../shared/bank/index.ts';
import type { TriggerCall, TriggerRequest } from '../../../shared/eventCatalog/trigger.ts';
import { ACCOUNT_APPLICATION_TRANSITIONS, ACH_TRANSITIONS } from '../../../shared/bank/lifecycles.ts';
import type { BankClient } from '../bank/bankClient.ts';
import { BankError } from '../bank/bankError.ts';
import { tinFor, type TinOutcome } from '../../../shared/bank/sandboxTinOutcomes.ts';
import type { BusinessApplicationCreateRequest, PersonApplicationCreateRequest } from '../../../shared/bank/index.ts';
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';

function tinDigitText(outcome: TinOutcome): string {
  return tinFor(outcome, 'business', () => 0).charAt(0);
}

/** An applicant of no one: what a scenario submits to see the bank's decision. */
function sampleApplicant(tin: string): PersonApplicationCreateRequest {
  return {
    first_name: 'Test',
    last_name: 'Applicant',
    date_of_birth: '1985-04-12',
    email_address: 'test.applicant@example.com',
    phone_number: '2025550123',
    citizenship: 'US',
    physical_address: {
      street_line_1: '1 Sandbox Way',
      city: 'Washington',
      state: 'DC',
      postal_code: '20500',
    },
    tin,
    userdata: { created_by: 'ledger trigger' },
  };
}

function sampleBusiness(tin: string, personId: string): BusinessApplicationCreateRequest {
  return {
    name: 'Test Business LLC',
    established_on: '2015-06-01',
    incorporation_state: 'DE',
    legal_structure: 'llc',
    tin,
    phone_number: '+1 202-555-0123',
    physical_address: { street_line_1: '1 Sandbox Way', city: 'Washington', state: 'DC', postal_code: '20500' },
    person_applications: [{ id: personId, roles: ['control_person', 'signer'], ownership_percentage: 100 }],
  };
}

export class TriggerProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TriggerProblem';
  }

  get answer(): ContractAnswer {
    return { code: 'conflict' };
  }
}

export interface ActionOutcome {
  objectId: string;
  object: Record<string, unknown>;
  caused: WebhookNotification[];
  calls: TriggerCall[];
}

/** A one-page PDF's worth of bytes: what a file or document trigger uploads. */
const SAMPLE_PDF = new TextEncoder().encode('%PDF-1.4\n% Ledgerdesk trigger sample\n%%EOF\n');
const DEFAULT_AMOUNT = '25.00';
/** The path an application takes toward approval when no status is named. */
const TOWARD_APPROVAL: Partial<Record<AccountApplicationStatus, AccountApplicationStatus>> = {
  unsubmitted: 'submitted',
  submitted: 'kyc',
  kyc: 'processing',
  processing: 'approved',
  manual_review: 'approved',
};

/** The shortest chain of moves from `from` to `to` along `transitions`, or null. */
export function pathOf<Status extends string>(
  transitions: Readonly<Record<Status, readonly Status[]>>,
  from: Status,
  to: Status,
): Status[] | null {
  const previous = new Map<Status, Status>([[from, from]]);
  const queue: Status[] = [from];
  while (queue.length > 0) {
    const current = queue.shift() as Status;
    if (current === to) break;
    for (const next of transitions[current]) {
      if (!previous.has(next)) {
        previous.set(next, current);
        queue.push(next);
      }
    }
  }
  if (!previous.has(to) || from === to) return null;
  const path: Status[] = [];
  for (let step = to; step !== from; step = previous.get(step) as Status) path.unshift(step);
  return path;
}

/** The actions on one profile's bank; `signal` stops between requests. */
export class TriggerActions {
  readonly #client: BankClient;
  readonly #signal: AbortSignal | undefined;
  readonly #caused: WebhookNotification[] = [];
  readonly #calls: TriggerCall[] = [];

  constructor(client: BankClient, signal?: AbortSignal) {
    this.#client = client;
    this.#signal = signal;
  }

  async run(request: TriggerRequest): Promise<ActionOutcome> {
    switch (request.event) {
      case 'ach.create':
        return this.#outcome(await this.#createAch(request));
      case 'ach.update':
        return this.#outcome(await this.#moveAch(request));
      case 'account.update':
        return this.#outcome(await this.#postPendingTransaction(request));
      case 'account_application.create':
        return this.#outcome(await this.#submitApplication());
      case 'account_application.update':
        return this.#outcome(await this.#moveApplication(request));
      case 'file.create':
        return this.#outcome(await this.#uploadFile());
      case 'document.create':
        return this.#outcome(await this.#createDocument());
      case 'webhook.update':
        return this.#outcome(await this.#moveWebhook(request));
    }
  }

  /** Registers a webhook (a scenario step). */
  async registerWebhook(event: string, url: string): Promise<ActionOutcome> {
    const created = await this.#client.createWebhook(
      { event, url, userdata: { created_by: 'ledger trigger' } },
      this.#options(),
    );
    this.#note(`POST /webhook (${event} → ${url})`, `webhook ${created.id} registered`, 'webhook.create', created.id);
    return this.#outcome({ id: created.id, object: created });
  }

  async updateWebhook(webhookId: string, changes: { status?: 'enabled' | 'disabled'; url?: string }) {
    const updated = await this.#client.updateWebhook(webhookId, changes, this.#signal);
    this.#note(
      `PATCH /webhook/${webhookId} ${JSON.stringify(changes)}`,
      `now ${updated.status}`,
      'webhook.update',
      webhookId,
    );
    return this.#outcome({ id: webhookId, object: updated });
  }

  async deleteWebhook(webhookId: string): Promise<ActionOutcome> {
    await this.#client.deleteWebhook(webhookId, this.#signal);
    this.#note(`DELETE /webhook/${webhookId}`, 'deleted', 'webhook.delete', webhookId);
    return this.#outcome({ id: webhookId, object: { id: webhookId, deleted: true } });
  }

  /**
   * An application as a customer submits one at the real service (no simulation): its person
   * application (and business application) with TINs whose first digit asks its sandbox for
   * `outcome` (sandboxTinOutcomes.ts), then the account application. The account product is the
   * one given, else the first the bank lists (GET /account_product), else the one an earlier
   * application of that ownership used.
   */
  async submitApplicationWithTin(
    ownership: 'personal' | 'business',
    outcome: TinOutcome,
    accountProductId: string | undefined,
  ): Promise<ActionOutcome> {
    const product = accountProductId ?? (await this.#accountProductFor(ownership));
    const person = await this.#client.createPersonApplication(
      sampleApplicant(tinFor(outcome, 'person')),
      this.#options(),
    );
    this.#note(
      `POST /apply/person_application (tin ${tinDigitText(outcome)}xx-xx-xxxx)`,
      `person application ${person.id}`,
      'person_application.create',
      person.id,
      `/apply/person_application/${person.id}`,
    );
    let businessId: string | null = null;
    if (ownership === 'business') {
      const business = await this.#client.createBusinessApplication(
        sampleBusiness(tinFor(outcome, 'business'), person.id),
        this.#options(),
      );
      businessId = business.id;
      this.#note(
        `POST /apply/business_application (tin ${tinDigitText(outcome)}x-xxxxxxx)`,
        `business application ${business.id}`,
        'business_application.create',
        business.id,
        `/apply/business_application/${business.id}`,
      );
    }
    const application = await this.#client.createAccountApplication(
      {
        account_product_id: product,
        primary_person_application_id: person.id,
        ...(businessId === null
          ? { person_applications: [{ id: person.id, roles: ['owner', 'signer'] }] }
          : { business_application_id: businessId }),
        userdata: { created_by: 'ledger trigger', asks_for: outcome },
      },
      this.#options(),
    );
    this.#note(
      'POST /apply/account_application',
      `account application ${application.id}, ${application.status ?? 'submitted'}; the bank decides ${outcome.replace('_', ' ')} by the TINs`,
      'account_application.create',
      application.id,
      `/apply/account_application/${application.id}`,
    );
    return this.#outcome({ id: application.id, object: application });
  }

  /** The application's status now (GET /apply/account_application/{id}). */
  async applicationStatus(id: string): Promise<string | null> {
    const application = await this.#client.getAccountApplication(id, this.#signal);
    return typeof application.status === 'string' ? application.status : null;
  }

  async #accountProductFor(ownership: 'personal' | 'business'): Promise<string> {
    try {
      const answer = await this.#client.http.send({
        method: 'GET',
        path: '/account_product',
        endpoint: 'GET /account_product',
        query: { page_size: 100 },
        ...this.#signalOption(),
      });
      const products = (answer.body as { data?: unknown } | null)?.data;
      if (Array.isArray(products)) {
        const ids = products.flatMap((product: Record<string, unknown>) =>
          typeof product['id'] !== 'string'
            ? []
            : [{ id: product['id'], ownership: product['ownership_type'] ?? product['type'] }],
        );
        const chosen = ids.find((product) => product.ownership === ownership) ?? ids[0];
        if (chosen !== undefined) return chosen.id;
      }
    } catch (error) {
      if (!(error instanceof BankError) || error.kind !== 'not-found') throw error;
    }
    const pages = this.#client.accountApplicationPages(
      { ownership_type: ownership },
      { pageSize: 50, ...this.#signalOption() },
    );
    try {
      for await (const page of pages) {
        for (const item of page.items) {
          const product = item.ok ? item.value.account_product_id : item.raw['account_product_id'];
          if (typeof product === 'string' && product !== '') return product;
        }
        break;
      }
    } finally {
      await pages.return(undefined);
    }
    throw new TriggerProblem(
      `The bank lists no account product (GET /account_product) and has no ${ownership} application to take one from: give the step its accountProductId (an apt_… id of your sandbox).`,
    );
  }

  /** How many send records the bank has for these filters (first 1000). */
  async countSends(filters: { webhook_id?: string; object_id?: string; status: 'sent' | 'skipped' | 'error' }) {
    const pages = this.#client.webhookSendPages(filters, {}, { pageSize: 1000, ...this.#signalOption() });
    const first = await pages.next();
    await pages.return(undefined);
    return first.done === true ? 0 : first.value.items.length;
  }

  #outcome(result: { id: string; object: Record<string, unknown> }): ActionOutcome {
    return { objectId: result.id, object: result.object, caused: [...this.#caused], calls: [...this.#calls] };
  }

  #note(request: string, outcome: string, event: string | null, id: string, path?: string): void {
    this.#calls.push({ request, outcome });
    if (event === null) return;
    const resource = event.slice(0, event.lastIndexOf('.'));
    const objectPath = path ?? `/${resource}/${id}`;
    this.#caused.push({
      event,
      op: event.slice(event.lastIndexOf('.') + 1) as WebhookNotification['op'],
      id,
      url: this.#client.baseUrl.replace(/\/+$/, '') + objectPath,
    });
  }

  #signalOption() {
    return this.#signal === undefined ? {} : { signal: this.#signal };
  }

  #options() {
    return this.#signalOption();
  }

  async #simulate(request: SimulationRequest) {
    this.#signal?.throwIfAborted();
    const answer = await this.#client.http.send({
      method: 'POST',
      path: '/simulation',
      endpoint: 'POST /simulation',
      json: request,
      idempotencyKey: randomUUID(),
      ...this.#signalOption(),
    });
    const accepted = simulationAccepted.safeParse(answer.body);
    if (!accepted.success)
      throw new TriggerProblem(`The bank's answer to POST /simulation ${request.type} is not readable.`);
    return accepted.data;
  }

  async #get(path: string, endpoint: string): Promise<Record<string, unknown>> {
    const answer = await this.#client.http.send({ method: 'GET', path, endpoint, ...this.#signalOption() });
    if (typeof answer.body !== 'object' || answer.body === null) {
      throw new TriggerProblem(`The bank's answer to ${endpoint} is not an object.`);
    }
    return answer.body as Record<string, unknown>;
  }

  async #defaultAccount(accountId: string | undefined): Promise<string> {
    if (accountId !== undefined) return accountId;
    const pages = this.#client.accountPages({ pageSize: 1, ...this.#signalOption() });
    const first = await pages.next();
    await pages.return(undefined);
    const found: AccountResponse | undefined = first.done === true ? undefined : first.value.items[0];
    if (found === undefined) throw new TriggerProblem('The bank has no account to use: pass --account ID.');
    return found.id;
  }

  async #createAch(request: TriggerRequest): Promise<{ id: string; object: Record<string, unknown> }> {
    const accountId = await this.#defaultAccount(request.accountId);
    const amount = request.amount ?? DEFAULT_AMOUNT;
    const accepted = await this.#simulate({
      type: 'ach.create',
      simulation: { account_id: accountId, amount, direction: 'credit' },
    });
    this.#note(
      `POST /simulation ach.create (${amount} credit to ${accountId})`,
      `ACH ${accepted.object_id} pending`,
      'ach.create',
      accepted.object_id,
    );
    this.#note(
      '(its pending transaction posts)',
      `account ${accountId} updated`,
      'account.update',
      accountId,
      `/account/${accountId}`,
    );
    return this.#fetchAch(accepted.object_id);
  }

  async #fetchAch(id: string) {
    return { id, object: await this.#get(`/ach/${encodeURIComponent(id)}`, 'GET /ach/{ach_id}') };
  }

  async #moveAch(request: TriggerRequest): Promise<{ id: string; object: Record<string, unknown> }> {
    const wanted = request.status as AchStatus | undefined;
    if (wanted !== undefined && !(wanted in ACH_TRANSITIONS)) {
      throw new TriggerProblem(`--status ${wanted} is not an ACH status (${Object.keys(ACH_TRANSITIONS).join(', ')}).`);
    }
    let achId = request.achId;
    let current: AchStatus;
    if (achId === undefined) {
      achId = (await this.#createAch(request)).id;
      current = 'pending';
    } else {
      const fetched = await this.#fetchAch(achId);
      current = String(fetched.object.status) as AchStatus;
    }
    // The bank may answer a status this lifecycle does not know: then no move is known either.
    const allowed: readonly AchStatus[] = current in ACH_TRANSITIONS ? ACH_TRANSITIONS[current] : [];
    const path = wanted === undefined ? [allowed[0]] : pathOf(ACH_TRANSITIONS, current, wanted);
    const steps = (path ?? []).filter((step): step is AchStatus => step !== undefined);
    if (steps.length === 0) {
      throw new TriggerProblem(
        `ACH ${achId} is ${current}: ${wanted === undefined ? 'that status is final' : `it cannot move to ${wanted}`} (moves: ${describeMoves(ACH_TRANSITIONS)}).`,
      );
    }
    for (const status of steps) {
      const accepted = await this.#simulate({ type: 'ach.update_status', simulation: { ach_id: achId, status } });
      this.#note(
        `POST /simulation ach.update_status (${achId} → ${status})`,
        `ACH ${achId} ${accepted.status ?? status}`,
        'ach.update',
        achId,
      );
    }
    return this.#fetchAch(achId);
  }

  async #postPendingTransaction(request: TriggerRequest) {
    const accountId = await this.#defaultAccount(request.accountId);
    const amount = request.amount ?? DEFAULT_AMOUNT;
    await this.#simulate({
      type: 'account.pending_transaction',
      simulation: { account_id: accountId, amount, type: 'deposit', desc: 'LEDGERDESK TRIGGER DEPOSIT' },
    });
    this.#note(
      `POST /simulation account.pending_transaction (${amount} deposit)`,
      `posted on ${accountId}`,
      'account.update',
      accountId,
    );
    return {
      id: accountId,
      object: await this.#get(`/account/${encodeURIComponent(accountId)}`, 'GET /account/{account_id}'),
    };
  }

  async #submitApplication() {
    const accepted = await this.#simulate({ type: 'account_application.create', simulation: {} });
    this.#note(
      'POST /simulation account_application.create',
      `application ${accepted.object_id} submitted`,
      'account_application.create',
      accepted.object_id,
      `/apply/account_application/${accepted.object_id}`,
    );
    return this.#fetchApplication(accepted.object_id);
  }

  async #fetchApplication(id: string) {
    const application = await this.#client.getAccountApplication(id, this.#signal);
    return { id, object: application as Record<string, unknown> };
  }

  async #moveApplication(request: TriggerRequest) {
    const wanted = request.status as AccountApplicationStatus | undefined;
    if (wanted !== undefined && !(wanted in ACCOUNT_APPLICATION_TRANSITIONS)) {
      throw new TriggerProblem(
        `--status ${wanted} is not an account application status (${Object.keys(ACCOUNT_APPLICATION_TRANSITIONS).join(', ')}).`,
      );
    }
    const start =
      request.applicationId === undefined
        ? await this.#submitApplication()
        : await this.#fetchApplication(request.applicationId);
    const id = start.id;
    const current = String(start.object.status) as AccountApplicationStatus;
    const toward = TOWARD_APPROVAL[current];
    const steps =
      wanted === undefined
        ? toward === undefined
          ? []
          : [toward]
        : (pathOf(ACCOUNT_APPLICATION_TRANSITIONS, current, wanted) ?? []);
    if (steps.length === 0) {
      throw new TriggerProblem(
        `Account application ${id} is ${current}: ${wanted === undefined ? 'that status is final' : `it cannot move to ${wanted}`} (moves: ${describeMoves(ACCOUNT_APPLICATION_TRANSITIONS)}).`,
      );
    }
    for (const status of steps) {
      await this.#simulate({
        type: 'account_application.update_status',
        simulation: { account_application_id: id, status },
      });
      this.#note(
        `POST /simulation account_application.update_status (${id} → ${status})`,
        `application ${id} ${status}`,
        'account_application.update',
        id,
        `/apply/account_application/${id}`,
      );
    }
    const moved = await this.#fetchApplication(id);
    const accountId = moved.object.account_id;
    if (steps.at(-1) === 'approved' && typeof accountId === 'string') {
      this.#note(
        '(approval opens the account)',
        `account ${accountId} opened`,
        'account.create',
        accountId,
        `/account/${accountId}`,
      );
    }
    return moved;
  }

  async #uploadFile() {
    const file = await this.#client.uploadFile(SAMPLE_PDF, 'application/pdf', this.#options());
    this.#note(
      `POST /file (${String(SAMPLE_PDF.byteLength)} bytes of application/pdf)`,
      `file ${file.id}`,
      'file.create',
      file.id,
    );
    return { id: file.id, object: file as Record<string, unknown> };
  }

  async #createDocument() {
    const file = await this.#uploadFile();
    const created = await this.#client.createDocument(
      { type: 'other', name: 'Ledgerdesk trigger document', file_id: file.id, fields: { source: 'ledger trigger' } },
      this.#options(),
    );
    this.#note(`POST /document (other, on ${file.id})`, `document ${created.id}`, 'document.create', created.id);
    return { id: created.id, object: created as Record<string, unknown> };
  }

  /** A webhook to move: one not subscribed to webhook.update (its own move would not reach it). */
  async #defaultWebhook(): Promise<WebhookResponse> {
    const webhooks = await this.#client.listWebhooks(this.#signal);
    const chosen =
      webhooks.find((candidate) => candidate.event !== 'webhook.update' && candidate.status === 'enabled') ??
      webhooks.find((candidate) => candidate.event !== 'webhook.update');
    if (chosen !== undefined) return chosen;
    // None to use: register one that stays quiet (webhook.delete is rare) at a closed port.
    const created = await this.#client.createWebhook(
      {
        event: 'webhook.delete',
        url: 'http://127.0.0.1:9/ledgerdesk-trigger',
        userdata: { created_by: 'ledger trigger' },
      },
      this.#options(),
    );
    this.#note(
      'POST /webhook (a webhook to move: none other existed)',
      `webhook ${created.id}`,
      'webhook.create',
      created.id,
    );
    return created;
  }

  async #moveWebhook(request: TriggerRequest) {
    const wanted = request.status;
    if (wanted !== undefined && wanted !== 'error' && wanted !== 'enabled') {
      throw new TriggerProblem(`--status for webhook.update is error or enabled, not ${wanted}.`);
    }
    const target =
      request.webhookId === undefined
        ? await this.#defaultWebhook()
        : await this.#client.getWebhook(request.webhookId, this.#signal);
    const id = target.id;
    const intoError = wanted === 'error' || (wanted === undefined && target.status === 'enabled');
    const back = wanted === 'enabled' || (wanted === undefined && target.status !== 'disabled');
    if (wanted === undefined && target.status === 'disabled') {
      throw new TriggerProblem(
        `Webhook ${id} is disabled: only an enabled webhook can enter error. Pass --status enabled to enable it.`,
      );
    }
    if (intoError) {
      await this.#simulate({ type: 'webhook.error', simulation: { webhook_id: id } });
      this.#note(`POST /simulation webhook.error (${id})`, `webhook ${id} in error`, 'webhook.update', id);
    }
    if (back) {
      await this.#client.updateWebhook(id, { status: 'enabled' }, this.#signal);
      this.#note(`PATCH /webhook/${id} {"status":"enabled"}`, `webhook ${id} enabled again`, 'webhook.update', id);
    }
    const now = await this.#client.getWebhook(id, this.#signal);
    return { id, object: now as Record<string, unknown> };
  }
}

function describeMoves(transitions: Readonly<Record<string, readonly string[]>>): string {
  return Object.entries(transitions)
    .filter(([, next]) => next.length > 0)
    .map(([from, next]) => `${from} → ${next.join('|')}`)
    .join('; ');
}
