/**
 * A reviewed item in a few words, from the record its review keeps: a transaction's
 * description and amount, an application's status, a send's event, object and outcome.
 * Records are the bank's, read tolerantly: a field it did not send is simply left out.
 */
import { isNotificationRef, type ReviewKind } from '../../../../shared/review/reviewTerms.ts';

function field(record: unknown, name: string): string | null {
  if (typeof record !== 'object' || record === null) return null;
  const value = (record as Record<string, unknown>)[name];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : null;
}

function joined(parts: readonly (string | null)[]): string {
  return parts.filter((part) => part !== null && part !== '').join(' · ');
}

export function itemSummary(kind: ReviewKind, ref: string, record: unknown): string {
  if (kind === 'pending-transaction') {
    return joined([field(record, 'desc'), field(record, 'amount'), field(record, 'date')]) || 'pending transaction';
  }
  if (kind === 'application') return field(record, 'status') ?? ref;
  if (isNotificationRef(ref)) {
    const attempts = (record as { attempts?: unknown } | null)?.attempts;
    const count = Array.isArray(attempts) ? attempts.length : null;
    const last = Array.isArray(attempts) ? (attempts.at(-1) as unknown) : null;
    return joined([
      field(record, 'event') ?? 'notification',
      field(record, 'object_id'),
      count === null ? null : `${String(count)} ${count === 1 ? 'attempt' : 'attempts'}`,
      field(last, 'status'),
    ]);
  }
  return (
    joined([
      field(record, 'event'),
      field(record, 'object_id'),
      field(record, 'status'),
      field(record, 'attempt_number') === null ? null : `attempt ${field(record, 'attempt_number') ?? ''}`,
    ]) || ref
  );
}
