/**
 * The last line of defence against a secret reaching the window. The services never return
 * secrets; this walks every reply and every event anyway and replaces:
 * - the string value of any field named like a secret (secret, password, token, …),
 * - any `Basic …` / `Bearer …` credential inside a string,
 * - any occurrence of a secret main knows about (the keys it holds for this session).
 */

export const REDACTED = '[redacted]';

/** Field names whose string values are secrets. `*Set` booleans pass (they are not strings). */
const SECRET_FIELD =
  /(secret|password|passphrase|passwd|token|authorization|api[_-]?key|private[_-]?key|data[_-]?key|credential)/i;

/** An Authorization credential inside free text. */
const AUTHORIZATION_VALUE = /\b(Basic|Bearer)\s+[A-Za-z0-9._~+/=-]{4,}/g;

/** Known secrets shorter than this are not searched for in text (too many false hits). */
const MIN_KNOWN_SECRET_LENGTH = 6;

export interface ScrubResult<Value> {
  value: Value;
  redactions: number;
}

export function scrubText(text: string, knownSecrets: readonly string[]): { text: string; redactions: number } {
  let redactions = 0;
  let result = text.replace(AUTHORIZATION_VALUE, (_match, scheme: string) => {
    redactions += 1;
    return `${scheme} ${REDACTED}`;
  });
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
      const scrubbed = scrubText(current, secrets);
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
