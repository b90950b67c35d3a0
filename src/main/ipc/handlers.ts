/**
 * createHandlers(services): every operation of the contract, wired to the services. Each
 * handler's failures are translated from the services' error classes to the contract's
 * codes (serviceErrors.ts); the router does the rest (validation, error shape, scrubbing).
 */
import { createApplicantHandlers } from './applicantHandlers.ts';
import { createDocumentPreviewHandlers } from './documentPreviewHandlers.ts';
import { createDriftHandlers } from './driftHandlers.ts';
import { createRecordHandlers } from './recordHandlers.ts';
import { createScreeningHandlers } from './screeningHandlers.ts';
import type { Handlers } from './handlerTypes.ts';
import { createLedgerHandlers, type LedgerHandlerServices } from './ledgerHandlers.ts';
import { createListenerHandlers, type ListenerHandlerServices } from './listenerHandlers.ts';
import { createReviewHandlers, type ReviewHandlerServices } from './reviewHandlers.ts';
import { createOverviewHandlers } from './overviewHandlers.ts';
import { createReviewQueueHandlers } from './reviewQueueHandlers.ts';
import { createSandboxHandlers, type SandboxHandlerServices } from './sandboxHandlers.ts';
import { translateServiceError } from './serviceErrors.ts';
import { createTeamHandlers, type TeamHandlerServices } from './teamHandlers.ts';
import { createTriggerHandlers } from './triggerHandlers.ts';
import { createWebhookDeliveryHandlers } from './webhookDeliveryHandlers.ts';
import { withRegistrationsCached } from './listenerWebhookCache.ts';
import { createListenerReach } from './listenerReachHandlers.ts';

export type HandlerServices = LedgerHandlerServices &
  ListenerHandlerServices &
  ReviewHandlerServices &
  TeamHandlerServices &
  SandboxHandlerServices;

type AnyHandler = (input: unknown, context: unknown) => unknown;

function withTranslatedErrors(handlers: Handlers): Handlers {
  const wrapped: Record<string, Record<string, AnyHandler>> = {};
  for (const [domain, methods] of Object.entries(handlers as unknown as Record<string, Record<string, AnyHandler>>)) {
    const domainHandlers: Record<string, AnyHandler> = {};
    for (const [method, handler] of Object.entries(methods)) {
      domainHandlers[method] = async (input, context) => {
        try {
          return await handler(input, context);
        } catch (error) {
          throw translateServiceError(error);
        }
      };
    }
    wrapped[domain] = domainHandlers;
  }
  return wrapped as unknown as Handlers;
}

export function createHandlers(services: HandlerServices): Handlers {
  const ledger = createLedgerHandlers(services);
  const listener = createListenerHandlers(services);
  return withTranslatedErrors({
    ...ledger,
    listener: withRegistrationsCached({ ...listener.listener, reach: createListenerReach(services) }, services),
    reviews: createReviewHandlers(services).reviews,
    ...createReviewQueueHandlers(services),
    ...createOverviewHandlers(services),
    exports: { ...ledger.exports, listenerRequests: listener.exports.listenerRequests },
    ...createTriggerHandlers(services),
    ...createDriftHandlers(services),
    ...createRecordHandlers(services),
    ...createScreeningHandlers(services),
    ...createApplicantHandlers(services),
    ...createDocumentPreviewHandlers(services),
    ...createTeamHandlers(services),
    ...createSandboxHandlers(services),
    ...createWebhookDeliveryHandlers(services),
  });
}
