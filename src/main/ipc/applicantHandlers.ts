/**
 * Handlers of the `applicants` domain (issue 24): the people and businesses of the application
 * book, masked (applicantView.ts). `reveal` hands one field of one applicant over in clear and
 * writes it to the audit chain first (who, which field of which applicant, when): a reveal the
 * log could not keep is not given. Nothing about an applicant is logged here.
 */
import { applicantViewOf, personalValueOf, revealedText } from '../services/applicants/applicantView.ts';
import type { LedgerServices } from '../services/ledgerServices.ts';
import type { Handlers } from './handlerTypes.ts';
import { ledgerOf, searchOf, type LedgerHandlerServices } from './ledgerAccess.ts';
import { IpcFailure } from './serviceErrors.ts';

/** Today in UTC (YYYY-MM-DD): the day an age is counted on. */
function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function profileOf(ledger: LedgerServices, profileId: string): { id: string; name: string } {
  return ledger.profiles.find(profileId);
}

export function createApplicantHandlers(services: LedgerHandlerServices): Pick<Handlers, 'applicants'> {
  return {
    applicants: {
      ofApplication: ({ profileId, applicationId }) => {
        const ledger = ledgerOf(services);
        profileOf(ledger, profileId);
        const day = today();
        const named = ledger.cache.applicants.ofApplication(profileId, applicationId);
        const fetched = named.flatMap((entry) => (entry.applicant === null ? [] : [entry.applicant.fetchedAt]));
        return {
          rows: named.map((entry) => ({
            applicantId: entry.applicantId,
            kind: entry.kind,
            roles: entry.roles,
            applicant: entry.applicant === null ? null : applicantViewOf(entry.applicant, day),
          })),
          // Every applicant shown is at least as fresh as the oldest fetch among them.
          asOf: fetched.length === 0 ? null : fetched.reduce((oldest, at) => (at < oldest ? at : oldest)),
        };
      },
      get: ({ profileId, applicantId }) => {
        const ledger = ledgerOf(services);
        profileOf(ledger, profileId);
        const cached = ledger.cache.applicants.get(profileId, applicantId);
        return { applicant: cached === null ? null : applicantViewOf(cached, today()) };
      },
      list: ({ profileId, search, kind, limit }) => {
        const ledger = ledgerOf(services);
        profileOf(ledger, profileId);
        const day = today();
        const rows = ledger.cache.applicants.list({
          profileId,
          ...searchOf(search),
          ...(kind === undefined ? {} : { kind }),
          limit,
        });
        return { rows: rows.map((cached) => applicantViewOf(cached, day)) };
      },
      reveal: ({ profileId, applicantId, field }) => {
        const ledger = ledgerOf(services);
        const profile = profileOf(ledger, profileId);
        const cached = ledger.cache.applicants.get(profileId, applicantId);
        if (cached === null) {
          throw new IpcFailure('not_found', `There is no cached applicant ${applicantId}.`, { field: 'applicantId' });
        }
        if (cached.record === null) {
          throw new IpcFailure(
            'not_found',
            `The bank did not return applicant ${applicantId}: there is nothing to reveal.`,
            {
              field: 'applicantId',
            },
          );
        }
        const value = revealedText(personalValueOf(cached.record, field));
        // Written before the value is handed over: no reveal without its entry in the chain.
        const entry = ledger.cache.audit.record({
          profileId,
          profileName: profile.name,
          action: 'applicant.reveal',
          target: `applicant:${applicantId}`,
          result: 'ok',
          detail: `revealed ${field}`,
        });
        return { field, value, auditEntryId: String(entry.id) };
      },
      exportUnmasked: ({ profileId }) => {
        return { classes: ledgerOf(services).profiles.find(profileId).exportUnmasked ?? [] };
      },
      setExportUnmasked: ({ profileId, classes }) => {
        const ledger = ledgerOf(services);
        const profile = profileOf(ledger, profileId);
        return { classes: ledger.setExportUnmasked(profile.id, classes).exportUnmasked ?? [] };
      },
    },
  };
}
