/**
 * `--lean`: the sandbox answers in the shapes the real service answers in today, not the
 * interface's (issue 14; conventions.md "What a client must tolerate"; the recordings in
 * shared/real-wire). Only what the real service is known to omit or null is changed:
 * - account applications: no `account_number`, `ownership_type` or `product`; `deposit_id`
 *   null; a business application's `person_applications` is `[]`;
 * - pending transactions: no `partner_deposit_id` (nor the partner's own name);
 * - documents: no `bank_id`, `organization_id` or `description`;
 * - card products: the real record only (no `name`, no `card_art`);
 * - webhooks: no `basic_user` / `basic_secret` keys;
 * - person and business applications: no `document_ids` (the vendor's reference lists the
 *   field, but none of its example answers carries it: docs/business-applications.md);
 * - lists of those resources: no `page_next` (`{data, total_estimated}`, and pending
 *   transactions just `{data}`): a client pages on by the last id, or by date for records
 *   without one.
 * Stored data is untouched: the same data file serves either shape. Answers are changed at the
 * router (router.ts), after the route, so idempotent replays and cached pages are lean too.
 */
import { JSON_CONTENT_TYPE, type Answer } from '../http/answer.ts';

export type LeanResource =
  | 'account_application'
  | 'pending_transaction'
  | 'document'
  | 'card_product'
  | 'webhook'
  | 'person_application'
  | 'business_application';

interface LeanRoute {
  resource: LeanResource;
  /** What a list of the resource keeps of the envelope besides `data`. */
  envelope: 'total_estimated' | 'data only';
}

/** The routes whose answers change, by the path they are registered under. */
const LEAN_ROUTES: Readonly<Record<string, LeanRoute>> = {
  '/apply/account_application': { resource: 'account_application', envelope: 'total_estimated' },
  '/apply/account_application/:account_application_id': {
    resource: 'account_application',
    envelope: 'total_estimated',
  },
  '/account/:account_id/pending_transaction': { resource: 'pending_transaction', envelope: 'data only' },
  '/document': { resource: 'document', envelope: 'total_estimated' },
  '/document/:document_id': { resource: 'document', envelope: 'total_estimated' },
  '/cardproduct': { resource: 'card_product', envelope: 'total_estimated' },
  '/cardproduct/:card_product_id': { resource: 'card_product', envelope: 'total_estimated' },
  '/webhook': { resource: 'webhook', envelope: 'total_estimated' },
  '/webhook/:webhook_id': { resource: 'webhook', envelope: 'total_estimated' },
  '/apply/person_application': { resource: 'person_application', envelope: 'total_estimated' },
  '/apply/person_application/:person_application_id': {
    resource: 'person_application',
    envelope: 'total_estimated',
  },
  '/apply/business_application': { resource: 'business_application', envelope: 'total_estimated' },
  '/apply/business_application/:business_application_id': {
    resource: 'business_application',
    envelope: 'total_estimated',
  },
};

/** The fields each resource loses. */
export const LEAN_LEFT_OUT: Readonly<Record<LeanResource, readonly string[]>> = {
  account_application: ['account_number', 'ownership_type', 'product'],
  pending_transaction: ['partner_deposit_id', 'greendot_deposit_id'],
  document: ['bank_id', 'organization_id', 'description'],
  card_product: ['name', 'card_art'],
  webhook: ['basic_user', 'basic_secret'],
  person_application: ['document_ids'],
  business_application: ['document_ids'],
};

/** The fields it sends as null where the interface has a value. */
export const LEAN_NULLED: Readonly<Partial<Record<LeanResource, readonly string[]>>> = {
  account_application: ['deposit_id'],
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One record as the real service sends it. */
function leanRecord(resource: LeanResource, record: Record<string, unknown>): Record<string, unknown> {
  const lean: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record)) {
    if (!LEAN_LEFT_OUT[resource].includes(name)) lean[name] = value;
  }
  if (resource === 'account_application') {
    for (const field of LEAN_NULLED.account_application ?? []) if (field in lean) lean[field] = null;
    if (lean['person_applications'] === null) lean['person_applications'] = [];
  }
  return lean;
}

/** The answer of a route as `--lean` sends it; other routes, errors and non-JSON answers are unchanged. */
export function leanAnswer(routePath: string, answer: Answer): Answer {
  const route = LEAN_ROUTES[routePath];
  if (route === undefined || answer.status < 200 || answer.status >= 300) return answer;
  if (answer.contentType !== JSON_CONTENT_TYPE || answer.body.length === 0) return answer;
  const body = JSON.parse(answer.body.toString()) as unknown;
  if (!isObject(body)) return answer;
  let lean: Record<string, unknown>;
  if (Array.isArray(body['data'])) {
    const data = body['data'].map((item: unknown) => (isObject(item) ? leanRecord(route.resource, item) : item));
    lean =
      route.envelope === 'data only' || body['total_estimated'] === undefined
        ? { data }
        : { data, total_estimated: body['total_estimated'] };
  } else {
    lean = leanRecord(route.resource, body);
  }
  return { ...answer, body: JSON.stringify(lean) };
}
