/**
 * The bank-facing domains of the contract, each answered by its own file (profiles,
 * credentials, the cache reads, the writes, sync, exports, the audit log and the app). Each
 * adapts the contract's input to a service call and the service's answer to the contract's
 * output; the router validates both sides. Where the services do not offer something yet,
 * the handler says so with `not_available` rather than pretending.
 */
import { createAccountApplicationHandlers } from './accountApplicationHandlers.ts';
import { createAccountHandlers } from './accountHandlers.ts';
import { createAppHandlers } from './appHandlers.ts';
import { createAuditHandlers } from './auditHandlers.ts';
import { createCacheHandlers } from './cacheHandlers.ts';
import { createCredentialHandlers } from './credentialHandlers.ts';
import { createExportHandlers } from './exportHandlers.ts';
import type { Handlers } from './handlerTypes.ts';
import type { LedgerHandlerServices } from './ledgerAccess.ts';
import { createPendingTransactionHandlers } from './pendingTransactionHandlers.ts';
import { createProfileHandlers } from './profileHandlers.ts';
import { createSyncHandlers } from './syncHandlers.ts';
import { createUploadHandlers } from './uploadHandlers.ts';
import { createWebhookHandlers } from './webhookHandlers.ts';
import { createWebhookSendHandlers } from './webhookSendHandlers.ts';

export type { LedgerHandlerServices } from './ledgerAccess.ts';

type LedgerDomains =
  | 'app'
  | 'profiles'
  | 'credentials'
  | 'accounts'
  | 'pendingTransactions'
  | 'accountApplications'
  | 'webhooks'
  | 'webhookSends'
  | 'documents'
  | 'files'
  | 'cardArt'
  | 'sync'
  | 'exports'
  | 'audit'
  | 'cache';

export type LedgerHandlers = Pick<Handlers, LedgerDomains>;

export function createLedgerHandlers(services: LedgerHandlerServices): LedgerHandlers {
  return {
    ...createAppHandlers(services),
    ...createProfileHandlers(services),
    ...createCredentialHandlers(services),
    ...createAccountHandlers(services),
    ...createPendingTransactionHandlers(services),
    ...createAccountApplicationHandlers(services),
    ...createWebhookHandlers(services),
    ...createWebhookSendHandlers(services),
    ...createUploadHandlers(services),
    ...createSyncHandlers(services),
    ...createExportHandlers(services),
    ...createAuditHandlers(services),
    ...createCacheHandlers(services),
  };
}
