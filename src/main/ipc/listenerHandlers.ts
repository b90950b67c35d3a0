/**
 * Handlers of the listener domain, wired to the webhook listener (src/main/services/listener).
 * The contract speaks of string ids, cursors and a rule shape of its own; the listener of
 * numeric ids, `beforeId` paging and its own rule shape. This file translates both ways.
 */
import type {
  ForwardResult,
  ListenerConfig,
  ListenerRequestDetail,
  ListenerRequestSummary,
  ListenerRule,
  ListenerStatus,
  ReconciliationCategory,
  ReconciliationRow,
} from '../../shared/ipc/domains/listener.ts';
import { registeredEventsOf } from '../../shared/ipc/domains/listener.ts';
import type { WebhookResponse, WebhookSendResponse } from '../../shared/bank/index.ts';
import type { BankPort } from '../services/listener/bankPort.ts';
import type { Listener } from '../services/listener/listener.ts';
import { allowListEntry, isLoopbackHost } from '../services/listener/outboundTargets.ts';
import type { Delivery, ReceivedRequestSummary, RequestFilter } from '../services/listener/receivedRequest.ts';
import type { ResponseRule } from '../services/listener/responseRules.ts';
import type { ArrivalLabel } from '../services/listener/retryLabels.ts';
import type { ReconciledPair } from '../services/listener/reconcile.ts';
import type { Handlers, HandlerContext } from './handlerTypes.ts';
import { IpcFailure } from './serviceErrors.ts';
import { ImportFileError } from '../services/listener/trafficImport.ts';
import { suggestTunnel } from '../services/listener/ngrokAgent.ts';

export interface ListenerHandlerServices {
  /** Null when the listener could not open (the reason is `listenerProblem`). */
  listener: Listener | null;
  listenerProblem: string | null;
  /** The bank of a profile, as the listener needs it (hydration, reconcile, register). */
  bankPortFor(profileId: string): Promise<BankPort>;
  /** Writes the listener's export lines to a file the user chooses. */
  saveLines(
    defaultName: string,
    lines: Iterable<string>,
  ): Promise<{ saved: boolean; path: string | null; rows: number }>;
  /** Profile guard: throws when a write on a Production profile is not confirmed. */
  requireConfirmation(profileId: string, action: string, confirmed: boolean | undefined): Promise<void>;
  /** Asks the user in the main process (a native dialog in the app): the renderer cannot answer it. */
  confirm(question: ConfirmQuestion): Promise<boolean>;
  /** Where ngrok's local agent API answers (its default, 127.0.0.1:4040, unless a test says otherwise). */
  ngrokAgentUrl?: string;
  /**
   * Writes an entry to the audit log (N13, issue 23): registrations at the bank and every change
   * of what the listener accepts or where it sends. Never a secret's value.
   */
  audit(entry: ListenerAuditEntry): void;
}

/** An audit entry of the listener: `profileId` null for its own settings. */
export interface ListenerAuditEntry {
  profileId: string | null;
  action: string;
  target: string;
  result: 'ok' | 'failed' | 'refused';
  detail?: string | null;
}

/** What a main-process confirmation shows. */
export interface ConfirmQuestion {
  title: string;
  message: string;
  detail: string;
  /** The label of the button that says yes; the default button is always the one that says no. */
  confirmLabel: string;
}

/** Every listener operation but `reach`, which also reads the cache (listenerReachHandlers.ts). */
export type ListenerHandlers = { listener: Omit<Handlers['listener'], 'reach'> } & {
  exports: Pick<Handlers['exports'], 'listenerRequests'>;
};

function numericId(id: string, field: string): number {
  const value = Number(id);
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new IpcFailure('not_found', `There is no kept request ${id}.`, { field });
  }
  return value;
}

export function toRequestSummary(
  summary: ReceivedRequestSummary,
  forwardStatus: number | null = null,
  label: ArrivalLabel | null = summary.label ?? null,
): ListenerRequestSummary {
  return {
    id: String(summary.id),
    receivedAt: summary.receivedAt,
    method: summary.method,
    path: summary.path,
    verdict: summary.verdict,
    event: summary.event,
    objectId: summary.objectId,
    status: summary.status,
    durationMs: summary.durationMs,
    bodyBytes: summary.bodyBytes,
    outOfOrder: summary.outOfOrder,
    forwardStatus,
    label,
  };
}

function toForward(delivery: Delivery): ForwardResult {
  return {
    url: delivery.url,
    status: delivery.status,
    latencyMs: delivery.durationMs,
    bodyExcerpt: delivery.excerpt,
    error: delivery.error,
    at: delivery.startedAt,
  };
}

function toContractRule(rule: ResponseRule): ListenerRule {
  const match = {
    ...(rule.event === undefined ? {} : { event: rule.event }),
    ...(rule.path === undefined ? {} : { pathPrefix: rule.path.endsWith('*') ? rule.path.slice(0, -1) : rule.path }),
  };
  const action = rule.action;
  const response: ListenerRule['response'] =
    action.kind === 'status'
      ? action.delayMs === undefined || action.delayMs === 0
        ? { kind: 'status', status: action.status }
        : { kind: 'delay', delayMs: action.delayMs, status: action.status }
      : action.kind === 'delay'
        ? { kind: 'delay', delayMs: action.delayMs, status: action.status ?? 200 }
        : action.kind === 'no_answer'
          ? { kind: 'timeout' }
          : action.kind === 'drop'
            ? { kind: 'drop' }
            : {
                kind: 'failTimes',
                times: action.times,
                status: action.status ?? 500,
                thenStatus: action.thenStatus ?? 200,
              };
  return { id: rule.id, name: null, enabled: rule.enabled ?? true, match, response };
}

function filterOf(input: {
  verdict?: ListenerRequestSummary['verdict'] | undefined;
  event?: string | undefined;
  objectId?: string | undefined;
  pathPrefix?: string | undefined;
  duplicatesOnly?: boolean | undefined;
  search?: string | undefined;
}): RequestFilter {
  return {
    ...(input.verdict === undefined ? {} : { verdict: input.verdict }),
    ...(input.event === undefined ? {} : { event: input.event }),
    ...(input.objectId === undefined ? {} : { objectId: input.objectId }),
    ...(input.pathPrefix === undefined || input.pathPrefix === '' ? {} : { pathPrefix: input.pathPrefix }),
    ...(input.duplicatesOnly === true ? { duplicatesOnly: true } : {}),
    ...(input.search === undefined || input.search.trim() === '' ? {} : { search: input.search.trim() }),
  };
}

function sendRow(
  category: ReconciliationCategory,
  send: WebhookSendResponse,
  request: ReceivedRequestSummary | null,
): ReconciliationRow {
  return {
    category,
    event: send.event ?? request?.event ?? null,
    objectId: send.object_id ?? '',
    webhookId: send.webhook_id ?? null,
    webhookSendId: send.id,
    listenerRequestId: request === null ? null : String(request.id),
    attemptNumber: send.attempt_number ?? null,
    willRetry: send.will_retry ?? null,
    sendStatus: send.status ?? null,
    receivedAt: request?.receivedAt ?? null,
    verdict: request?.verdict ?? null,
  };
}

/** A request that did not verify: shown apart, joined with no send record. */
function unverifiedRow(request: ReceivedRequestSummary): ReconciliationRow {
  return {
    category: 'receivedUnverified',
    event: request.event,
    objectId: request.objectId ?? '',
    webhookId: null,
    webhookSendId: null,
    listenerRequestId: String(request.id),
    attemptNumber: null,
    willRetry: null,
    sendStatus: null,
    receivedAt: request.receivedAt,
    verdict: request.verdict,
  };
}

/**
 * The listener's status as the contract says it: what `listener.status` answers and what the
 * `listener.onStatus` event pushes, built in one place so a push never blanks what an answer said.
 */
export function listenerStatusOf(current: Listener): ListenerStatus {
  const state = current.state;
  const settings = current.settings;
  return {
    running: state.running,
    url: state.url,
    host: state.host ?? settings.host,
    port: state.port ?? settings.port,
    startedAt: state.startedAt,
    requestsKept: current.stats().requests,
    warning:
      state.running && state.host !== null && state.host !== '127.0.0.1' && state.host !== '::1'
        ? `Listening on ${state.host}: anyone who can reach this address can post to the listener.`
        : null,
  };
}

export function createListenerHandlers(services: ListenerHandlerServices): ListenerHandlers {
  function listener(): Listener {
    if (services.listener === null) {
      throw new IpcFailure('not_available', services.listenerProblem ?? 'The webhook listener is not running.');
    }
    return services.listener;
  }

  function status(): ListenerStatus {
    return listenerStatusOf(listener());
  }

  function config(): ListenerConfig {
    const current = listener();
    const settings = current.settings;
    return {
      host: settings.host,
      port: settings.port,
      expectedBasicUser: settings.basicUser,
      expectedBasicSecretSet: current.credentialsConfigured,
      rejectUnauthenticated: settings.rejectUnverified,
      forwardTo: settings.forwardTo,
      forwardAppendPath: settings.forwardAppendPath,
      forwardUnverified: settings.forwardUnverified,
      allowedTargets: settings.allowedTargets,
      publicUrl: settings.publicUrl,
      tls: settings.tls,
      retention: {
        maxRequests: settings.retention.maxRequests,
        maxAgeDays: Math.max(1, Math.round(settings.retention.maxAgeDays)),
        maxBodyBytes: settings.maxBodyBytes,
      },
    };
  }

  async function connectBank(profileId: string): Promise<void> {
    listener().setBank(await services.bankPortFor(profileId));
  }

  function reconciliationRows(
    category: ReconciliationCategory,
    pairs: { pairs?: ReconciledPair[]; sends?: WebhookSendResponse[] },
  ): ReconciliationRow[] {
    if (pairs.pairs !== undefined) return pairs.pairs.map((pair) => sendRow(category, pair.send, pair.request));
    return (pairs.sends ?? []).map((send) => sendRow(category, send, null));
  }

  return {
    listener: {
      status: () => status(),
      start: async ({ port }) => {
        await listener().start(port === undefined ? {} : { port });
        return status();
      },
      stop: async () => {
        await listener().stop();
        return status();
      },
      getConfig: () => config(),
      suggestPublicUrl: () => {
        const current = listener();
        return suggestTunnel(current.state.port ?? current.settings.port, {
          ...(services.ngrokAgentUrl === undefined ? {} : { agentUrl: services.ngrokAgentUrl }),
        });
      },
      configure: async (input) => {
        const current = listener();
        const retention = input.retention;
        const changes = configureChanges(input);
        try {
          current.configure({
            ...(input.host === undefined ? {} : { host: input.host }),
            ...(input.allowNonLoopback === undefined ? {} : { allowNonLoopback: input.allowNonLoopback }),
            ...(input.port === undefined ? {} : { port: input.port }),
            ...(input.rejectUnauthenticated === undefined ? {} : { rejectUnverified: input.rejectUnauthenticated }),
            ...(input.forwardTo === undefined ? {} : { forwardTo: input.forwardTo }),
            ...(input.forwardAppendPath === undefined ? {} : { forwardAppendPath: input.forwardAppendPath }),
            ...(input.forwardUnverified === undefined ? {} : { forwardUnverified: input.forwardUnverified }),
            ...(input.publicUrl === undefined ? {} : { publicUrl: input.publicUrl }),
            ...(input.tlsCertFile === undefined || input.tlsKeyFile === undefined
              ? {}
              : {
                  tls:
                    input.tlsCertFile === null || input.tlsKeyFile === null
                      ? null
                      : { certFile: input.tlsCertFile, keyFile: input.tlsKeyFile },
                }),
            ...(retention?.maxBodyBytes === undefined ? {} : { maxBodyBytes: retention.maxBodyBytes }),
            ...(retention === undefined
              ? {}
              : {
                  retention: {
                    ...(retention.maxRequests === undefined ? {} : { maxRequests: retention.maxRequests }),
                    ...(retention.maxAgeDays === undefined ? {} : { maxAgeDays: retention.maxAgeDays ?? 3650 }),
                  },
                }),
          });
        } catch (error) {
          // A forward address off the allow-list: said beside the field, with what to do.
          if (error instanceof Error && error.name === 'ZodError' && input.publicUrl !== undefined) {
            const issue = (error as Error & { issues?: { path?: unknown[]; message?: string }[] }).issues?.[0];
            if (issue?.path?.[0] === 'publicUrl') {
              throw new IpcFailure('invalid_input', `publicUrl: ${issue.message ?? 'is not valid'}`, {
                field: 'publicUrl',
              });
            }
          }
          if (error instanceof Error && error.name === 'TargetRefused') {
            services.audit({
              profileId: null,
              action: 'listener.configure',
              target: 'listener',
              result: 'refused',
              detail: `${changes}: ${error.message}`,
            });
            throw new IpcFailure('invalid_input', error.message, { field: 'forwardTo' });
          }
          throw error;
        }
        if (input.expectedBasicUser === null || input.expectedBasicSecret === null) {
          await current.clearCredentials();
        } else if (input.expectedBasicUser !== undefined || input.expectedBasicSecret !== undefined) {
          const user = input.expectedBasicUser ?? current.settings.basicUser;
          if (user === null || input.expectedBasicSecret === undefined) {
            throw new IpcFailure('invalid_input', 'Give the expected Basic user and its secret together.', {
              field: user === null ? 'expectedBasicUser' : 'expectedBasicSecret',
            });
          }
          await current.setCredentials(user, input.expectedBasicSecret);
        }
        if (changes !== '') {
          services.audit({
            profileId: null,
            action: 'listener.configure',
            target: 'listener',
            result: 'ok',
            detail: changes,
          });
        }
        return config();
      },
      listRules: () => ({ rules: listener().rules.map(toContractRule) }),
      setRules: ({ rules }) => {
        const translated: ResponseRule[] = rules.map((rule, index) => {
          const response = rule.response;
          const action: ResponseRule['action'] =
            response.kind === 'status'
              ? { kind: 'status', status: response.status }
              : response.kind === 'delay'
                ? { kind: 'delay', delayMs: response.delayMs, status: response.status }
                : response.kind === 'timeout'
                  ? { kind: 'no_answer' }
                  : response.kind === 'drop'
                    ? { kind: 'drop' }
                    : {
                        kind: 'fail_times',
                        times: response.times,
                        status: response.status,
                        ...(response.thenStatus === 200 ? {} : { thenStatus: response.thenStatus }),
                      };
          return {
            id: rule.id ?? `rule-${index + 1}`,
            ...(rule.match.event === undefined ? {} : { event: rule.match.event }),
            ...(rule.match.pathPrefix === undefined ? {} : { path: `${rule.match.pathPrefix}*` }),
            action,
            enabled: rule.enabled,
          };
        });
        return { rules: listener().setRules(translated).map(toContractRule) };
      },
      listRequests: (input) => {
        const current = listener();
        const filter = filterOf(input);
        const beforeId = input.cursor === undefined ? undefined : numericId(input.cursor, 'cursor');
        const page = current.requests({
          ...filter,
          ...(beforeId === undefined ? {} : { beforeId }),
          limit: input.limit,
        });
        const last = page.at(-1);
        // Asked apart, not as limit + 1: the log caps a page at the contract's largest limit,
        // so a page of 1000 asked as 1001 would never say there is more.
        const more =
          last !== undefined &&
          page.length === input.limit &&
          current.requests({ ...filter, beforeId: last.id, limit: 1 }).length > 0;
        return {
          rows: page.map((row) => toRequestSummary(row, null, listener().labelOf(row.id))),
          nextCursor: more ? String(last.id) : null,
          asOf: new Date().toISOString(),
          source: 'cache' as const,
        };
      },
      countRequests: (input) => ({ count: listener().count(filterOf(input)), asOf: new Date().toISOString() }),
      getRequest: ({ id }) => {
        const current = listener();
        const request = current.request(numericId(id, 'id'));
        if (request === null)
          throw new IpcFailure('not_found', `Request ${id} is not kept (any more).`, { field: 'id' });
        const deliveries = current.deliveries(request.id).filter((delivery) => delivery.kind === 'forward');
        // Joined in a Map: a sender's header named `constructor` or `toString` must not meet
        // Object.prototype's (review L14).
        const joined = new Map<string, string>();
        for (const [name, value] of request.headers) {
          const key = name.toLowerCase();
          const shown = key === 'authorization' ? '[redacted]' : value;
          const earlier = joined.get(key);
          joined.set(key, earlier === undefined ? shown : `${earlier}, ${shown}`);
        }
        const headers: Record<string, string> = Object.fromEntries(joined);
        const snapshot = request.snapshot;
        const detail: ListenerRequestDetail = {
          ...toRequestSummary(request, deliveries.at(-1)?.status ?? null, listener().labelOf(request.id)),
          headers,
          body: request.bodyText,
          bodyTruncated: request.bodyTruncated,
          notification: request.notification,
          notificationProblems: request.bodyProblem === null ? [] : [request.bodyProblem],
          ruleId: request.ruleId,
          hydrated:
            request.snapshotAt === null && request.snapshotError === null
              ? null
              : {
                  fetchedAt: request.snapshotAt ?? new Date().toISOString(),
                  object:
                    typeof snapshot === 'object' && snapshot !== null && !Array.isArray(snapshot)
                      ? (snapshot as Record<string, unknown>)
                      : null,
                  error: request.snapshotError,
                },
          forwards: deliveries.map(toForward),
        };
        return detail;
      },
      clearRequests: () => ({ removed: listener().clearRequests() }),
      importRequests: ({ fileName, text }) => {
        let result;
        try {
          result = listener().importTraffic(text);
        } catch (error) {
          if (error instanceof ImportFileError) {
            services.audit({
              profileId: null,
              action: 'listener.import',
              target: fileName,
              result: 'refused',
              detail: error.message,
            });
            throw new IpcFailure('invalid_input', `${fileName}: ${error.message}`, { field: 'text' });
          }
          throw error;
        }
        services.audit({
          profileId: null,
          action: 'listener.import',
          target: fileName,
          result: 'ok',
          detail: `${String(result.imported)} imported, ${String(result.alreadyKept)} already kept`,
        });
        return result;
      },
      allowTarget: async ({ url }) => {
        const current = listener();
        let origin: string;
        try {
          origin = allowListEntry(url);
        } catch (error) {
          throw new IpcFailure('invalid_input', error instanceof Error ? error.message : String(error), {
            field: 'url',
          });
        }
        if (!current.allowedTargets.includes(origin) && !isLoopbackHost(new URL(origin).hostname)) {
          const allowed = await services.confirm({
            title: 'Allow the listener to send to another host?',
            message: `Let forwards and replays reach ${origin}?`,
            detail:
              `Kept notifications (their bodies and headers, never the bank's Authorization header or the listener's ` +
              `secret) can then be sent to ${origin}, and the start of its answers is shown in Ledgerdesk. ` +
              'Allow it only if it is your own handler. You can remove it in Settings → Listener defaults.',
            confirmLabel: `Allow ${new URL(origin).host}`,
          });
          if (!allowed) {
            services.audit({
              profileId: null,
              action: 'listener.allow-target',
              target: origin,
              result: 'refused',
              detail: 'declined in the main-process dialog',
            });
            throw new IpcFailure('cancelled', `Not allowed: you declined to let the listener send to ${origin}.`);
          }
        }
        current.allowTarget(origin);
        services.audit({ profileId: null, action: 'listener.allow-target', target: origin, result: 'ok' });
        return { origin, allowedTargets: current.allowedTargets };
      },
      forgetTarget: ({ origin }) => {
        const current = listener();
        const removed = current.forgetTarget(origin);
        if (removed)
          services.audit({ profileId: null, action: 'listener.forget-target', target: origin, result: 'ok' });
        return { removed, allowedTargets: current.allowedTargets };
      },
      replay: async (input) => {
        const current = listener();
        const credentials = input.applyBasicAuth ? current.replayCredentialsFor(input.targetUrl) : null;
        if (input.applyBasicAuth && credentials === null) {
          throw new IpcFailure(
            'invalid_input',
            !current.isListenerUrl(input.targetUrl)
              ? 'The listener’s own credentials are sent only to the listener itself: replay without them.'
              : 'Set the listener’s expected Basic credentials first (or replay to a registered webhook’s path).',
            { field: 'applyBasicAuth' },
          );
        }
        const deliveries = await current.replay({
          ...(input.requestIds === undefined
            ? {}
            : { requestIds: input.requestIds.map((id) => numericId(id, 'requestIds')) }),
          ...(input.filter === undefined ? {} : { filter: filterOf(input.filter) }),
          url: input.targetUrl,
          ...(credentials === null ? {} : { basicAuth: credentials }),
          ...(input.edit === undefined
            ? {}
            : {
                edit: {
                  ...(input.edit.headers === undefined ? {} : { headers: input.edit.headers }),
                  ...(input.edit.body === undefined ? {} : { body: input.edit.body }),
                },
              }),
        });
        return {
          results: deliveries.map((delivery) => ({
            requestId: String(delivery.requestId),
            status: delivery.status,
            latencyMs: delivery.durationMs,
            bodyExcerpt: delivery.excerpt,
            error: delivery.error,
          })),
        };
      },
      forward: async ({ requestId, url, appendPath }) =>
        toForward(await listener().forward(numericId(requestId, 'requestId'), url, appendPath)),
      reconcile: async (input) => {
        const since = input.fromDate === undefined ? undefined : Date.parse(`${input.fromDate}T00:00:00.000Z`);
        const until = input.toDate === undefined ? undefined : Date.parse(`${input.toDate}T00:00:00.000Z`);
        if (since !== undefined && until !== undefined && until <= since) {
          throw new IpcFailure('invalid_input', 'toDate: must be after fromDate (the range ends before toDate).', {
            field: 'toDate',
          });
        }
        await connectBank(input.profileId);
        const range = { ...(since === undefined ? {} : { since }), ...(until === undefined ? {} : { until }) };
        // No webhook named: every webhook registered with this listener.
        const result =
          input.webhookId === undefined
            ? await listener().reconcileRegistrations(range)
            : await listener().reconcile({ webhookId: input.webhookId, ...range });
        const all = [
          ...reconciliationRows('sentAndReceived', { pairs: result.sentAndReceived }),
          ...reconciliationRows('sentNotReceived', { sends: result.sentButNeverReceived }),
          ...reconciliationRows('receivedButFailed', { pairs: result.receivedButFailed }),
          ...reconciliationRows('stillRetrying', { sends: result.stillRetrying }),
          ...result.receivedUnverified.map(unverifiedRow),
        ].filter((row) => input.category === undefined || row.category === input.category);
        const offset = input.cursor === undefined ? 0 : Number(input.cursor);
        if (!Number.isSafeInteger(offset) || offset < 0) {
          throw new IpcFailure('invalid_input', 'cursor: is not a cursor of this list.', { field: 'cursor' });
        }
        const rows = all.slice(offset, offset + input.limit);
        return {
          counts: {
            sentAndReceived: result.counts.sentAndReceived,
            sentNotReceived: result.counts.sentButNeverReceived,
            receivedButFailed: result.counts.receivedButFailed,
            stillRetrying: result.counts.stillRetrying,
            receivedUnverified: result.counts.receivedUnverified,
          },
          rows,
          nextCursor: offset + input.limit < all.length ? String(offset + input.limit) : null,
          asOf: new Date().toISOString(),
        };
      },
      register: async (input, _context: HandlerContext) => {
        const { profileId, confirmProduction } = input;
        const events = registeredEventsOf(input);
        await services.requireConfirmation(profileId, 'listener.register', confirmProduction);
        await connectBank(profileId);
        // One webhook per event, as the bank models them; each audited on its own. A refusal
        // does not undo those already made: the answer names both.
        const webhooks: WebhookResponse[] = [];
        const failed: { event: string; message: string; error: unknown }[] = [];
        for (const event of events) {
          try {
            const registration = await auditedAtBank(services, profileId, 'webhook.register', event, () =>
              listener().register({ event, ...(input.allowHttp === true ? { allowHttp: true } : {}) }),
            );
            webhooks.push(webhookOfRegistration(registration));
          } catch (error) {
            failed.push({ event, message: error instanceof Error ? error.message : String(error), error });
          }
        }
        const first = webhooks[0];
        if (first === undefined) {
          // Every one refused: the first refusal is the answer, as for a single event.
          const refusal = failed[0]?.error;
          if (refusal instanceof Error) throw refusal;
          throw new IpcFailure('invalid_input', failed[0]?.message ?? 'No event was given.', { field: 'events' });
        }
        return {
          webhook: first,
          webhooks,
          failed: failed.map(({ event, message }) => ({ event, message })),
          listenerUrl: first.url ?? '',
        };
      },
      registrations: () => ({
        registrations: listener().registrations.map(({ webhookId, event, url, path, basicUser, createdAt }) => ({
          webhookId,
          event,
          url,
          path,
          basicUser,
          createdAt,
        })),
      }),
      unregister: async ({ profileId, webhookId, confirmProduction }) => {
        await services.requireConfirmation(profileId, 'listener.unregister', confirmProduction);
        await connectBank(profileId);
        const removed = await auditedAtBank(services, profileId, 'webhook.unregister', webhookId, () =>
          listener().unregister(webhookId),
        );
        return { deleted: true as const, id: removed.webhookId };
      },
    },
    exports: {
      listenerRequests: (input) => {
        const filter = filterOf(input);
        return services.saveLines(
          `listener-requests.${input.format === 'curl' ? 'sh' : 'jsonl'}`,
          listener().exportTraffic({ format: input.format, filter }),
        );
      },
    },
  };
}

/** What a configure call changes, in words for the audit log (the expected secret never). */
function configureChanges(input: {
  host?: string | undefined;
  allowNonLoopback?: boolean | undefined;
  port?: number | null | undefined;
  rejectUnauthenticated?: boolean | undefined;
  forwardTo?: string | null | undefined;
  forwardAppendPath?: boolean | undefined;
  forwardUnverified?: boolean | undefined;
  expectedBasicUser?: string | null | undefined;
  expectedBasicSecret?: string | null | undefined;
  publicUrl?: string | null | undefined;
  tlsCertFile?: string | null | undefined;
  retention?: unknown;
}): string {
  const parts: string[] = [];
  if (input.publicUrl !== undefined) parts.push(`public URL ${input.publicUrl ?? 'none (its own address)'}`);
  if (input.tlsCertFile !== undefined)
    parts.push(input.tlsCertFile === null ? 'plain HTTP' : `HTTPS with ${input.tlsCertFile}`);
  if (input.host !== undefined) parts.push(`host ${input.host}`);
  if (input.allowNonLoopback !== undefined)
    parts.push(`non-loopback ${input.allowNonLoopback ? 'allowed' : 'refused'}`);
  if (input.port !== undefined) parts.push(`port ${input.port === null ? 'default' : String(input.port)}`);
  if (input.rejectUnauthenticated !== undefined) {
    parts.push(`unverified notifications ${input.rejectUnauthenticated ? 'answered 401' : 'kept'}`);
  }
  if (input.forwardTo !== undefined) parts.push(`forward to ${input.forwardTo ?? 'nowhere'}`);
  if (input.forwardAppendPath !== undefined) {
    parts.push(input.forwardAppendPath ? 'forward adds the received path' : 'forward to the address exactly');
  }
  if (input.forwardUnverified !== undefined) {
    parts.push(
      `unverified posts ${input.forwardUnverified ? 'forwarded, marked by X-Ledgerdesk-Verdict' : 'not forwarded'}`,
    );
  }
  if (input.expectedBasicUser === null || input.expectedBasicSecret === null)
    parts.push('expected credentials cleared');
  else if (input.expectedBasicSecret !== undefined) {
    parts.push(
      `expected credentials set (user ${input.expectedBasicUser ?? 'as before'}; the secret is in the keychain)`,
    );
  }
  if (input.retention !== undefined) parts.push('retention changed');
  return parts.join('; ');
}

/** The webhook a registration made, as the bank answers one (never its secret). */
function webhookOfRegistration(registration: {
  webhookId: string;
  event: string;
  url: string;
  basicUser: string;
  createdAt: string;
}): WebhookResponse {
  const at = registration.createdAt.slice(0, 19) + 'Z';
  return {
    id: registration.webhookId,
    event: registration.event,
    url: registration.url,
    status: 'enabled',
    error: null,
    basic_user: registration.basicUser,
    basic_secret: null,
    userdata: null,
    created_at: at,
    updated_at: at,
  };
}

/** Runs a write at the bank and audits it: ok with its object, or failed with the error's sentence. */
async function auditedAtBank<Result extends { webhookId: string }>(
  services: ListenerHandlerServices,
  profileId: string,
  action: string,
  target: string,
  work: () => Promise<Result>,
): Promise<Result> {
  try {
    const result = await work();
    services.audit({ profileId, action, target: result.webhookId, result: 'ok' });
    return result;
  } catch (error) {
    services.audit({
      profileId,
      action,
      target,
      result: 'failed',
      detail: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
}
