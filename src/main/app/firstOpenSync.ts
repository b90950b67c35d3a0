/**
 * The first open of the embedded sandbox bank: when it is the profile the app opens on and
 * nothing of it is cached yet, its first account's pending transactions are synced at once, so
 * a newcomer's first screen shows them instead of an empty list and a Sync button. The screen
 * the app opens on (Pending transactions) lists the bank's first account; the running job is
 * what that screen shows as "Syncing pending transactions…" (the page asks sync.status when it
 * connects, so a page opened later still sees the job).
 *
 * Goes through the same handlers the page calls (the router's input already parsed), so it is
 * exactly the sync the Sync button starts. Never throws: a bank out of reach leaves the screen
 * as it was, with its Sync button, and one line in the log.
 */
import { EMBEDDED_SANDBOX_PROFILE_ID } from '../services/profiles/profile.ts';
import type { HandlerContext, Handlers } from '../ipc/handlerTypes.ts';
import type { Logger } from './log.ts';

/** What the first-open sync did: nothing (and why), or the job it started. */
export type FirstOpenSync =
  | { started: false; reason: 'not-embedded' | 'already-cached' | 'no-account' | 'failed' }
  | { started: true; accountId: string; jobId: string };

/** The main process itself: no window asked. */
const SHELL_CONTEXT = (channel: string): HandlerContext => ({ webContentsId: 0, channel });

export async function syncEmbeddedSandboxOnFirstOpen(
  handlers: Pick<Handlers, 'profiles' | 'accounts' | 'sync'>,
  log: Logger,
): Promise<FirstOpenSync> {
  try {
    const { activeProfileId } = await handlers.profiles.list({}, SHELL_CONTEXT('profiles.list'));
    if (activeProfileId !== EMBEDDED_SANDBOX_PROFILE_ID) return { started: false, reason: 'not-embedded' };
    const profileId = EMBEDDED_SANDBOX_PROFILE_ID;
    const cached = await handlers.accounts.cached({ profileId }, SHELL_CONTEXT('accounts.cached'));
    if (cached.accountIds.length > 0) return { started: false, reason: 'already-cached' };
    const accounts = await handlers.accounts.list({ profileId }, SHELL_CONTEXT('accounts.list'));
    const first = accounts.rows[0];
    if (first === undefined) return { started: false, reason: 'no-account' };
    const job = await handlers.sync.start(
      { profileId, job: { kind: 'pendingTransactions', accountId: first.id } },
      SHELL_CONTEXT('sync.start'),
    );
    log.info(`first open of the local sandbox: syncing the pending transactions of account ${first.id}.`);
    return { started: true, accountId: first.id, jobId: job.jobId };
  } catch (error) {
    log.warn(
      `first open of the local sandbox: its pending transactions were not synced (${error instanceof Error ? error.message : String(error)}); the Sync button does it.`,
    );
    return { started: false, reason: 'failed' };
  }
}
