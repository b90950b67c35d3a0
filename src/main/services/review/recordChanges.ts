/**
 * What changed in a record since it was reviewed, field by field: each leaf that differs, by
 * its path (`status`, `people[0].email`), with the value before and after. A record the bank no
 * longer lists (a pending transaction posted or released) is one change of the whole record.
 */

export interface FieldChange {
  /** Dotted path of the field; `(record)` when the whole record came or went. */
  field: string;
  /** JSON text of the value as reviewed; null when the field was absent. */
  before: string | null;
  /** JSON text of the value now; null when the field is absent now. */
  after: string | null;
}

const WHOLE_RECORD = '(record)';

/** The changes from `before` to `after`; `after` null means the record is no longer cached. */
export function recordChanges(before: unknown, after: unknown): FieldChange[] {
  if (after === null || after === undefined) {
    return [{ field: WHOLE_RECORD, before: JSON.stringify(before ?? null), after: null }];
  }
  const changes: FieldChange[] = [];
  compare(before, after, '', changes);
  return changes;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function compare(before: unknown, after: unknown, path: string, changes: FieldChange[]): void {
  if (isObject(before) && isObject(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    for (const key of keys) {
      const inner = path === '' ? key : `${path}.${key}`;
      if (!(key in before)) changes.push({ field: inner, before: null, after: JSON.stringify(after[key]) });
      else if (!(key in after)) changes.push({ field: inner, before: JSON.stringify(before[key]), after: null });
      else compare(before[key], after[key], inner, changes);
    }
    return;
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const length = Math.max(before.length, after.length);
    for (let index = 0; index < length; index += 1) {
      const inner = `${path}[${String(index)}]`;
      if (index >= before.length) changes.push({ field: inner, before: null, after: JSON.stringify(after[index]) });
      else if (index >= after.length)
        changes.push({ field: inner, before: JSON.stringify(before[index]), after: null });
      else compare(before[index], after[index], inner, changes);
    }
    return;
  }
  const beforeText = JSON.stringify(before);
  const afterText = JSON.stringify(after);
  if (beforeText !== afterText)
    changes.push({ field: path === '' ? WHOLE_RECORD : path, before: beforeText, after: afterText });
}
