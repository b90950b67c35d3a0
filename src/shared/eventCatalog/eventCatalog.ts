/**
 * The events catalog: every webhook event the bank sends, what causes it, the notification
 * body and an example. One definition behind the app's Listener → Events tab, `ledger events`
 * and `ledger trigger` (which events it can cause), so the three cannot disagree.
 */
import type { WebhookNotification } from '../bank/index.ts';

/** The events `ledger trigger` and the Trigger panel can make the bank send. */
export const TRIGGERABLE_EVENTS = [
  'ach.create',
  'ach.update',
  'account.update',
  'account_application.create',
  'account_application.update',
  'document.create',
  'file.create',
  'webhook.update',
] as const;
export type TriggerableEvent = (typeof TRIGGERABLE_EVENTS)[number];

export interface CatalogEvent {
  /** `<resource>.<op>`, the webhook's `event`. */
  event: string;
  /** The notification's `op`. */
  op: 'create' | 'update' | 'delete';
  /** The object the notification's `id` names, in the bank's words. */
  object: string;
  /** What makes the bank send it. */
  causes: string;
  /** Whether the sandbox bank sends it (some events exist only at the real service). */
  sandbox: boolean;
  /** How `ledger trigger` causes it; null when it cannot. */
  trigger: string | null;
  /** A notification body as the bank sends it. */
  example: WebhookNotification;
}

/** Where the examples point: the sandbox's usual address. */
const EXAMPLE_BASE_URL = 'http://127.0.0.1:4010';

function example(event: string, id: string, path: string): WebhookNotification {
  const op = event.slice(event.lastIndexOf('.') + 1) as WebhookNotification['op'];
  return { event, op, id, url: `${EXAMPLE_BASE_URL}${path}` };
}

function entry(
  event: string,
  object: string,
  id: string,
  path: string,
  causes: string,
  trigger: string | null,
  sandbox = true,
): CatalogEvent {
  return {
    event,
    op: example(event, id, path).op,
    object,
    causes,
    sandbox,
    trigger,
    example: example(event, id, path),
  };
}

/**
 * Events the real service sends that the sandbox bank does not: the names conventions.md
 * lists from the real service's traffic (book, wire, card, person application), and those its
 * documentation names (docs.treasuryprime.com: "Incoming ACH" for incoming_ach.create and
 * transaction.create; the webhook guides and client libraries for the others). Each is
 * offered by Register and `ledger events`, marked "real service only".
 */
const REAL_SERVICE_ONLY: readonly (readonly [string, string, string, string, string])[] = [
  ['book.update', 'book transfer', 'book_1', '/book/book_1', 'A book transfer between accounts changes.'],
  ['wire.update', 'wire transfer', 'wire_1', '/wire/wire_1', 'A wire transfer changes.'],
  ['card.update', 'card', 'card_1', '/card/card_1', 'A card changes (issued, activated, frozen).'],
  [
    'card_event.create',
    'card event',
    'cevt_1',
    '/card_event/cevt_1',
    'A card is used: an authorization, a clearing or a reversal of a card transaction is recorded.',
  ],
  [
    'card_event.update',
    'card event',
    'cevt_1',
    '/card_event/cevt_1',
    'A card event changes (an authorization is cleared or reversed).',
  ],
  [
    'person_application.update',
    'person application',
    'apsn_1',
    '/apply/person_application/apsn_1',
    'A person application of an account application changes.',
  ],
  [
    'business_application.update',
    'business application',
    'abus_1',
    '/apply/business_application/abus_1',
    'A business application of an account application changes.',
  ],
  [
    'kyc.update',
    'KYC evaluation',
    'kyc_1',
    '/kyc/kyc_1',
    'The identity check (KYC) of an applicant changes: approved, denied, or sent to manual review.',
  ],
  [
    'incoming_ach.create',
    'incoming ACH',
    'inach_1',
    '/incoming_ach/inach_1',
    'An ACH originated outside the platform arrives for an account (its transaction also posts: account.update).',
  ],
  [
    'incoming_wire.create',
    'incoming wire',
    'inwire_1',
    '/incoming_wire/inwire_1',
    'A wire originated outside the platform arrives for an account.',
  ],
  [
    'transaction.create',
    'transaction',
    'ttx_1',
    '/transaction/ttx_1',
    'A transaction is posted on any account (the notification does not say which account).',
  ],
  [
    'check_deposit.update',
    'check deposit',
    'chkd_1',
    '/check_deposit/chkd_1',
    'A mobile check deposit changes status (submitted, accepted, rejected, returned).',
  ],
  ['check.update', 'issued check', 'chk_1', '/check/chk_1', 'An issued (outgoing) check changes status.'],
  ['fednow.update', 'FedNow transfer', 'fednow_1', '/fednow/fednow_1', 'A FedNow instant payment changes status.'],
  [
    'network_transfer.update',
    'network transfer',
    'ntx_1',
    '/network_transfer/ntx_1',
    'A network transfer (a push to a debit card) changes status.',
  ],
  [
    'digital_wallet_token.update',
    'digital wallet token',
    'dwt_1',
    '/digital_wallet_token/dwt_1',
    'A card provisioned in a digital wallet (Apple Pay, Google Pay) changes.',
  ],
  [
    'account_statement.create',
    'account statement',
    'stmt_1',
    '/account_statement/stmt_1',
    "An account's periodic statement is ready.",
  ],
  [
    'account_tax_document.update',
    'account tax document',
    'atd_1',
    '/account_tax_document/atd_1',
    "An account's tax document (a 1099-INT) changes.",
  ],
];

/** Every event's name, in the catalog's order: what Register and the webhook form offer. */
export function catalogEvents(): string[] {
  return EVENT_CATALOG.map((entry) => entry.event);
}

export const EVENT_CATALOG: readonly CatalogEvent[] = [
  entry(
    'account.create',
    'account',
    'acct_7k2m9q4x1b8n3p',
    '/account/acct_7k2m9q4x1b8n3p',
    'An account is opened: the bank approves an account application.',
    'Trigger account_application.update to approved.',
  ),
  entry(
    'account.update',
    'account',
    'acct_7k2m9q4x1b8n3p',
    '/account/acct_7k2m9q4x1b8n3p',
    'An account changes: a new pending transaction posts on it (a card charge, a deposit, an ACH), moving its balances.',
    'Posts a deposit on the account (default: the first account) through POST /simulation.',
  ),
  entry(
    'ach.create',
    'ACH transfer',
    'ach_3f8d2k7m1q9w4e',
    '/ach/ach_3f8d2k7m1q9w4e',
    'An ACH transfer is created (status pending). Its pending transaction also posts on the account (account.update).',
    'Creates an ACH credit on the account (default: the first account) through POST /simulation.',
  ),
  entry(
    'ach.update',
    'ACH transfer',
    'ach_3f8d2k7m1q9w4e',
    '/ach/ach_3f8d2k7m1q9w4e',
    'An ACH transfer changes, including each status move: pending → processing → sent → returned, or canceled.',
    'Moves the ACH to the chosen status, or one step; without an ACH, creates one first (so: to processing).',
  ),
  entry(
    'account_application.create',
    'account application',
    'aact_9w2e5r8t1y4u7i',
    '/apply/account_application/aact_9w2e5r8t1y4u7i',
    'A customer submits an account application (status submitted).',
    'Submits a new application through POST /simulation.',
  ),
  entry(
    'account_application.update',
    'account application',
    'aact_9w2e5r8t1y4u7i',
    '/apply/account_application/aact_9w2e5r8t1y4u7i',
    'An account application changes status: submitted → kyc → processing or manual_review → approved, rejected or canceled.',
    'Moves the application to the chosen status, or one step toward approval; without an application, submits a new one first.',
  ),
  entry(
    'document.create',
    'document',
    'doc_5t8y1u4i7o2p6a',
    '/document/doc_5t8y1u4i7o2p6a',
    'A document is created (POST /document).',
    'Uploads a small PDF and creates an "other" document on it (file.create comes first).',
  ),
  entry(
    'file.create',
    'file',
    'file_2s5d8f1g4h7j9k',
    '/file/file_2s5d8f1g4h7j9k',
    'A file is uploaded (POST /file).',
    'Uploads a small PDF.',
  ),
  entry(
    'card_product.update',
    'card product',
    'cdpt_6l9z2x5c8v1b4n',
    '/cardproduct/cdpt_6l9z2x5c8v1b4n',
    'Card art is uploaded for a card product (POST /cardproduct/{id}/uxt_cardart).',
    null,
  ),
  entry(
    'webhook.create',
    'webhook',
    'wh_8m1n4b7v2c5x9z',
    '/webhook/wh_8m1n4b7v2c5x9z',
    'A webhook is registered (POST /webhook).',
    null,
  ),
  entry(
    'webhook.update',
    'webhook',
    'wh_8m1n4b7v2c5x9z',
    '/webhook/wh_8m1n4b7v2c5x9z',
    'A webhook changes: edited, disabled or enabled, or moved to error by the bank after too many failed deliveries. No notification is sent to a webhook that is not enabled.',
    'Moves the webhook (default: one not subscribed to webhook.update) into error through POST /simulation, then back to enabled with PATCH /webhook/{id}; choosing error or enabled makes one move.',
  ),
  entry(
    'webhook.delete',
    'webhook',
    'wh_8m1n4b7v2c5x9z',
    '/webhook/wh_8m1n4b7v2c5x9z',
    'A webhook is deleted (DELETE /webhook/{id}).',
    null,
  ),
  ...REAL_SERVICE_ONLY.map(([event, object, id, path, causes]) =>
    entry(event, object, id, path, `${causes} Sent by the real service only.`, null, false),
  ),
];

export function catalogEntry(event: string): CatalogEvent | undefined {
  return EVENT_CATALOG.find((candidate) => candidate.event === event);
}

/** The notification body's fields (spec §2.6), for the catalog's readers. */
export const NOTIFICATION_FIELDS: readonly { name: string; rule: string }[] = [
  { name: 'event', rule: 'The event, <resource>.<op>, e.g. ach.update.' },
  { name: 'op', rule: 'The operation: create, update or delete.' },
  { name: 'id', rule: 'The id of the changed object.' },
  {
    name: 'url',
    rule: 'The object in the API, {base_url}/<resource>/<id>: fetch it for the latest data (order is not guaranteed).',
  },
];
