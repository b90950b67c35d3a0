/**
 * Handlers of the upload domains: `documents`, `files` and `cardArt` (what was sent to the bank,
 * as remembered in the cache, and the writes that send it).
 */
import type { Handlers } from './handlerTypes.ts';
import { clockOf, ledgerOf, searchOf, type LedgerHandlerServices } from './ledgerAccess.ts';

export function createUploadHandlers(
  services: LedgerHandlerServices,
): Pick<Handlers, 'documents' | 'files' | 'cardArt'> {
  const now = clockOf(services);
  const ledger = () => ledgerOf(services);
  return {
    documents: {
      create: ({ profileId, request, confirmProduction }) =>
        ledger().writes.createDocument(profileId, request, { confirmProduction: confirmProduction === true }),
      list: (input) => {
        return ledger().cache.uploads.documents({
          profileId: input.profileId,
          ...searchOf(input.search),
          limit: input.limit,
          cursor: input.cursor ?? null,
        });
      },
    },

    files: {
      upload: ({ profileId, contentType, bytes, confirmProduction }) =>
        ledger().writes.uploadFile(profileId, bytes, contentType, { confirmProduction: confirmProduction === true }),
    },

    cardArt: {
      upload: async ({ profileId, cardProductId, request, confirmProduction }) => {
        await ledger().writes.uploadCardArt(profileId, cardProductId, request, {
          confirmProduction: confirmProduction === true,
        });
        const uploadedAt = now().toISOString();
        return {
          id: `${cardProductId}/${request.asset_type}/${uploadedAt}`,
          profileId,
          cardProductId,
          assetType: request.asset_type,
          fileId: request.file_id,
          uploadedAt,
        };
      },
      list: (input) => {
        const page = ledger().cache.uploads.cardArtUploads({
          profileId: input.profileId,
          limit: input.limit,
          cursor: input.cursor ?? null,
        });
        const rows = page.rows
          .filter((upload) => input.cardProductId === undefined || upload.cardProductId === input.cardProductId)
          .map((upload) => ({
            id: `${upload.cardProductId}/${upload.assetType}/${upload.uploadedAt}`,
            profileId: input.profileId,
            ...upload,
          }));
        return { ...page, rows };
      },
      products: async ({ profileId }) => ({
        rows: await ledger().clients.clientFor(ledger().profiles.find(profileId).id).listCardProducts(),
        asOf: now().toISOString(),
        source: 'bank' as const,
      }),
    },
  };
}
