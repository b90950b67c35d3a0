/**
 * Sandbox-only: the organization's Smart Webhook Retries setting (spec §6.7).
 *   GET   /sandbox/organization                            the setting
 *   PATCH /sandbox/organization                            {organization_type?, smart_retries?}
 *   POST  /sandbox/organization/smart_retries/approval     {approved} the bank's decision
 */
import { organizationSettingsUpdate, smartRetriesApproval } from '../../shared/bank/index.ts';
import { json } from '../http/answer.ts';
import { bodyOf } from '../http/requestInput.ts';
import type { Router } from '../http/router.ts';
import type { SandboxContext } from '../sandboxContext.ts';

export function registerOrganizationRoutes(router: Router, context: SandboxContext): void {
  router.get('/sandbox/organization', () => json(200, context.organization.read()));
  router.patch('/sandbox/organization', (request) =>
    json(200, context.organization.update(bodyOf(request, organizationSettingsUpdate))),
  );
  router.post('/sandbox/organization/smart_retries/approval', (request) =>
    json(200, context.organization.decide(bodyOf(request, smartRetriesApproval).approved)),
  );
}
