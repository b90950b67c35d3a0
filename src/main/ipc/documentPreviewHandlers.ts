/**
 * Handlers of the `documentPreviews` domain (issue 24, item 3): the file of a document an
 * applicant names, from the cache or the bank (services/applicants/documentFiles.ts). A refusal
 * becomes the contract's error with a sentence that says what to do; the bank being down or
 * refusing goes through the common translation (offline, unauthorized, ...).
 *
 * A document is usually an ID scan (date of birth, ID number, address in clear), so each preview
 * is written to the audit chain before the file is handed over, like a masked field's reveal
 * (review P1): who (the entry's actor), which applicant and document, and where it came from.
 */
import { documentFileOf, DocumentFileRefused } from '../services/applicants/documentFiles.ts';
import type { Handlers } from './handlerTypes.ts';
import { clockOf, ledgerOf, type LedgerHandlerServices } from './ledgerAccess.ts';
import { IpcFailure } from './serviceErrors.ts';

export function createDocumentPreviewHandlers(services: LedgerHandlerServices): Pick<Handlers, 'documentPreviews'> {
  const now = clockOf(services);
  return {
    documentPreviews: {
      get: async ({ profileId, applicantId, documentId }) => {
        const ledger = ledgerOf(services);
        const profile = ledger.profiles.find(profileId);
        try {
          const file = await documentFileOf(
            {
              applicants: ledger.cache.applicants,
              files: ledger.cache.documentFiles,
              bank: () => ledger.clients.clientFor(profile.id),
              now,
            },
            { profileId: profile.id, applicantId, documentId },
          );
          // Written before the file is handed over: no preview without its entry in the chain.
          ledger.cache.audit.record({
            profileId: profile.id,
            profileName: profile.name,
            action: 'document.preview',
            target: `applicant:${applicantId}`,
            result: 'ok',
            detail: `previewed document ${documentId} (file ${file.fileId}, ${file.contentType}, ${String(file.bytes.byteLength)} bytes, from the ${file.source === 'cache' ? 'offline cache' : 'bank'})`,
          });
          const { bytes, ...rest } = file;
          return {
            ...rest,
            contentBase64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64'),
            byteLength: bytes.byteLength,
          };
        } catch (error) {
          if (!(error instanceof DocumentFileRefused)) throw error;
          switch (error.problem) {
            case 'not-named':
            case 'not-found':
              throw new IpcFailure('not_found', error.message, { field: 'documentId' });
            case 'too-large':
              throw new IpcFailure('bank_error', error.message, {
                action: 'Open the document in the bank’s own tools instead.',
              });
            case 'unsupported-type':
              throw new IpcFailure('bank_error', error.message, {
                action: 'Ask the bank for a PNG, JPEG or PDF copy.',
              });
          }
        }
      },
    },
  };
}
