/**
 * Webhooks of a profile: the cached list, and create, update (enable, disable, re-enable
 * from error) and delete against the bank — each confirmed on a Production profile.
 */
import { z } from 'zod';
import { WEBHOOK_STATUSES, webhookResponse, webhookCreateRequest, webhookUpdateRequest } from '../../bank/index.ts';
import { cachePage, confirmProduction, idText, paging, profileId, searchText } from '../common.ts';

export const webhooksOperations = {
  list: {
    input: z.strictObject({
      profileId,
      status: z.enum(WEBHOOK_STATUSES).optional(),
      event: idText.optional(),
      /** Matches the URL and the event. */
      search: searchText,
      ...paging,
    }),
    output: cachePage(webhookResponse.object),
  },
  /**
   * A bank but the embedded sandbox is given only a public https:// address; `allowHttp`: a
   * remote sandbox that says it delivers to http:// and private addresses too.
   */
  create: {
    input: z.strictObject({
      profileId,
      request: webhookCreateRequest,
      confirmProduction,
      allowHttp: z.boolean().optional(),
    }),
    output: webhookResponse.object,
  },
  update: {
    input: z.strictObject({
      profileId,
      id: idText,
      changes: webhookUpdateRequest,
      confirmProduction,
      allowHttp: z.boolean().optional(),
    }),
    output: webhookResponse.object,
  },
  delete: {
    input: z.strictObject({ profileId, id: idText, confirmProduction }),
    output: z.object({ deleted: z.literal(true), id: z.string() }),
  },
} as const;
