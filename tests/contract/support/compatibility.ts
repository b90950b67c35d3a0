/**
 * Whether an answer of the sandbox carries every field of a recorded answer of the real
 * service, with a compatible type. Each problem names its field (`data[0].account_number`).
 *
 * Compatible: the same JSON type (string, number, boolean, object, array), or null on either
 * side (a field may be null in one state and set in another: an application's account_id
 * before and after approval). Objects are compared field by field. Arrays (a list's `data`, an
 * application's `person_applications`): each recorded element against every element the
 * sandbox sent, so every served element has what the recording has; a recorded list with
 * items against an empty one served cannot show anything and is a problem.
 */
type Json = null | boolean | number | string | Json[] | { [name: string]: Json };

function typeOf(value: Json): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function compare(recorded: Json, served: Json | undefined, path: string, problems: Map<string, string>): void {
  const problem = (text: string): void => {
    if (!problems.has(path)) problems.set(path, `${path === '' ? '(the body)' : path}: ${text}`);
  };
  if (served === undefined) {
    problem("missing from the sandbox's answer");
    return;
  }
  if (recorded === null || served === null) return;
  const recordedType = typeOf(recorded);
  const servedType = typeOf(served);
  if (recordedType !== servedType) {
    problem(`the real service sends ${recordedType}, the sandbox ${servedType}`);
    return;
  }
  if (Array.isArray(recorded) && Array.isArray(served)) {
    if (recorded.length === 0) return;
    if (served.length === 0) {
      if (path === 'data') problem('the sandbox listed nothing to compare with');
      return;
    }
    for (const [index, element] of recorded.entries()) {
      for (const servedElement of served) compare(element, servedElement, `${path}[${String(index)}]`, problems);
    }
    return;
  }
  if (
    typeof recorded === 'object' &&
    typeof served === 'object' &&
    !Array.isArray(recorded) &&
    !Array.isArray(served)
  ) {
    for (const [name, value] of Object.entries(recorded)) {
      compare(value, served[name], path === '' ? name : `${path}.${name}`, problems);
    }
  }
}

/** One sentence per field at fault; empty when the sandbox's answer has everything the recording has. */
export function fieldsMissingOrDifferent(recorded: unknown, served: unknown): string[] {
  const problems = new Map<string, string>();
  compare(recorded as Json, served as Json, '', problems);
  return [...problems.values()];
}
