/**
 * Replaying kept requests to any URL: one, a chosen set or a filtered set, oldest first (the
 * order they arrived in), optionally edited first and optionally with Basic auth applied
 * from the keychain. The kept Authorization header is redacted, so it is never re-sent.
 */
import { z } from 'zod';
import type { SecretStore } from '../credentials/secretStore.ts';
import { VERDICTS } from './basicAuth.ts';
import { sendOutbound, type OutboundRequest, type OutboundRoute } from './outbound.ts';
import type { Delivery, ReceivedRequest, RequestFilter } from './receivedRequest.ts';
import type { RequestLog } from './requestLog.ts';
import { REPLAY_EDITED_HEADER, REPLAY_OF_HEADER } from './retryLabels.ts';
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';

const REPLAY_MAX_REQUESTS = 1000;

const replayRequest = z.strictObject({
  /** The requests: by id, or by filter (ids win when both are given). */
  requestIds: z.array(z.number().int().positive()).max(REPLAY_MAX_REQUESTS).optional(),
  filter: z
    .strictObject({
      event: z.string().optional(),
      objectId: z.string().optional(),
      verdict: z.enum(VERDICTS).optional(),
      path: z.string().optional(),
      since: z.number().optional(),
      until: z.number().optional(),
    })
    .optional(),
  /** Where to: the exact URL, or (with appendPath) a base to which each request's path and query are added. */
  url: z.url({ protocol: /^https?$/, message: 'must be an http:// or https:// URL' }),
  appendPath: z.boolean().optional(),
  /** Basic auth to apply: the user, and the SecretStore account holding the secret (e.g. listener:<id>). */
  basicAuth: z.strictObject({ user: z.string().min(1), secretAccount: z.string().min(1) }).optional(),
  edit: z
    .strictObject({
      method: z
        .string()
        .regex(/^[A-Z]{1,16}$/, { message: 'must be an HTTP method like POST' })
        .optional(),
      /** Set (string) or remove (null) headers. */
      headers: z.record(z.string().min(1), z.string().nullable()).optional(),
      body: z.string().optional(),
    })
    .optional(),
  limit: z.number().int().min(1).max(REPLAY_MAX_REQUESTS).optional(),
  timeoutMs: z.number().int().min(1).max(600_000).optional(),
});
export type ReplayRequest = z.input<typeof replayRequest>;

export class NothingToReplayError extends Error {
  constructor() {
    super('No kept request matches: nothing was replayed.');
    this.name = 'NothingToReplayError';
  }

  get answer(): ContractAnswer {
    return { code: 'not_found' };
  }
}

/** The request to send for one kept request, edits applied. */
function outboundOf(
  request: ReceivedRequest,
  options: z.output<typeof replayRequest>,
  authorization: string | null,
): OutboundRequest {
  const edit = options.edit ?? {};
  const url = options.appendPath
    ? options.url.replace(/\/+$/, '') + request.path + (request.query === null ? '' : `?${request.query}`)
    : options.url;
  const edits = new Map(Object.entries(edit.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
  const headers: [string, string][] = request.headers.filter(([name]) => {
    const lower = name.toLowerCase();
    return lower !== 'authorization' && !edits.has(lower);
  });
  for (const [name, value] of edits) if (value !== null) headers.push([name, value]);
  if (authorization !== null && !edits.has('authorization')) headers.push(['authorization', authorization]);
  // Said to whoever receives it (the listener labels it a replay, an edited one when edited).
  headers.push([REPLAY_OF_HEADER, String(request.id)]);
  if (options.edit !== undefined) headers.push([REPLAY_EDITED_HEADER, 'true']);
  let body: Buffer | null = null;
  if (edit.body !== undefined) body = Buffer.from(edit.body, 'utf8');
  else if (request.bodyText !== null) body = Buffer.from(request.bodyText, 'utf8');
  else if (request.bodyBase64 !== null) body = Buffer.from(request.bodyBase64, 'base64');
  return {
    url,
    method: edit.method ?? (request.method === '' ? 'POST' : request.method),
    headers,
    body,
    timeoutMs: options.timeoutMs ?? 10_000,
  };
}

export async function replay(
  log: RequestLog,
  secrets: SecretStore,
  input: ReplayRequest,
  delivered: (delivery: Delivery) => void = () => undefined,
  route?: OutboundRoute,
): Promise<Delivery[]> {
  const options = replayRequest.parse(input);
  let authorization: string | null = null;
  if (options.basicAuth !== undefined) {
    const secret = await secrets.get(options.basicAuth.secretAccount);
    if (secret === null) {
      throw new Error(`No secret is stored as ${options.basicAuth.secretAccount}: nothing was replayed.`);
    }
    authorization = 'Basic ' + Buffer.from(`${options.basicAuth.user}:${secret}`).toString('base64');
  }
  const limit = options.limit ?? REPLAY_MAX_REQUESTS;
  const filter: RequestFilter =
    options.requestIds !== undefined ? { ids: options.requestIds, limit } : { ...options.filter, limit };
  // Read the set first: the log may grow while this replays (even from the replay itself).
  const requests = [...log.iterate(filter)];
  if (requests.length === 0) throw new NothingToReplayError();
  const deliveries: Delivery[] = [];
  for (const request of requests) {
    const startedAt = Date.now();
    const outbound = outboundOf(request, options, authorization);
    const result = await sendOutbound(outbound, route);
    const delivery = log.recordDelivery({
      requestId: request.id,
      kind: 'replay',
      url: outbound.url,
      startedAt,
      ...result,
    });
    deliveries.push(delivery);
    delivered(delivery);
  }
  return deliveries;
}
