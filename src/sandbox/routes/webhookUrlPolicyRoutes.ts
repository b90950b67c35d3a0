/**
 * Sandbox-only: which webhook addresses this bank delivers to. The real service takes only
 * "the HTTPS URL where the event notification will be sent" (docs.treasuryprime.com, "Create
 * a webhook"); this sandbox also delivers to plain http:// and to loopback or private
 * addresses, and says so here, so a client's `--allow-http` is honoured only where the bank
 * says it may be (the real service has no such route: a 404 there means "HTTPS only").
 */
import { json } from '../http/answer.ts';
import type { Router } from '../http/router.ts';

const WEBHOOK_URL_POLICY_PATH = '/sandbox/webhook_url_policy';

export function registerWebhookUrlPolicyRoutes(router: Router): void {
  router.get(WEBHOOK_URL_POLICY_PATH, () =>
    json(200, {
      https_only: false,
      public_only: false,
      note: 'A Ledgerdesk sandbox: it delivers to http:// and to loopback or private addresses too. The real service delivers only to public HTTPS addresses.',
    }),
  );
}
