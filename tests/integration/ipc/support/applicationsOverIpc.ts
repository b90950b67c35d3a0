/**
 * The applicant domains (applicants, account applications, audit, and what a test adds) over
 * the real router and bridge, on a sandbox bank whose applications are synced into the cache
 * before the test starts; and the bank's own clear record of an applicant, which the masked
 * views are compared with. Shared by the applicant tests, which all start this way.
 */
import { expect } from 'vitest';
import { createAccountApplicationHandlers } from '../../../../src/main/ipc/accountApplicationHandlers.ts';
import { createApplicantHandlers } from '../../../../src/main/ipc/applicantHandlers.ts';
import { createAuditHandlers } from '../../../../src/main/ipc/auditHandlers.ts';
import type { PartialHandlers } from '../../../../src/main/ipc/handlerTypes.ts';
import type { LedgerHandlerServices } from '../../../../src/main/ipc/ledgerAccess.ts';
import { basicOf, startBank, type RunningSandbox } from '../../services/support/sandboxBank.ts';
import { openServicesOverIpc, type ServicesOverIpc } from './servicesOverIpc.ts';

export interface ApplicationsOverIpc extends ServicesOverIpc {
  sandbox: RunningSandbox;
  /** The applicant as the bank holds it, in clear (person or business application). */
  clearRecord(applicantId: string): Promise<Record<string, unknown>>;
}

export async function openApplicationsOverIpc(
  folderPrefix: string,
  moreDomains: (wired: LedgerHandlerServices) => PartialHandlers = () => ({}),
): Promise<ApplicationsOverIpc> {
  const sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 2 });
  const services = await openServicesOverIpc({
    folderPrefix,
    bank: sandbox,
    domains: (wired) => ({
      ...createApplicantHandlers(wired),
      ...createAccountApplicationHandlers(wired),
      ...createAuditHandlers(wired),
      ...moreDomains(wired),
    }),
  });
  const outcome = await services.ledger.sync.start({ kind: 'applications', profileId: services.profileId }).done;
  expect(outcome.error ?? null).toBeNull();
  expect(outcome.state).toBe('done');
  return {
    ...services,
    sandbox,
    async clearRecord(applicantId) {
      const path = applicantId.startsWith('abus') ? 'business_application' : 'person_application';
      const answer = await fetch(`${sandbox.baseUrl}/apply/${path}/${applicantId}`, {
        headers: { authorization: basicOf(sandbox) },
      });
      expect(answer.status).toBe(200);
      return (await answer.json()) as Record<string, unknown>;
    },
    async close() {
      await services.close();
      await sandbox.close();
    },
  };
}
