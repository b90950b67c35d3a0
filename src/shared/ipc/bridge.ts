/**
 * The one bridge builder. Given a way to invoke a channel and a way to listen to one, it
 * builds the domain-shaped API the renderer uses — `ledgerdesk.pendingTransactions.list(…)`,
 * `ledgerdesk.sync.onProgress(…)` — with exactly the methods of the contract and nothing
 * generic. The preload builds it on ipcRenderer; the end-to-end tests on Playwright's
 * exposeBinding; both get the same object.
 */
import type { z } from 'zod';
import {
  type Domain,
  eventChannel,
  events,
  type EventDomain,
  type EventOf,
  type EventPayloadOf,
  type InputOf,
  type MethodOf,
  operationChannel,
  operations,
  type OutputOf,
  subscriberName,
} from './contract.ts';
import { type IpcError, ipcErrorOf, LEDGERDESK_ERROR_NAME, type LedgerdeskError } from './errors.ts';

/** How the bridge reaches main. */
export interface BridgeTransport {
  /** Sends one call; resolves with the router's answer ({ok, value} or {ok, error}). */
  invoke(channel: string, input: unknown): Promise<unknown>;
  /** Listens to an event channel; the listener gets the payload only. Returns an unsubscribe. */
  on(channel: string, listener: (payload: unknown) => void): () => void;
}

type Unsubscribe = () => void;

type MethodFunction<D extends Domain, M extends MethodOf<D>> =
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- "every field optional" test
  {} extends InputOf<D, M>
    ? (input?: InputOf<D, M>) => Promise<OutputOf<D, M>>
    : (input: InputOf<D, M>) => Promise<OutputOf<D, M>>;

type DomainMethods<D extends Domain> = { readonly [M in MethodOf<D>]: MethodFunction<D, M> };

type DomainSubscribers<D extends Domain> = D extends EventDomain
  ? {
      readonly [E in EventOf<D> as `on${Capitalize<E>}`]: (
        listener: (payload: EventPayloadOf<D, E>) => void,
      ) => Unsubscribe;
    }
  : unknown;

/** `window.ledgerdesk`: one object per domain, each method typed from the contract. */
export type LedgerdeskApi = { readonly [D in Domain]: DomainMethods<D> & DomainSubscribers<D> };

/** The input type of a method, for stores and forms: `ApiInput<'webhooks', 'create'>`. */
export type ApiInput<D extends Domain, M extends MethodOf<D>> = InputOf<D, M>;
/** The result type of a method: `ApiOutput<'pendingTransactions', 'list'>`. */
export type ApiOutput<D extends Domain, M extends MethodOf<D>> = OutputOf<D, M>;

function rejection(error: IpcError): Promise<never> {
  const reason: LedgerdeskError = Object.freeze({ name: LEDGERDESK_ERROR_NAME, ...error });
  // A plain object, not an Error: contextBridge copies plain objects whole but keeps only
  // the message of an Error, and the renderer needs the code, action and field.
  // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
  return Promise.reject(reason);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function settle(channel: string, answer: unknown): Promise<unknown> {
  if (isRecord(answer) && answer['ok'] === true && 'value' in answer) return Promise.resolve(answer['value']);
  if (isRecord(answer) && answer['ok'] === false && isRecord(answer['error'])) {
    const error = answer['error'];
    if (typeof error['code'] === 'string' && typeof error['message'] === 'string') {
      return rejection(error as IpcError);
    }
  }
  return rejection(ipcErrorOf('internal', `Ledgerdesk got an unreadable answer to ${channel}.`));
}

function call(transport: BridgeTransport, channel: string, input: unknown): Promise<unknown> {
  let sent: Promise<unknown>;
  try {
    sent = transport.invoke(channel, input ?? {});
  } catch {
    return rejection(ipcErrorOf('internal', `Ledgerdesk could not send ${channel} to its main process.`));
  }
  return sent.then(
    (answer) => settle(channel, answer),
    () =>
      rejection(
        ipcErrorOf('internal', `Ledgerdesk's main process did not answer ${channel}.`, {
          retryable: true,
          action: 'Try again; if it keeps failing, restart Ledgerdesk.',
        }),
      ),
  );
}

function subscribe(transport: BridgeTransport, channel: string, listener: unknown): Unsubscribe {
  if (typeof listener !== 'function') throw new TypeError(`${channel}: the listener must be a function.`);
  const deliver = listener as (payload: unknown) => void;
  // Only the payload is passed on: never an event object, never a second argument.
  const off = transport.on(channel, (payload: unknown) => {
    deliver(payload);
  });
  let subscribed = true;
  return () => {
    if (!subscribed) return;
    subscribed = false;
    off();
  };
}

/** Builds `window.ledgerdesk` from the contract. The result and each domain are frozen. */
export function buildLedgerdeskApi(transport: BridgeTransport): LedgerdeskApi {
  const api: Record<string, Readonly<Record<string, unknown>>> = {};
  for (const [domain, methods] of Object.entries(operations)) {
    const members: Record<string, unknown> = {};
    for (const method of Object.keys(methods)) {
      const channel = operationChannel(domain, method);
      members[method] = (input?: unknown) => call(transport, channel, input);
    }
    const domainEvents: Record<string, z.ZodType> | undefined = (events as Record<string, Record<string, z.ZodType>>)[
      domain
    ];
    for (const event of Object.keys(domainEvents ?? {})) {
      const channel = eventChannel(domain, event);
      members[subscriberName(event)] = (listener: unknown) => subscribe(transport, channel, listener);
    }
    api[domain] = Object.freeze(members);
  }
  return Object.freeze(api) as unknown as LedgerdeskApi;
}
