/** Shared fakes for the IPC tests: a trusted sender, a policy, and handler spies. */
import type { PartialHandlers } from '../../../src/main/ipc/handlerTypes.ts';
import { createRouter, type RouterOptions } from '../../../src/main/ipc/routerCore.ts';
import type { IpcSender, SenderPolicy } from '../../../src/main/ipc/senderPolicy.ts';

export const OWN_WINDOW = 7;
export const APP_ORIGIN = 'app://ledgerdesk';

export const trustedSender: IpcSender = {
  webContentsId: OWN_WINDOW,
  isMainFrame: true,
  frameUrl: `${APP_ORIGIN}/index.html#/pending`,
};

export const policy: SenderPolicy = {
  isOwnWindow: (id) => id === OWN_WINDOW,
  allowedOrigins: [APP_ORIGIN],
};

export function routerWith(handlers: PartialHandlers, extra: Partial<RouterOptions> = {}) {
  const logged: string[] = [];
  const router = createRouter({
    handlers,
    senderPolicy: policy,
    log: (entry) => logged.push(`${entry.level} ${entry.channel}: ${entry.message}`),
    ...extra,
  });
  return { router, logged };
}

/** A valid input of pendingTransactions.list. */
export function listInput(): Record<string, unknown> {
  return { profileId: 'sandbox', accountId: 'acct_11gp75rgzexq6m' };
}
