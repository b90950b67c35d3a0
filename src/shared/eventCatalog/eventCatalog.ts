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
  ...(
    [
      ['book.update', 'book transfer', 'book_1', '/book/book_1', 'A book transfer between accounts changes.'],
      ['wire.update', 'wire transfer', 'wire_1', '/wire/wire_1', 'A wire transfer changes.'],
      ['card.update', 'card', 'card_1', '/card/card_1', 'A card changes (issued, activated, frozen).'],
      [
        'person_application.update',
        'person application',
        'apsn_1',
        '/apply/person_application/apsn_1',
        'A person application of an account application changes.',
      ],
    ] as const
  ).map(([event, object, id, path, causes]) =>
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
