/**
 * What a person reads of a reviewable item, from the bank's record as cached or as reviewed:
 * a pending transaction's date and time, account, description, amount, type and source; an
 * application's status, product, ownership, applicants and dates; a send's event, object,
 * status, attempt and error. Shared by the command line, the review report and the screens,
 * so an item reads the same everywhere. Records are the bank's, read tolerantly: a field the
 * bank did not send is null.
 */
import { isNotificationRef, type ReviewKind } from './reviewTerms.ts';

export interface ItemColumns {
  /** The bank's date (pending transaction) or the date the record was made. */
  date: string | null;
  /** The moment as the bank stamped it (ISO, UTC): extended_timestamp, created_at. */
  at: string | null;
  account: string | null;
  description: string | null;
  /** The bank's decimal amount, unformatted (see formatMoney). */
  amount: string | null;
  type: string | null;
  source: string | null;
  status: string | null;
  product: string | null;
  ownership: string | null;
  /** The applicants as far as the record names them (ids, never personal data). */
  applicants: string | null;
  updated: string | null;
  event: string | null;
  object: string | null;
  attempt: string | null;
  error: string | null;
}

function field(record: unknown, name: string): string | null {
  if (typeof record !== 'object' || record === null) return null;
  const value = (record as Record<string, unknown>)[name];
  if (typeof value === 'string') return value === '' ? null : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

const EMPTY: ItemColumns = {
  date: null,
  at: null,
  account: null,
  description: null,
  amount: null,
  type: null,
  source: null,
  status: null,
  product: null,
  ownership: null,
  applicants: null,
  updated: null,
  event: null,
  object: null,
  attempt: null,
  error: null,
};

function applicantsOf(record: unknown): string | null {
  const people = (record as { person_applications?: unknown } | null)?.person_applications;
  const primary = field(record, 'primary_person_application_id');
  if (Array.isArray(people) && people.length > 0) {
    const count = people.length;
    return `${String(count)} ${count === 1 ? 'person' : 'people'}${primary === null ? '' : `, primary ${primary}`}`;
  }
  if (field(record, 'business_application_id') !== null)
    return `business ${field(record, 'business_application_id') ?? ''}`;
  return primary === null ? null : `primary ${primary}`;
}

export function itemColumnsOf(kind: ReviewKind, ref: string, record: unknown): ItemColumns {
  if (kind === 'pending-transaction') {
    return {
      ...EMPTY,
      date: field(record, 'date'),
      at: field(record, 'extended_timestamp') ?? field(record, 'extended_timestamp_precise'),
      account: field(record, 'account_id'),
      description: field(record, 'desc') ?? field(record, 'summary'),
      amount: field(record, 'amount'),
      type: field(record, 'type'),
      source: field(record, 'type_source'),
    };
  }
  if (kind === 'application') {
    const created = field(record, 'created_at');
    return {
      ...EMPTY,
      date: created?.slice(0, 10) ?? null,
      at: created,
      account: field(record, 'account_id'),
      status: field(record, 'status'),
      product: field(record, 'account_product_id'),
      ownership: field(record, 'ownership_type'),
      applicants: applicantsOf(record),
      updated: field(record, 'updated_at'),
    };
  }
  // A notification (every attempt at one event about one object): its last attempt speaks for it.
  const attempts = isNotificationRef(ref) ? (record as { attempts?: unknown } | null)?.attempts : undefined;
  const last: unknown = Array.isArray(attempts) ? attempts.at(-1) : record;
  const created = field(last, 'created_at');
  const attempt = field(last, 'attempt_number');
  return {
    ...EMPTY,
    date: created?.slice(0, 10) ?? null,
    at: created,
    event: field(record, 'event') ?? field(last, 'event'),
    object: field(record, 'object_id') ?? field(last, 'object_id'),
    status: field(last, 'status'),
    attempt:
      Array.isArray(attempts) && attempts.length > 0
        ? `${String(attempts.length)} ${attempts.length === 1 ? 'attempt' : 'attempts'}`
        : attempt === null
          ? null
          : `#${String(Number(attempt) + 1)}`,
    error: field(last, 'error'),
  };
}

/**
 * A decimal amount as people read it: thousands grouped, two decimals, a true minus sign kept
 * as ASCII so it pastes into a spreadsheet ("-1,234.50"). Never through a float: the bank's
 * string is regrouped as it is. Anything else is shown as the bank sent it.
 */
export function formatMoney(amount: string | null): string {
  if (amount === null) return '';
  const match = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(amount.trim());
  if (match === null) return amount;
  const [, sign = '', whole = '0', fraction = ''] = match;
  const grouped = whole.replace(/^0+(?=\d)/, '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign === '-' ? '-' : ''}${grouped}.${fraction.padEnd(2, '0')}`;
}

/** One line that says what the item is, for tables with little room. */
export function itemLine(kind: ReviewKind, columns: ItemColumns): string {
  const parts =
    kind === 'pending-transaction'
      ? [columns.description, columns.type]
      : kind === 'application'
        ? [columns.status, columns.product, columns.applicants]
        : [columns.event, columns.object, columns.status, columns.attempt];
  return parts.filter((part) => part !== null && part !== '').join(' · ');
}
