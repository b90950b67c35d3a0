/**
 * The little the listener needs from the bank, as a narrow port: so it depends on no
 * concrete client, and tests can stand in for the bank. The app adapts its profile's bank
 * client to this (`bankClientPort.ts`).
 */
import type {
  WebhookResponse,
  WebhookCreateRequest,
  WebhookSendResponse,
  WebhookSendStatus,
} from '../../../shared/bank/index.ts';

export interface WebhookSendQuery {
  webhook_id?: string;
  object_id?: string;
  status?: WebhookSendStatus;
  /** YYYY-MM-DD, inclusive. */
  from_date?: string;
  /** YYYY-MM-DD, exclusive. */
  to_date?: string;
}

export interface BankPort {
  /** The bank's base address; hydration only fetches addresses under it. */
  readonly baseUrl: string;
  /**
   * The current object at `url` (a notification's `url`, spec §2.6). Must refuse any
   * address outside `baseUrl`, so a forged notification cannot make the app send the
   * profile's credentials elsewhere.
   */
  getObject(url: string): Promise<unknown>;
  /** Every send record matching the query, all pages, newest first (spec §4.5). */
  listWebhookSends(query: WebhookSendQuery): AsyncIterable<WebhookSendResponse>;
  createWebhook(request: WebhookCreateRequest): Promise<WebhookResponse>;
  /** Remove a webhook; a webhook that is already gone is not an error. */
  deleteWebhook(id: string): Promise<void>;
}

/** Whether `url` is under the bank's base address (same origin, path below the base path). */
export function isUnderBase(baseUrl: string, url: string): boolean {
  let base: URL;
  let target: URL;
  try {
    base = new URL(baseUrl);
    target = new URL(url);
  } catch {
    return false;
  }
  const basePath = base.pathname.endsWith('/') ? base.pathname : base.pathname + '/';
  return target.origin === base.origin && (target.pathname + '/').startsWith(basePath);
}
