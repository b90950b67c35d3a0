/**
 * Reading a received body as the bank's notification (spec §2.6). Whatever arrives gets a
 * reading: the notification, or a sentence saying what was wrong with it. Never a throw:
 * a listener that crashes on a bad body would lose the requests around it.
 */
import {
  EVENT_NAME_PATTERN,
  NOTIFICATION_OPS,
  parseWith,
  webhookNotification,
  type WebhookNotification,
} from '../../../shared/bank/index.ts';

export interface NotificationReading {
  notification: WebhookNotification | null;
  /** Null when the body is a valid notification; otherwise what is wrong with it. */
  problem: string | null;
  /** event, object id and op when the body carries them, even if the rest is invalid, so it still groups. */
  event: string | null;
  objectId: string | null;
  op: string | null;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** Longer values are not ids or event names; keeping them would only bloat the indexes. */
const MAX_KEY_LENGTH = 200;

function keyOf(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_KEY_LENGTH ? value : null;
}

/**
 * Where JSON.parse stopped, never what it read there: V8's message quotes the body ("Unexpected
 * token 'x', "{"secret…" is not valid JSON"), and this sentence is kept in clear beside the
 * sealed body (security review L5). The position is enough to find the fault in the body,
 * which the drawer shows once unsealed.
 */
function jsonSyntaxProblem(error: unknown, length: number): string {
  const message = error instanceof Error ? error.message : '';
  const at = /at position (\d+)/.exec(message)?.[1];
  const position = at === undefined ? null : Number(at);
  if (position !== null && position < length)
    return `syntax error at character ${String(position)} of ${String(length)}`;
  if (position !== null || /end of (JSON )?input|Unterminated/i.test(message)) {
    return `ends before the JSON does (${String(length)} characters)`;
  }
  return `syntax error (${String(length)} characters)`;
}

function unreadable(problem: string): NotificationReading {
  return { notification: null, problem, event: null, objectId: null, op: null };
}

const OPS: ReadonlySet<string> = new Set(NOTIFICATION_OPS);

/**
 * The common case, checked by hand on the hot path: exactly what `webhookNotification`
 * accepts (a loose object, so the value is the object itself). Anything this does not
 * accept goes through the schema, which also says what is wrong.
 */
function isPlainNotification(fields: Record<string, unknown>): fields is WebhookNotification {
  const { event, op, id, url } = fields;
  return (
    typeof event === 'string' &&
    typeof op === 'string' &&
    typeof id === 'string' &&
    typeof url === 'string' &&
    id.length > 0 &&
    url.length > 0 &&
    OPS.has(op) &&
    EVENT_NAME_PATTERN.test(event) &&
    event.endsWith('.' + op)
  );
}

export function readNotification(body: Buffer, contentType: string | undefined): NotificationReading {
  if (body.length === 0) return unreadable('empty body');
  let text: string;
  try {
    text = strictUtf8.decode(body);
  } catch {
    return unreadable('body is not UTF-8 text');
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    const type = contentType === undefined ? 'no Content-Type' : `Content-Type ${contentType.slice(0, 80)}`;
    return unreadable(`body is not JSON (${type}): ${jsonSyntaxProblem(error, text.length)}`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return unreadable(`body is JSON but not an object (${Array.isArray(json) ? 'array' : typeof json})`);
  }
  const fields = json as Record<string, unknown>;
  const keys = { event: keyOf(fields.event), objectId: keyOf(fields.id), op: keyOf(fields.op) };
  if (isPlainNotification(fields)) return { notification: fields, problem: null, ...keys };
  const parsed = parseWith(webhookNotification, json);
  if (!parsed.ok) return { notification: null, problem: `not a notification: ${parsed.problems.join('; ')}`, ...keys };
  return { notification: parsed.value, problem: null, ...keys };
}
