/**
 * The last line of defence against a secret reaching the window. The services never return
 * secrets; this walks every reply and every event anyway and replaces:
 * - the string value of any field named like a secret (secret, password, token, …), header
 *   maps' `authorization` values included,
 * - any `Basic …` / `Bearer …` credential inside an error text (fields named like error,
 *   message, detail, reason, problem or excerpt: what a server or a transport said back),
 * - any occurrence of a secret main knows about (the keys it holds for this session).
 * Bank data and names the user typed are never matched against words (review N11): a
 * "Basic Checking monthly fee" or a profile named "Basic Bank Inc" arrives as it is.
 */

const REDACTED = '[redacted]';

/** Field names whose string values are secrets. `*Set` booleans pass (they are not strings). */
const SECRET_FIELD =
  /(secret|password|passphrase|passwd|token|authorization|api[_-]?key|private[_-]?key|data[_-]?key|credential)/i;

/** An Authorization credential inside free text. */
const AUTHORIZATION_VALUE = /\b(Basic|Bearer)\s+[A-Za-z0-9._~+/=-]{4,}/g;

/** Fields whose text is something a server or transport said back, where a credential may be echoed. */
const ERROR_TEXT_FIELD = /(error|message|detail|reason|problem|excerpt)/i;

/** Known secrets shorter than this are not searched for in text (too many false hits). */
const MIN_KNOWN_SECRET_LENGTH = 6;

export interface ScrubResult<Value> {
  value: Value;
  redactions: number;
}

/** An error text scrubbed: credentials by their shape, and every known secret. */
export function scrubText(text: string, knownSecrets: readonly string[]): { text: string; redactions: number } {
  let redactions = 0;
  const result = text.replace(AUTHORIZATION_VALUE, (_match, scheme: string) => {
    redactions += 1;
    return `${scheme} ${REDACTED}`;
  });
  const known = scrubKnown(result, knownSecrets);
  return { text: known.text, redactions: redactions + known.redactions };
}

/** Any text scrubbed of the secrets main knows about, and of nothing else. */
function scrubKnown(text: string, knownSecrets: readonly string[]): { text: string; redactions: number } {
  let redactions = 0;
  let result = text;
  for (const secret of knownSecrets) {
    if (secret.length < MIN_KNOWN_SECRET_LENGTH || !result.includes(secret)) continue;
    redactions += 1;
    result = result.split(secret).join(REDACTED);
  }
  return { text: result, redactions };
}

/** A copy of `value` with every secret replaced; `value` itself is not changed. */
export function scrubSecrets<Value>(value: Value, knownSecrets: Iterable<string> = []): ScrubResult<Value> {
  const secrets = [...knownSecrets].filter((secret) => secret.length >= MIN_KNOWN_SECRET_LENGTH);
  let redactions = 0;

  function visit(current: unknown, key: string | null): unknown {
    if (typeof current === 'string') {
      if (key !== null && SECRET_FIELD.test(key) && current !== '' && current !== REDACTED) {
        redactions += 1;
        return REDACTED;
      }
      const scrubbed =
        key !== null && ERROR_TEXT_FIELD.test(key) ? scrubText(current, secrets) : scrubKnown(current, secrets);
      redactions += scrubbed.redactions;
      return scrubbed.text;
    }
    if (Array.isArray(current)) return current.map((item) => visit(item, null));
    if (typeof current === 'object' && current !== null && !(current instanceof Uint8Array)) {
      const copy: Record<string, unknown> = {};
      for (const [entryKey, entryValue] of Object.entries(current)) {
        copy[entryKey] = visit(entryValue, entryKey);
      }
      return copy;
    }
    return current;
  }

  const scrubbed = visit(value, null) as Value;
  return { value: scrubbed, redactions };
}
