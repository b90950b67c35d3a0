/**
 * Handlers of the `exports` domain (but the listener's traffic, which listenerHandlers.ts
 * answers for): a cached list, filtered as on screen, written page by page to a file the user
 * chooses.
 */
import { statusAsReceived } from '../../shared/bank/index.ts';
import { unmaskedFieldsOf } from '../../shared/personalData/exportDisclosure.ts';
import { exportedApplicantsOf } from '../services/applicants/applicantExport.ts';
import { applicationQueryOf } from './accountApplicationHandlers.ts';
import { whoLookupOf } from '../services/audit/auditWho.ts';
import { toAuditEntry } from './auditHandlers.ts';
import { exportRows } from './fileExport.ts';
import type { Handlers } from './handlerTypes.ts';
import { clockOf, ledgerOf, notSupported, type LedgerHandlerServices } from './ledgerAccess.ts';
import { pendingQueryOf } from './pendingTransactionHandlers.ts';
import { sendFilterOf } from './webhookSendHandlers.ts';

function fileStamp(now: Date): string {
  return now.toISOString().slice(0, 19).replaceAll(':', '-');
}

export function createExportHandlers(services: LedgerHandlerServices): Pick<Handlers, 'exports'> {
  const now = clockOf(services);
  const ledger = () => ledgerOf(services);

  async function saveExport(
    defaultName: string,
    format: 'csv' | 'jsonl',
    readPage: (cursor: string | null) => { rows: unknown[]; nextCursor: string | null },
  ) {
    const path = await services.chooseSavePath(`${defaultName}-${fileStamp(now())}.${format}`);
    if (path === null) return { saved: false, path: null, rows: 0 };
    const rows = await exportRows(path, format, readPage);
    return { saved: true, path, rows };
  }

  return {
    exports: {
      pendingTransactions: (input) =>
        saveExport('pending-transactions', input.format, (cursor) =>
          ledger().cache.pendingTransactions.list({ ...pendingQueryOf(input), limit: 1000, cursor }),
        ),
      webhookSends: (input) =>
        saveExport('webhook-sends', input.format, (cursor) =>
          ledger().cache.webhookSends.list({ ...sendFilterOf(input), limit: 1000, cursor }),
        ),
      accountApplications: (input) => {
        // Each application with its applicants, masked but for what the profile lets exports show.
        const unmasked = unmaskedFieldsOf(ledger().profiles.find(input.profileId).exportUnmasked ?? []);
        return saveExport('account-applications', input.format, (cursor) => {
          const page = ledger().cache.accountApplications.list({ ...applicationQueryOf(input), limit: 1000, cursor });
          const applicants = ledger().cache.applicants;
          return {
            rows: page.rows.map((row) => ({
              ...row,
              // A status this client does not know is exported as the bank sent it.
              status: statusAsReceived(row),
              applicants: exportedApplicantsOf(applicants, input.profileId, row.id, unmasked),
            })),
            nextCursor: page.nextCursor,
          };
        });
      },
      auditLog: (input) => {
        const who = whoLookupOf(ledger());
        return saveExport('audit-log', input.format, (cursor) => {
          const page = ledger().cache.audit.list({
            ...(input.profileId === undefined ? {} : { profileId: input.profileId }),
            limit: 1000,
            cursor,
          });
          return { rows: page.rows.map((entry) => toAuditEntry(entry, who)), nextCursor: page.nextCursor };
        });
      },
      listenerRequests: () => notSupported('format', 'Exporting listener traffic from this handler'),
    },
  };
}
