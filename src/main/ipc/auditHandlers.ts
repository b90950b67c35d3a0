/** Handlers of the `audit` domain: the hash-chained log of user actions, listed and verified. */
import type { AuditEntry as ContractAuditEntry } from '../../shared/ipc/domains/audit.ts';
import type { AuditEntry } from '../services/audit/auditLog.ts';
import { whoOf, whoLookupOf, type WhoLookup } from '../services/audit/auditWho.ts';
import type { Handlers } from './handlerTypes.ts';
import { ledgerOf, searchOf, type LedgerHandlerServices } from './ledgerAccess.ts';

/** An entry for the window; with `who` when the caller can name who acted (auditWho.ts). */
export function toAuditEntry(entry: AuditEntry, who?: WhoLookup): ContractAuditEntry {
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
    ...(who === undefined ? {} : { who: whoOf(entry.actor, who) }),
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
        const who = whoLookupOf(ledger());
        return { ...page, rows: page.rows.map((entry) => toAuditEntry(entry, who)) };
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
                  entry: problem.entry === null ? null : toAuditEntry(problem.entry, whoLookupOf(ledger())),
                  message: problem.message,
                },
          notes: verification.notes,
          verifiedAt: verification.verifiedAt,
        };
      },
    },
  };
}
