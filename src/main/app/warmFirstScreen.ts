/**
 * The first screen's own calls, made once by web mode itself right after its services are up,
 * while the browser it printed the address for is still launching and loading the page (issue
 * 36, item 5). Each channel's schemas (zod builds an object schema's fast path on its first
 * parse), the secret scrubber and the cache's prepared statements cost the first call of each
 * kind: measured at about 70 ms of the server's thread once the page's socket opened, between
 * its frame and its first rows. Made here, in time the server is otherwise idle, the page's own
 * calls find them built. Only reads, only the embedded sandbox's cache (no bank call: accounts.list
 * is the page's own), the answers dropped; a failure is nobody's business but the page's own
 * calls, which say it, so it is ignored here.
 *
 * Through a router of its own, over the same handlers and the same contract schemas, whose only
 * trusted sender is this module's: no socket, window or page can reach it.
 */
import { createRouter, type Router } from '../ipc/routerCore.ts';
import type { IpcSender } from '../ipc/senderPolicy.ts';
import type { Handlers } from '../ipc/handlerTypes.ts';
import type { IpcResult } from '../../shared/ipc/errors.ts';
import { EMBEDDED_SANDBOX_PROFILE_ID } from '../services/profiles/profile.ts';

/** Never a real window's id (Electron's start at 1) nor a web socket's (webConnections.ts counts up from 1). */
const WARM_SENDER_ID = -36;
const WARM_ORIGIN = 'ledgerdesk-warm://first-screen';
const SENDER: IpcSender = { webContentsId: WARM_SENDER_ID, isMainFrame: true, frameUrl: `${WARM_ORIGIN}/` };

/** The first screen's calls in the order the page makes them (Pending transactions, page of 200). */
const FIRST_ROWS_LIMIT = 200;

function firstScreenRouter(handlers: Handlers, knownSecrets: () => Iterable<string>): Router {
  return createRouter({
    handlers,
    senderPolicy: { isOwnWindow: (id) => id === WARM_SENDER_ID, allowedOrigins: [WARM_ORIGIN] },
    knownSecrets,
  });
}

export async function warmFirstScreen(handlers: Handlers, knownSecrets: () => Iterable<string>): Promise<void> {
  const router = firstScreenRouter(handlers, knownSecrets);
  const call = (channel: string, input: unknown): Promise<IpcResult | null> =>
    router.dispatch(SENDER, channel, input).catch(() => null);
  const profileId = EMBEDDED_SANDBOX_PROFILE_ID;
  await call('app.storeProblems', {});
  await call('profiles.list', {});
  await call('sync.status', {});
  await call('app.onlineStatus', { profileId });
  const cached = await call('accounts.cached', { profileId });
  const accountIds = cached?.ok === true ? (cached.value as { accountIds?: unknown }).accountIds : undefined;
  const accountId = Array.isArray(accountIds) && typeof accountIds[0] === 'string' ? accountIds[0] : null;
  if (accountId === null) return;
  await call('pendingTransactions.list', { profileId, accountId, limit: FIRST_ROWS_LIMIT });
  await call('pendingTransactions.count', { profileId, accountId });
  await call('pendingTransactions.count', { profileId, accountId, review: 'unreviewed' });
}
