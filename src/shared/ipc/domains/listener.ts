/**
 * The local webhook listener: start, stop and configure it; its response rules; the
 * requests it kept; replay and forward; reconciliation with the bank's send log; and
 * registering it with the bank in one step. Not tied to a profile, except where the bank is
 * involved (reconcile, register).
 */
import { z } from 'zod';
import { eventName, isoDate, webhookResponse } from '../../bank/index.ts';
import {
  asOf,
  cachePage,
  confirmProduction,
  countResult,
  httpUrl,
  idText,
  nameText,
  noInput,
  paging,
  profileId,
  searchText,
  SHORT_TEXT_MAX,
  TEXT_MAX,
} from '../common.ts';
import { SECRET_MAX } from './credentials.ts';

/** The verdict on a request's Authorization header (issue 5, "Verify"). */
export const LISTENER_VERDICTS = [
  'ok',
  'missing_header',
  'malformed_header',
  'wrong_user',
  'wrong_secret',
  'not_configured',
] as const;
export type ListenerVerdict = (typeof LISTENER_VERDICTS)[number];

const port = z
  .number()
  .int({ message: 'must be a whole number from 1 to 65535' })
  .min(1, { message: 'must be a whole number from 1 to 65535' })
  .max(65_535, { message: 'must be a whole number from 1 to 65535' });

const httpStatus = z
  .number()
  .int({ message: 'must be an HTTP status from 100 to 599' })
  .min(100, { message: 'must be an HTTP status from 100 to 599' })
  .max(599, { message: 'must be an HTTP status from 100 to 599' });

/** An IPv4 or IPv6 address to bind to (no host names: binding is explicit). */
const bindAddress = z
  .string()
  .max(64)
  .regex(/^([0-9]{1,3}([.][0-9]{1,3}){3}|[0-9a-fA-F:]+)$/, { message: 'must be an IP address like 127.0.0.1' });

const LOOPBACK = new Set(['127.0.0.1', '::1']);

const listenerStatus = z.object({
  running: z.boolean(),
  /** Where the bank should send notifications, e.g. http://127.0.0.1:4455/; null when stopped. */
  url: z.string().nullable(),
  host: z.string(),
  port: z.number().int().nullable(),
  startedAt: z.string().nullable(),
  requestsKept: z.number().int().min(0),
  /** E.g. "Listening on all interfaces: anyone on your network can send requests." */
  warning: z.string().nullable(),
});
export type ListenerStatus = z.infer<typeof listenerStatus>;

const listenerRetention = z.object({
  maxRequests: z.number().int().min(1),
  maxAgeDays: z.number().int().min(1).nullable(),
  maxBodyBytes: z.number().int().min(1),
});

const listenerConfig = z.object({
  host: z.string(),
  /** The remembered port; null until the listener first starts. */
  port: z.number().int().nullable(),
  expectedBasicUser: z.string().nullable(),
  /** Whether the expected Basic secret is in the keychain (it never leaves it). */
  expectedBasicSecretSet: z.boolean(),
  /** Answer 401 when the verdict is not ok (otherwise always answer receipt). */
  rejectUnauthenticated: z.boolean(),
  forwardTo: z.string().nullable(),
  /**
   * Forward posts whose verdict is not ok too (the default), marked by X-Ledgerdesk-Verdict so
   * the handler decides; off, they are kept but not forwarded.
   */
  forwardUnverified: z.boolean(),
  retention: listenerRetention,
  /**
   * Origins forward and replay may reach besides the listener and loopback. Only main adds to
   * it, after the user confirms in a native dialog (`allowTarget`).
   */
  allowedTargets: z.array(z.string()),
});
export type ListenerConfig = z.infer<typeof listenerConfig>;

export const listenerConfigureInput = z
  .strictObject({
    host: bindAddress.optional(),
    /** Binding anywhere but loopback needs this explicit opt-in. */
    allowNonLoopback: z.literal(true).optional(),
    port: port.nullable().optional(),
    expectedBasicUser: nameText.nullable().optional(),
    /** Goes to the keychain; null removes it. */
    expectedBasicSecret: z.string().min(1).max(SECRET_MAX).nullable().optional(),
    rejectUnauthenticated: z.boolean().optional(),
    forwardTo: httpUrl.nullable().optional(),
    forwardUnverified: z.boolean().optional(),
    retention: z
      .strictObject({
        maxRequests: z.number().int().min(1).max(10_000_000).optional(),
        maxAgeDays: z.number().int().min(1).max(3650).nullable().optional(),
        maxBodyBytes: z
          .number()
          .int()
          .min(1)
          .max(64 * 1024 * 1024)
          .optional(),
      })
      .optional(),
  })
  .superRefine((input, context) => {
    if (input.host !== undefined && !LOOPBACK.has(input.host) && input.allowNonLoopback !== true) {
      context.addIssue({
        code: 'custom',
        path: ['allowNonLoopback'],
        message: `must be true to listen on ${input.host}: anyone who can reach it could send requests`,
      });
    }
  });

/** Response rules: fail on purpose, by event or path. */
const listenerRuleResponse = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('status'), status: httpStatus }),
  z.strictObject({
    kind: z.literal('delay'),
    delayMs: z.number().int().min(0).max(600_000),
    status: httpStatus,
  }),
  /** Never answer: the bank's request times out. */
  z.strictObject({ kind: z.literal('timeout') }),
  /** Close the connection without an answer. */
  z.strictObject({ kind: z.literal('drop') }),
  /** Fail `times` times per notification (event + object id), then answer `thenStatus`. */
  z.strictObject({
    kind: z.literal('failTimes'),
    times: z.number().int().min(1).max(1000),
    status: httpStatus,
    thenStatus: httpStatus.default(200),
  }),
]);

export const listenerRuleInput = z.strictObject({
  id: idText.optional(),
  name: nameText.optional(),
  enabled: z.boolean().default(true),
  match: z
    .strictObject({
      event: idText.optional(),
      /** A path prefix such as /webhooks/ach. */
      pathPrefix: z.string().max(SHORT_TEXT_MAX).startsWith('/', { message: 'must start with /' }).optional(),
    })
    .default({}),
  response: listenerRuleResponse,
});

const listenerRule = z.object({
  id: z.string(),
  name: z.string().nullable(),
  enabled: z.boolean(),
  match: z.object({ event: z.string().optional(), pathPrefix: z.string().optional() }),
  response: z.union([
    z.object({ kind: z.literal('status'), status: z.number().int() }),
    z.object({ kind: z.literal('delay'), delayMs: z.number().int(), status: z.number().int() }),
    z.object({ kind: z.literal('timeout') }),
    z.object({ kind: z.literal('drop') }),
    z.object({
      kind: z.literal('failTimes'),
      times: z.number().int(),
      status: z.number().int(),
      thenStatus: z.number().int(),
    }),
  ]),
});
export type ListenerRule = z.infer<typeof listenerRule>;

/** One kept request, as the live stream and the list show it. */
const arrivalLabel = z.object({
  kind: z.enum(['new_event', 'retry']),
  /** 1 for a new event; for a retry, which attempt (2 for the first retry). */
  attempt: z.number().int().min(1),
  /** What the decision rested on, in words. */
  basis: z.string(),
  source: z.enum(['listener', 'bank']),
});
export type ArrivalLabelView = z.infer<typeof arrivalLabel>;

const listenerRequestSummary = z.object({
  id: z.string(),
  receivedAt: z.string(),
  method: z.string(),
  path: z.string(),
  verdict: z.enum(LISTENER_VERDICTS),
  event: z.string().nullable(),
  objectId: z.string().nullable(),
  /** The status answered; null when the rule was timeout or drop. */
  status: z.number().int().nullable(),
  durationMs: z.number().min(0),
  bodyBytes: z.number().int().min(0),
  /** The same event and object id arrived before. */
  duplicate: z.boolean(),
  /** It arrived after a newer notification for the same object. */
  outOfOrder: z.boolean(),
  /** Status of the forward to the local handler, when forwarding is on. */
  forwardStatus: z.number().int().nullable(),
  /**
   * Retry or new event (issue 27): decided when it arrived, in this run of the listener only
   * (never carried across restarts; null for earlier and imported requests). `source` says who
   * decided: the listener by body, or the bank's send log.
   */
  label: arrivalLabel.nullable().optional(),
});
export type ListenerRequestSummary = z.infer<typeof listenerRequestSummary>;

const forwardResult = z.object({
  url: z.string(),
  status: z.number().int().nullable(),
  latencyMs: z.number().min(0).nullable(),
  bodyExcerpt: z.string().nullable(),
  error: z.string().nullable(),
  at: z.string(),
});
export type ForwardResult = z.infer<typeof forwardResult>;

const listenerRequestDetail = listenerRequestSummary.extend({
  /** Header names lower-cased; Authorization is redacted. */
  headers: z.record(z.string(), z.string()),
  /** The body as text, up to the body cap; null when there was none. */
  body: z.string().nullable(),
  bodyTruncated: z.boolean(),
  /** The parsed notification, when the body was one. */
  notification: z.looseObject({}).nullable(),
  /** Why the body is not a valid notification; empty when it is. */
  notificationProblems: z.array(z.string()),
  /** Which rule decided the answer, if any. */
  ruleId: z.string().nullable(),
  /** The object fetched from the bank by id after the notification (spec §6.8). */
  hydrated: z
    .object({
      fetchedAt: z.string(),
      object: z.looseObject({}).nullable(),
      error: z.string().nullable(),
    })
    .nullable(),
  forwards: z.array(forwardResult),
});
export type ListenerRequestDetail = z.infer<typeof listenerRequestDetail>;

export const listenerRequestFilter = {
  verdict: z.enum(LISTENER_VERDICTS).optional(),
  event: idText.optional(),
  objectId: idText.optional(),
  pathPrefix: z.string().max(SHORT_TEXT_MAX).optional(),
  duplicatesOnly: z.boolean().optional(),
  /** Text found in paths, events, object ids or methods (bodies may be sealed at rest, so not searched). */
  search: searchText,
};

export const RECONCILIATION_CATEGORIES = [
  'sentAndReceived',
  'sentNotReceived',
  'receivedButFailed',
  'stillRetrying',
  /** Requests whose verdict is not `ok`: never counted as received, shown apart with their verdict. */
  'receivedUnverified',
] as const;
/** A webhook registered with the listener, on its own path with its own Basic user. */
const listenerRegistration = z.object({
  webhookId: z.string(),
  event: z.string(),
  url: z.string(),
  path: z.string(),
  basicUser: z.string(),
  createdAt: z.string(),
});
export type ListenerRegistration = z.infer<typeof listenerRegistration>;

export type ReconciliationCategory = (typeof RECONCILIATION_CATEGORIES)[number];

const reconciliationRow = z.object({
  category: z.enum(RECONCILIATION_CATEGORIES),
  event: z.string().nullable(),
  objectId: z.string(),
  webhookId: z.string().nullable(),
  webhookSendId: z.string().nullable(),
  listenerRequestId: z.string().nullable(),
  attemptNumber: z.number().int().nullable(),
  willRetry: z.boolean().nullable(),
  sendStatus: z.string().nullable(),
  receivedAt: z.string().nullable(),
  /** The verdict of the request received; null when nothing was received. */
  verdict: z.enum(LISTENER_VERDICTS).nullable(),
});
export type ReconciliationRow = z.infer<typeof reconciliationRow>;

const reconciliation = z.object({
  counts: z.object({
    sentAndReceived: z.number().int().min(0),
    sentNotReceived: z.number().int().min(0),
    receivedButFailed: z.number().int().min(0),
    stillRetrying: z.number().int().min(0),
    receivedUnverified: z.number().int().min(0),
  }),
  rows: z.array(reconciliationRow),
  nextCursor: z.string().nullable(),
  asOf,
});
export type Reconciliation = z.infer<typeof reconciliation>;

const replayResult = z.object({
  requestId: z.string(),
  status: z.number().int().nullable(),
  latencyMs: z.number().min(0).nullable(),
  bodyExcerpt: z.string().nullable(),
  error: z.string().nullable(),
});
export type ReplayResult = z.infer<typeof replayResult>;

const headerName = z
  .string()
  .min(1)
  .max(SHORT_TEXT_MAX)
  .regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/, { message: 'must be a valid HTTP header name' });

export const replayInput = z
  .strictObject({
    /** The requests to replay; or `filter` for every kept request matching it. */
    requestIds: z.array(idText).min(1).max(1000).optional(),
    filter: z.strictObject(listenerRequestFilter).optional(),
    targetUrl: httpUrl,
    /** Apply the listener's expected Basic credentials from the keychain. */
    applyBasicAuth: z.boolean().default(false),
    /** Edit-and-replay: only with exactly one request id. */
    edit: z
      .strictObject({
        headers: z.record(headerName, z.string().max(TEXT_MAX)).optional(),
        body: z
          .string()
          .max(1024 * 1024)
          .optional(),
      })
      .optional(),
  })
  .superRefine((input, context) => {
    if ((input.requestIds === undefined) === (input.filter === undefined)) {
      context.addIssue({ code: 'custom', path: ['requestIds'], message: 'give either requestIds or filter, not both' });
    }
    if (input.edit !== undefined && input.requestIds?.length !== 1) {
      context.addIssue({ code: 'custom', path: ['edit'], message: 'edit-and-replay works on exactly one request' });
    }
  });

/** Where one notification a trigger caused got to (issue 27, item 6). */
const NOTIFICATION_REACH = [
  /** No enabled webhook in the cached list is subscribed to its event: the bank sends it nowhere. */
  'no_webhook',
  /** Webhooks are subscribed, but none posts to this listener (nor is registered with it). */
  'not_to_listener',
  /** The listener has not received it (yet): the bank may still be delivering or retrying. */
  'not_yet',
  /** The listener received it (the newest such request is named, with its verdict). */
  'reached',
] as const;

const notificationReach = z.object({
  event: z.string(),
  objectId: z.string(),
  state: z.enum(NOTIFICATION_REACH),
  /** Enabled webhooks subscribed to the event (cached list), and of them those posting here. */
  subscribed: z.number().int().min(0),
  toListener: z.number().int().min(0),
  requestId: z.string().nullable(),
  receivedAt: z.string().nullable(),
  verdict: z.enum(LISTENER_VERDICTS).nullable(),
});
export type NotificationReach = z.infer<typeof notificationReach>;

/** The most notifications one reach question names (a trigger causes a handful). */
const REACH_MAX_NOTIFICATIONS = 200;

/** The most events one registration call subscribes to (the catalog has 13). */
export const LISTENER_REGISTER_MAX_EVENTS = 20;

const registeredEvent = eventName.max(SHORT_TEXT_MAX);

const listenerRegisterInput = z
  .strictObject({
    profileId,
    event: registeredEvent.optional(),
    events: z
      .array(registeredEvent)
      .min(1, { message: 'choose at least one event' })
      .max(LISTENER_REGISTER_MAX_EVENTS, {
        message: `at most ${String(LISTENER_REGISTER_MAX_EVENTS)} events at once`,
      })
      .optional(),
    confirmProduction,
  })
  .superRefine((input, context) => {
    if ((input.event === undefined) === (input.events === undefined)) {
      context.addIssue({ code: 'custom', path: ['events'], message: 'give either event or events, not both' });
    }
    const seen = new Set<string>();
    for (const [index, event] of (input.events ?? []).entries()) {
      if (seen.has(event)) {
        context.addIssue({ code: 'custom', path: ['events', index], message: `${event} is chosen twice` });
      }
      seen.add(event);
    }
  });

/** The events of a registration call, in the order given. */
export function registeredEventsOf(input: { event?: string | undefined; events?: string[] | undefined }): string[] {
  return input.events ?? (input.event === undefined ? [] : [input.event]);
}

/**
 * The largest export the app imports at once (characters): under the web bridge's message cap
 * (8 MiB), so the desktop app and web mode take the same files. `--event`/`--verdict` make a
 * smaller export.
 */
export const LISTENER_IMPORT_MAX_CHARS = 7 * 1024 * 1024;

export const listenerOperations = {
  status: { input: noInput, output: listenerStatus },
  /** Starts on the configured (remembered) port; a taken port is refused with `port_in_use`. */
  start: {
    input: z.strictObject({
      /** For this start only; 0 picks any free port (not remembered). */
      port: z
        .number()
        .int({ message: 'must be a whole number from 0 to 65535' })
        .min(0, { message: 'must be a whole number from 0 to 65535' })
        .max(65_535, { message: 'must be a whole number from 0 to 65535' })
        .optional(),
    }),
    output: listenerStatus,
  },
  /** Stops after the requests in flight are kept. */
  stop: { input: noInput, output: listenerStatus },
  getConfig: { input: noInput, output: listenerConfig },
  configure: { input: listenerConfigureInput, output: listenerConfig },
  listRules: { input: noInput, output: z.object({ rules: z.array(listenerRule) }) },
  /** Replaces every rule at once (the editor saves the whole list). */
  setRules: {
    input: z.strictObject({ rules: z.array(listenerRuleInput).max(200) }),
    output: z.object({ rules: z.array(listenerRule) }),
  },
  listRequests: {
    input: z.strictObject({ ...listenerRequestFilter, ...paging }),
    output: cachePage(listenerRequestSummary),
  },
  countRequests: { input: z.strictObject(listenerRequestFilter), output: countResult },
  getRequest: { input: z.strictObject({ id: idText }), output: listenerRequestDetail },
  clearRequests: { input: noInput, output: z.object({ removed: z.number().int().min(0) }) },
  replay: { input: replayInput, output: z.object({ results: z.array(replayResult) }) },
  /**
   * Asks the user, in a dialog of the main process that names the host, to let forward and
   * replay reach `url`'s origin; answers the allow-list. Declined: `cancelled`.
   */
  allowTarget: {
    input: z.strictObject({ url: httpUrl }),
    output: z.object({ origin: z.string(), allowedTargets: z.array(z.string()) }),
  },
  /** Removes an origin from the allow-list (no confirmation: it only narrows). */
  forgetTarget: {
    input: z.strictObject({ origin: z.string().min(1).max(SHORT_TEXT_MAX) }),
    output: z.object({ removed: z.boolean(), allowedTargets: z.array(z.string()) }),
  },
  /**
   * Keeps the requests of a JSONL export (`npm run listen -- export FILE`, or this app's) in the
   * app's listener, checked in full first: a wrong line is named and nothing is imported.
   * Requests already kept are skipped, so importing a file twice changes nothing.
   */
  importRequests: {
    input: z.strictObject({
      fileName: z.string().min(1).max(SHORT_TEXT_MAX),
      text: z.string().max(LISTENER_IMPORT_MAX_CHARS, {
        message: 'is larger than 7 MiB: export fewer requests (npm run listen -- export FILE --event E)',
      }),
    }),
    output: z.object({ imported: z.number().int().min(0), alreadyKept: z.number().int().min(0) }),
  },
  /** Forwards one kept request again, to `url` or the configured forward-to. */
  forward: { input: z.strictObject({ requestId: idText, url: httpUrl.optional() }), output: forwardResult },
  /**
   * The bank's send records of `webhookId` joined with what the listener received; without
   * `webhookId`, of every webhook registered with the listener (each on its own path).
   */
  reconcile: {
    input: z.strictObject({
      profileId,
      webhookId: idText.optional(),
      fromDate: isoDate.optional(),
      toDate: isoDate.optional(),
      category: z.enum(RECONCILIATION_CATEGORIES).optional(),
      ...paging,
    }),
    output: reconciliation,
  },
  /**
   * Creates a webhook per event (`event`, or each of `events`) pointing at the listener, each with
   * fresh Basic credentials and each audited. One refused by the bank does not undo the others:
   * they are answered in `webhooks`, the refused in `failed`; when every one is refused, the
   * first refusal is the error.
   */
  register: {
    input: listenerRegisterInput,
    output: z.object({
      /** The first webhook registered (what a one-event call registers). */
      webhook: webhookResponse.object,
      webhooks: z.array(webhookResponse.object),
      failed: z.array(z.object({ event: z.string(), message: z.string() })),
      listenerUrl: z.string(),
    }),
  },
  /**
   * The webhooks registered with this listener (from this app or `npm run listen -- register`),
   * oldest first. The Basic user is shown; its secret stays in the keychain and the bank.
   */
  registrations: {
    input: noInput,
    output: z.object({
      registrations: z.array(listenerRegistration),
    }),
  },
  /**
   * Whether each notification a trigger caused reached this listener: its requests with the
   * same event and object id received since `since`, and, for those not received, whether any
   * webhook (in the cached list or registered here) is subscribed to the event at all.
   */
  reach: {
    input: z.strictObject({
      profileId,
      since: z.iso.datetime({ message: 'must be an ISO date and time' }),
      notifications: z
        .array(z.strictObject({ event: eventName.max(SHORT_TEXT_MAX), objectId: idText }))
        .max(REACH_MAX_NOTIFICATIONS),
    }),
    output: z.object({ notifications: z.array(notificationReach) }),
  },
  unregister: {
    input: z.strictObject({ profileId, webhookId: idText, confirmProduction }),
    output: z.object({ deleted: z.literal(true), id: z.string() }),
  },
} as const;

export const listenerEvents = {
  /** New requests, batched (at most a few pushes a second however many arrive). */
  requests: z.object({
    requests: z.array(listenerRequestSummary),
    /** Requests received but left out of this batch (reload the list to see them). */
    omitted: z.number().int().min(0),
  }),
  status: listenerStatus,
} as const;
