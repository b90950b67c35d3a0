/**
 * An account application the bank sent malformed (a status this client does not know, a field
 * of the wrong type) is kept as received instead of failing the book (issue 24), and shown as
 * far as it can be read: every field that fits is shown as usual, each field that does not is
 * shown empty, with what was received in it and the problem named beside the application.
 */
import { z } from 'zod';
import { accountApplicationResponse, type AccountApplicationResponse } from './accountApplication.ts';

/** What was wrong with a record kept as received: the problems, and the faulty fields as sent. */
const malformedRecordNote = z.object({
  /** `field: rule`, never a value. */
  problems: z.array(z.string()),
  /** Each faulty field's value as received, as JSON text cut to RECEIVED_TEXT_LIMIT characters. */
  received: z.record(z.string(), z.string()),
});
export type MalformedRecordNote = z.infer<typeof malformedRecordNote>;

/** An application as shown: the tolerant record, with a note when the bank sent it malformed. */
export const receivedAccountApplication = accountApplicationResponse.object.extend({
  malformed: malformedRecordNote.optional(),
});
export type ReceivedAccountApplication = z.infer<typeof receivedAccountApplication>;

const RECEIVED_TEXT_LIMIT = 120;

function receivedText(value: unknown): string {
  // A received value is JSON, so it has a JSON text (undefined never comes from a parsed body).
  const text = JSON.stringify(value);
  return text.length > RECEIVED_TEXT_LIMIT ? `${text.slice(0, RECEIVED_TEXT_LIMIT - 1)}…` : text;
}

/**
 * The application as kept (`raw`, as the bank sent it) made readable: each field its schema
 * refuses is emptied (every field but `id` may be empty in what the bank answers) and noted
 * with what was received. `problems` are those found when it was received.
 */
export function readableApplication(
  raw: Readonly<Record<string, unknown>>,
  problems: readonly string[],
): AccountApplicationResponse & { malformed: MalformedRecordNote } {
  const shape = accountApplicationResponse.object.shape as Record<string, z.ZodType>;
  const value: Record<string, unknown> = { ...raw };
  const received: Record<string, string> = {};
  for (const [field, schema] of Object.entries(shape)) {
    if (!(field in raw) || field === 'id') continue;
    if (schema.safeParse(raw[field]).success) continue;
    received[field] = receivedText(raw[field]);
    value[field] = null;
  }
  const id = typeof raw['id'] === 'string' && raw['id'] !== '' ? raw['id'] : '(no id)';
  const parsed = accountApplicationResponse.object.safeParse({ ...value, id });
  // Every field but id may be null, so what is left always parses; the id alone if not.
  const readable: AccountApplicationResponse = parsed.success ? parsed.data : { id };
  return { ...readable, malformed: { problems: [...problems], received } };
}

/**
 * An application's status as the bank sent it: the status when it is one this client knows,
 * else the text received in its place (a JSON string's words, or the JSON text itself).
 */
export function statusAsReceived(application: {
  status?: string | null | undefined;
  malformed?: MalformedRecordNote | undefined;
}): string | null {
  const received = application.malformed?.received['status'];
  if (received === undefined) return application.status ?? null;
  return received.startsWith('"') && received.endsWith('"') && received.length >= 2 ? received.slice(1, -1) : received;
}
