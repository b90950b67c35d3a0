/**
 * What a person reads of a reviewable item, from the bank's record as cached or as reviewed:
 * a pending transaction's date and time, account, description, amount, type and source; an
 * application's status, product, ownership, applicants and dates; a send's event, object,
 * status, attempt and error. Shared by the command line, the review report and the screens,
 * so an item reads the same everywhere. Records are the bank's, read tolerantly: a field the
 * bank did not send is null.
 */
import {
  accountLabel,
  applicantsHeading,
  applicantWithRoles,
  codeWords,
  productLabel,
  type ItemNames,
} from './itemNames.ts';
import { isNotificationRef, type ReviewKind } from './reviewTerms.ts';
import { listSourceName } from '../screening/listNames.ts';
import { asHitRecord } from '../screening/screeningHit.ts';

export interface ItemColumns {
  /** The bank's date (pending transaction) or the date the record was made. */
  date: string | null;
  /** The moment as the bank stamped it (ISO, UTC): extended_timestamp, created_at. */
  at: string | null;
  /** The account's id (the record's). */
  account: string | null;
  /** The account as a person reads it ("Card settlement ••0880"), when the record names one. */
  accountName: string | null;
  description: string | null;
  /** The bank's decimal amount, unformatted (see formatMoney). */
  amount: string | null;
  type: string | null;
  source: string | null;
  status: string | null;
  /** The account product's id. */
  product: string | null;
  /** The account product as read ("Personal checking"), or said to be unnamed. */
  productName: string | null;
  ownership: string | null;
  /** Who applied, in a few words ("Frances Knuth and 1 more"), from the application book. */
  applicantName: string | null;
  /** The applicants with their roles ("Frances Knuth, primary; Ada Byron, signer"), or how many. */
  applicants: string | null;
  updated: string | null;
  event: string | null;
  object: string | null;
  attempt: string | null;
  error: string | null;
  /** A screening hit's score, two decimals. */
  score: string | null;
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
  accountName: null,
  description: null,
  amount: null,
  type: null,
  source: null,
  status: null,
  product: null,
  productName: null,
  ownership: null,
  applicantName: null,
  applicants: null,
  updated: null,
  event: null,
  object: null,
  attempt: null,
  error: null,
  score: null,
};

/** The applicants in words: by name and role from the book, else only how many (never their ids). */
function applicantsOf(record: unknown, names: ItemNames | undefined): string | null {
  if (names?.applicants !== undefined && names.applicants !== null && names.applicants.length > 0) {
    return names.applicants.map(applicantWithRoles).join('; ');
  }
  const people = (record as { person_applications?: unknown } | null)?.person_applications;
  if (Array.isArray(people) && people.length > 0) {
    return `${String(people.length)} ${people.length === 1 ? 'person' : 'people'}, not fetched yet`;
  }
  if (field(record, 'business_application_id') !== null) return 'a business, not fetched yet';
  return field(record, 'primary_person_application_id') === null ? null : 'a person, not fetched yet';
}

/**
 * @param names what the cache knows beside the record (ItemNames): with them the account, the
 *   applicants and the product are named; without them they are said to be unknown, never ids.
 */
export function itemColumnsOf(kind: ReviewKind, ref: string, record: unknown, names?: ItemNames): ItemColumns {
  const account = field(record, 'account_id');
  const accountName = account === null ? null : names?.account === undefined ? null : accountLabel(names.account);
  if (kind === 'pending-transaction') {
    return {
      ...EMPTY,
      date: field(record, 'date'),
      at: field(record, 'extended_timestamp') ?? field(record, 'extended_timestamp_precise'),
      account,
      accountName,
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
      account,
      accountName,
      status: field(record, 'status'),
      product: field(record, 'account_product_id'),
      productName: field(record, 'account_product_id') === null ? null : productLabel(field(record, 'product')),
      ownership: field(record, 'ownership_type'),
      applicantName: applicantsHeading(names?.applicants),
      applicants: applicantsOf(record, names),
      updated: field(record, 'updated_at'),
    };
  }
  if (kind === 'screening-hit') {
    const hit = asHitRecord(record);
    if (hit === null) return { ...EMPTY };
    return {
      ...EMPTY,
      date: hit.foundAt.slice(0, 10),
      at: hit.foundAt,
      applicantName: hit.applicant.names[0] ?? null,
      description: `${hit.entry.name} (${listSourceName(hit.entry.source)} ${hit.entry.uid})`,
      status: hit.state === 'gone' ? (hit.goneNote ?? 'entry no longer on the list') : 'open',
      score: hit.score.toFixed(2),
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

/**
 * One line that says what the item is, for tables with little room: who or what first, then its
 * state in words ("Frances Knuth · manual review · Personal checking"), never an id first.
 */
export function itemLine(kind: ReviewKind, columns: ItemColumns): string {
  const parts =
    kind === 'pending-transaction'
      ? [columns.description, codeWords(columns.type)]
      : kind === 'application'
        ? [columns.applicantName, codeWords(columns.status), columns.productName]
        : kind === 'screening-hit'
          ? [
              columns.applicantName,
              columns.description,
              columns.score === null ? null : `score ${columns.score}`,
              columns.status,
            ]
          : [columns.event, codeWords(columns.status), columns.attempt, columns.object];
  return parts.filter((part) => part !== null && part !== '').join(' · ');
}
