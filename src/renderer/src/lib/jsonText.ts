/** Parses JSON typed by a person and says where it went wrong, in words. */

type JsonParse = { ok: true; value: unknown } | { ok: false; message: string };

function parseJsonText(text: string): JsonParse {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const raw = error instanceof Error ? error.message : 'is not valid JSON';
    const position = /position (\d+)/.exec(raw);
    if (position !== null) {
      const offset = Number(position[1]);
      const before = text.slice(0, offset);
      const line = before.split('\n').length;
      const column = offset - before.lastIndexOf('\n');
      return { ok: false, message: `Not valid JSON at line ${line}, column ${column}.` };
    }
    return { ok: false, message: `Not valid JSON: ${raw}` };
  }
}

/** A JSON object (not an array, string or number), as bankdata, userdata and fields are. */
export function parseJsonObjectText(
  text: string,
): { ok: true; value: Record<string, unknown> | undefined } | { ok: false; message: string } {
  const parsed = parseJsonText(text);
  if (!parsed.ok) return parsed;
  if (parsed.value === undefined) return { ok: true, value: undefined };
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
    return { ok: false, message: 'Must be a JSON object, like {"key": "value"}.' };
  }
  return { ok: true, value: parsed.value as Record<string, unknown> };
}
