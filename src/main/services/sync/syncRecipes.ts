/**
 * One recipe per kind of sync (issue 36, item 3): what to fetch, how to window it, how to
 * write a page and what follows, for the driver in syncService.ts (syncRecipe.ts says what
 * each part means).
 */
import type { PendingTransactionResponse, WebhookResponse, WebhookSendResponse } from '../../../shared/bank/index.ts';
import type { SyncKind } from '../cache/syncCheckpoints.ts';
import { bookWalks, fetchApplicants, fetchNamed } from './applicationBookSync.ts';
import type { DateWindow } from './dateWindows.ts';
import type { ListSource } from './listWalk.ts';
import {
  listStep,
  type RequestOf,
  type SyncContext,
  type SyncRecipe,
  type SyncRequest,
  type WalkStart,
} from './syncRecipe.ts';

/** `name=value&…` of the defined values of a scope, or `all`. */
function named(scope: Record<string, unknown>): string {
  const text = Object.entries(scope)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${String(value)}`)
    .join('&');
  return text === '' ? 'all' : text;
}

function rangeOf(request: { fromDate?: string; toDate?: string }): DateWindow {
  return {
    ...(request.fromDate === undefined ? {} : { fromDate: request.fromDate }),
    ...(request.toDate === undefined ? {} : { toDate: request.toDate }),
  };
}

/** A list of the job's own: windowed unless walked with one cursor, or resuming a one-cursor run. */
function windowedByDefault(context: Pick<SyncContext, 'parallelism'>, walk: WalkStart): boolean {
  return context.parallelism > 1 && !(walk.resumed && walk.checkpoint.cursor !== null);
}

/**
 * An account synced for the first time is named from the bank's account list (one request),
 * so screens and the report name it, not its id (issue 38). A list that cannot be read now is
 * not the sync's failure: the account is named at the next sync or opening of the list.
 */
async function nameAccount({
  cache,
  client,
  request,
  signal,
  now,
}: SyncContext<RequestOf<'pending-transactions'>>): Promise<void> {
  if (cache.accounts.has(request.profileId, request.accountId)) return;
  try {
    const accounts = await client.listAccounts(signal);
    cache.transaction(() => {
      cache.accounts.write(request.profileId, accounts, now());
    });
  } catch {
    // Said nowhere: the page walk that follows meets the same bank and says what is wrong.
  }
}

const pendingTransactions: SyncRecipe<RequestOf<'pending-transactions'>> = {
  identify: (request) => ({
    key: `pending-transactions/${request.profileId}/${request.accountId}`,
    scope: { accountId: request.accountId, fromDate: request.fromDate, toDate: request.toDate },
  }),
  dateRange: rangeOf,
  prepare: nameAccount,
  lists: [
    listStep<RequestOf<'pending-transactions'>, PendingTransactionResponse, true>({
      // The account's scope is made by the writer (off this thread), so planning the first
      // page only reads it and never waits for the write lock.
      before: ({ cache, request }) => [cache.pendingTransactions.scopeBatch(request.profileId, request.accountId)],
      windowed: windowedByDefault,
      source: ({ cache, client, request }, checkpoint): ListSource<PendingTransactionResponse, true> => {
        const table = cache.pendingTransactions;
        const range = rangeOf(request);
        return {
          range,
          pages: (window, options) => client.pendingTransactionPages(request.accountId, window, options),
          // The precise time is the creation time, in UTC: what the bank's date filters compare.
          createdDateOf: (item) => item.extended_timestamp_precise?.slice(0, 10) ?? item.date ?? null,
          cachedDays: () => cache.creationDays.ofPendingTransactions(request.profileId, request.accountId),
          plan: (page, inFlight) => {
            const plan = table.planPage(request.profileId, request.accountId, page.items, checkpoint.generation, {
              has: (rowKey) => inFlight.get(rowKey) !== undefined,
            });
            return { batches: plan.batches, added: plan.added, keys: plan.rowKeys };
          },
          sweep: () => table.sweepBatch(request.profileId, request.accountId, checkpoint.generation, range),
        };
      },
    }),
  ],
};

const webhookSends: SyncRecipe<RequestOf<'webhook-sends'>> = {
  identify: (request) => {
    const scope = {
      webhookId: request.webhookId,
      objectId: request.objectId,
      status: request.status,
      fromDate: request.fromDate,
      toDate: request.toDate,
    };
    return { key: `webhook-sends/${request.profileId}/${named(scope)}`, scope };
  },
  dateRange: rangeOf,
  lists: [
    listStep<RequestOf<'webhook-sends'>, WebhookSendResponse, string>({
      windowed: windowedByDefault,
      // Send records never change once made: after one complete sync, a page with nothing new
      // means everything older is already here.
      incremental: ({ request, resumed, checkpoint }) =>
        request.full !== true && !resumed && checkpoint.lastSuccessAt !== null,
      source: ({ cache, client, request, now }): ListSource<WebhookSendResponse, string> => {
        const filters = {
          ...(request.webhookId === undefined ? {} : { webhook_id: request.webhookId }),
          ...(request.objectId === undefined ? {} : { object_id: request.objectId }),
          ...(request.status === undefined ? {} : { status: request.status }),
        };
        return {
          range: rangeOf(request),
          pages: (window, options) => client.webhookSendPages(filters, window, options),
          createdDateOf: (send) => send.created_at?.slice(0, 10) ?? null,
          cachedDays: () => cache.creationDays.ofWebhookSends(request.profileId),
          plan: (page, inFlight) => {
            const plan = cache.webhookSends.planPage(request.profileId, page.items, now(), inFlight);
            return { batches: plan.batches, added: plan.added, keys: plan.digests };
          },
        };
      },
    }),
  ],
};

const webhooks: SyncRecipe<RequestOf<'webhooks'>> = {
  identify: (request) => ({ key: `webhooks/${request.profileId}`, scope: {} }),
  dateRange: () => ({}),
  lists: [
    listStep<RequestOf<'webhooks'>, WebhookResponse, true>({
      // A short list without date filters: one cursor.
      windowed: () => false,
      source: ({ cache, client, request }, checkpoint): ListSource<WebhookResponse, true> => ({
        range: {},
        pages: (_window, options) => client.webhookPages(options),
        createdDateOf: (webhook) => webhook.created_at?.slice(0, 10) ?? null,
        cachedDays: () => [],
        plan: (page) => cache.webhooks.planPage(request.profileId, page.items, checkpoint.generation),
        sweep: () => cache.webhooks.sweepBatch(request.profileId, checkpoint.generation),
      }),
    }),
  ],
};

const accountApplication: SyncRecipe<RequestOf<'account-application'>> = {
  identify: (request) => ({
    key: `account-application/${request.profileId}/${request.applicationId}`,
    scope: { applicationId: request.applicationId },
  }),
  dateRange: () => ({}),
  lists: [],
  record: async ({ cache, client, request, key, signal, now }) => {
    // Kept as received when malformed (a status this client does not know), never refused.
    const application = await client.receiveAccountApplication(request.applicationId, signal);
    return cache.transaction(() => {
      const written = cache.accountApplications.record(request.profileId, application, now()) ? 1 : 0;
      cache.checkpoints.advance(request.profileId, 'account-application', key, null, 1, written, now());
      cache.checkpoints.finish(request.profileId, 'account-application', key, 'done', now());
      return written;
    });
  },
  // Opened by id: its people and business too, one by one (a handful of requests).
  then: async ({ cache, client, request, parallelism, signal, now }) => {
    const application = request.applicationId;
    await fetchApplicants({
      cache,
      client,
      profileId: request.profileId,
      applicationId: application,
      parallelism,
      signal,
      now,
    });
  },
};

const applications: SyncRecipe<RequestOf<'applications'>> = {
  identify: (request) => {
    const scope = { status: request.status, fromDate: request.fromDate, toDate: request.toDate };
    return { key: `applications/${request.profileId}/${named(scope)}`, scope };
  },
  dateRange: () => ({}),
  // The applications, then the people, then the businesses, each a walk with its own checkpoint.
  lists: bookWalks,
  // Then the applicants the applications name that no list returned, one by one.
  then: fetchNamed,
};

/** The recipes by kind. */
const SYNC_RECIPES: { readonly [Kind in SyncKind]: SyncRecipe<RequestOf<Kind>> } = {
  'pending-transactions': pendingTransactions,
  'webhook-sends': webhookSends,
  'account-application': accountApplication,
  applications,
  webhooks,
};

export function recipeOf<Request extends SyncRequest>(request: Request): SyncRecipe<Request> {
  return SYNC_RECIPES[request.kind] as unknown as SyncRecipe<Request>;
}
