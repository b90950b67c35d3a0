/** Handlers of the `audit` domain: the hash-chained log of user actions, listed and verified. */
import type { AuditEntry as ContractAuditEntry } from '../../shared/ipc/domains/audit.ts';
import type { AuditEntry } from '../services/audit/auditLog.ts';
import type { Handlers } from './handlerTypes.ts';
import { ledgerOf, searchOf, type LedgerHandlerServices } from './ledgerAccess.ts';

export function toAuditEntry(entry: AuditEntry): ContractAuditEntry {
  return {
    id: String(entry.id),
    at: entry.at,
    profileId: entry.profileId,
    profileName: entry.profileName,
    action: entry.action,
    target: entry.target,
    result: entry.result,
    message: entry.detail,
    actor: entry.actor ?? null,
  };
}

export function createAuditHandlers(services: LedgerHandlerServices): Pick<Handlers, 'audit'> {
  const ledger = () => ledgerOf(services);
  return {
    audit: {
      list: (input) => {
        const page = ledger().cache.audit.list({
          ...(input.profileId === undefined ? {} : { profileId: input.profileId }),
          ...(input.action === undefined ? {} : { action: input.action }),
          ...(input.result === undefined ? {} : { result: input.result }),
          ...searchOf(input.search),
          limit: input.limit,
          cursor: input.cursor ?? null,
        });
        return { ...page, rows: page.rows.map(toAuditEntry) };
      },
      verify: async () => {
        const verification = await ledger().cache.audit.verify();
        const { problem } = verification;
        return {
          ok: verification.ok,
          entries: verification.entries,
          head: verification.head,
          problem:
            problem === null
              ? null
              : {
                  kind: problem.kind,
                  entryId: String(problem.entryId),
                  entry: problem.entry === null ? null : toAuditEntry(problem.entry),
                  message: problem.message,
                },
          notes: verification.notes,
          verifiedAt: verification.verifiedAt,
        };
      },
    },
  };
}
