/**
 * The IPC contract: every operation the window can ask of main, as domain → method →
 * { input schema, output schema }, and every event main pushes, as domain → event → payload
 * schema. The router (main), the bridge (preload and end-to-end tests) and the renderer's
 * types are all derived from these two objects; nothing else names a channel.
 */
import type { z } from 'zod';
import { appEvents, appOperations, cacheOperations } from './domains/app.ts';
import { accountApplicationsOperations } from './domains/accountApplications.ts';
import { applicantsOperations } from './domains/applicants.ts';
import { documentPreviewsOperations } from './domains/documentPreviews.ts';
import { auditOperations } from './domains/audit.ts';
import { credentialsEvents, credentialsOperations } from './domains/credentials.ts';
import { cardArtOperations, documentsOperations, filesOperations } from './domains/documents.ts';
import { driftOperations } from './domains/drift.ts';
import { embeddedSandboxOperations } from './domains/embeddedSandbox.ts';
import { exportsOperations } from './domains/exports.ts';
import { listenerEvents, listenerOperations } from './domains/listener.ts';
import { accountsOperations, pendingTransactionsOperations } from './domains/pendingTransactions.ts';
import { overviewOperations } from './domains/overview.ts';
import { profilesOperations } from './domains/profiles.ts';
import { recordOperations } from './domains/record.ts';
import { screeningOperations } from './domains/screening.ts';
import { reviewQueueOperations } from './domains/reviewQueue.ts';
import { reviewsOperations } from './domains/reviews.ts';
import { syncEvents, syncOperations } from './domains/sync.ts';
import { teamOperations } from './domains/team.ts';
import { triggerEvents, triggerOperations } from './domains/trigger.ts';
import { webhooksOperations } from './domains/webhooks.ts';
import { webhookSendsOperations } from './domains/webhookSends.ts';
import { webhookDeliveriesOperations } from './domains/webhookDeliveries.ts';

export interface OperationSchema {
  readonly input: z.ZodType;
  readonly output: z.ZodType;
}

export const operations = {
  app: appOperations,
  profiles: profilesOperations,
  credentials: credentialsOperations,
  accounts: accountsOperations,
  pendingTransactions: pendingTransactionsOperations,
  accountApplications: accountApplicationsOperations,
  applicants: applicantsOperations,
  documentPreviews: documentPreviewsOperations,
  webhooks: webhooksOperations,
  webhookSends: webhookSendsOperations,
  webhookDeliveries: webhookDeliveriesOperations,
  documents: documentsOperations,
  files: filesOperations,
  cardArt: cardArtOperations,
  sync: syncOperations,
  listener: listenerOperations,
  exports: exportsOperations,
  audit: auditOperations,
  cache: cacheOperations,
  record: recordOperations,
  screening: screeningOperations,
  reviews: reviewsOperations,
  reviewQueue: reviewQueueOperations,
  overview: overviewOperations,
  trigger: triggerOperations,
  drift: driftOperations,
  team: teamOperations,
  embeddedSandbox: embeddedSandboxOperations,
} as const satisfies Record<string, Record<string, OperationSchema>>;

export const events = {
  app: appEvents,
  credentials: credentialsEvents,
  sync: syncEvents,
  listener: listenerEvents,
  trigger: triggerEvents,
} as const satisfies { [Domain in keyof typeof operations]?: Record<string, z.ZodType> };

type Operations = typeof operations;
type Events = typeof events;
export type Domain = keyof Operations;
export type MethodOf<D extends Domain> = keyof Operations[D] & string;
export type EventDomain = keyof Events;
export type EventOf<D extends EventDomain> = keyof Events[D] & string;

type OperationAt<D extends Domain, M extends MethodOf<D>> = Operations[D][M] extends OperationSchema
  ? Operations[D][M]
  : never;

/** What the renderer passes (defaults still optional). */
export type InputOf<D extends Domain, M extends MethodOf<D>> = z.input<OperationAt<D, M>['input']>;
/** What a handler receives: validated, defaults applied. */
export type ParsedInputOf<D extends Domain, M extends MethodOf<D>> = z.output<OperationAt<D, M>['input']>;
/** What the renderer receives. */
export type OutputOf<D extends Domain, M extends MethodOf<D>> = z.output<OperationAt<D, M>['output']>;
/** What a handler may return (the router validates it against the output schema). */
export type HandlerOutputOf<D extends Domain, M extends MethodOf<D>> = z.input<OperationAt<D, M>['output']>;
export type EventPayloadOf<D extends EventDomain, E extends EventOf<D>> = Events[D][E] extends z.ZodType
  ? z.output<Events[D][E]>
  : never;

/** The IPC channel of an operation, e.g. `pendingTransactions.list`. */
export function operationChannel(domain: string, method: string): string {
  return `${domain}.${method}`;
}

/** The IPC channel of an event, e.g. `event:sync.progress`. */
export function eventChannel(domain: string, event: string): string {
  return `event:${domain}.${event}`;
}

/** The bridge's method name for subscribing to an event: progress → onProgress. */
export function subscriberName(event: string): string {
  return 'on' + event.charAt(0).toUpperCase() + event.slice(1);
}

export interface OperationEntry {
  readonly domain: string;
  readonly method: string;
  readonly channel: string;
  readonly input: z.ZodType;
  readonly output: z.ZodType;
}

export interface EventEntry {
  readonly domain: string;
  readonly event: string;
  readonly channel: string;
  readonly payload: z.ZodType;
}

function operationEntries(): OperationEntry[] {
  return Object.entries(operations).flatMap(([domain, methods]) =>
    Object.entries(methods as Record<string, OperationSchema>).map(([method, schema]) => ({
      domain,
      method,
      channel: operationChannel(domain, method),
      input: schema.input,
      output: schema.output,
    })),
  );
}

function eventEntries(): EventEntry[] {
  return Object.entries(events).flatMap(([domain, domainEvents]) =>
    Object.entries(domainEvents as Record<string, z.ZodType>).map(([event, payload]) => ({
      domain,
      event,
      channel: eventChannel(domain, event),
      payload,
    })),
  );
}

/** Every operation by channel. A Map, so `__proto__` or `toString` never resolve to anything. */
export const OPERATIONS_BY_CHANNEL: ReadonlyMap<string, OperationEntry> = new Map(
  operationEntries().map((entry) => [entry.channel, entry]),
);

/** Every event by channel. */
export const EVENTS_BY_CHANNEL: ReadonlyMap<string, EventEntry> = new Map(
  eventEntries().map((entry) => [entry.channel, entry]),
);
