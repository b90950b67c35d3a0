/**
 * Paging by date, for a list whose records have no id when the bank sends no page_next
 * (conventions.md "What a client must tolerate": real lists may send only `{data}`; a pending
 * transaction has no id, so `page_cursor` = the last id cannot work). The list is newest first
 * and filters on the records' creation date (`from_date` inclusive, `to_date` exclusive), so:
 *
 *   1. a full page whose oldest record was made on day D is complete for every day after D:
 *      those records are kept, the ones of day D are left for step 2 — unless the page holds
 *      nothing but day D (a page of one record, or a busy day): then it is kept whole, and
 *      step 2 skips as many records as it kept;
 *   2. day D is asked for on its own (`from_date` D, `to_date` D+1), in a page of the largest
 *      size: a short page is all of it; a full one means more than that many records on one day,
 *      which cannot be read without the bank's cursor: the walk fails and says so, rather than
 *      keep part of a day and take it for all of it;
 *   3. the walk goes on before D (`to_date` D), from step 1.
 *
 * Each step's cursor says where the walk is (`ledgerdesk-by-date:day:D`, `…:day:D:N` with N
 * records of day D already kept, `…:before:D`), so a stopped sync resumes there like with a
 * bank's own cursor. A record fetched twice is possible only when day D gains records between
 * steps 1 and 2 and step 1 held only day D (the newest of D are then skipped as if kept, to be
 * found by the next sync): the cache keeps a record once whatever the number of times it is read.
 */
import { PAGE_SIZE_MAX } from '../../../shared/bank/index.ts';

const DATE_STEP_PREFIX = 'ledgerdesk-by-date:';

export type DateStep = { kind: 'day'; date: string; skip: number } | { kind: 'before'; date: string };

export interface DateRange {
  /** YYYY-MM-DD, inclusive. */
  fromDate?: string;
  /** YYYY-MM-DD, exclusive. */
  toDate?: string;
}

const STEP =
  /^ledgerdesk-by-date:(?:(day):([0-9]{4}-[0-9]{2}-[0-9]{2})(?::([0-9]{1,4}))?|(before):([0-9]{4}-[0-9]{2}-[0-9]{2}))$/;

export function isDateStep(cursor: string): boolean {
  return cursor.startsWith(DATE_STEP_PREFIX);
}

export function encodeDateStep(step: DateStep): string {
  if (step.kind === 'day' && step.skip > 0) return `${DATE_STEP_PREFIX}day:${step.date}:${String(step.skip)}`;
  return `${DATE_STEP_PREFIX}${step.kind}:${step.date}`;
}

/** The step a cursor of ours names; null for a bank's cursor (or none). Throws on a damaged one of ours. */
export function decodeDateStep(cursor: string | null): DateStep | null {
  if (cursor === null || !isDateStep(cursor)) return null;
  const match = STEP.exec(cursor);
  if (match === null) throw new RangeError(`Not a date cursor of Ledgerdesk: ${cursor}`);
  if (match[1] === 'day') return { kind: 'day', date: match[2] ?? '', skip: Number(match[3] ?? 0) };
  return { kind: 'before', date: match[5] ?? '' };
}

function dayAfter(date: string): string {
  const next = new Date(`${date}T00:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10);
}

/** The dates and page size to ask for at a step of the walk over `range`. */
export function requestOfStep(
  step: DateStep | null,
  range: DateRange,
  pageSize: number,
): { range: DateRange; pageSize: number } {
  if (step === null) return { range, pageSize };
  if (step.kind === 'day')
    return { range: { fromDate: step.date, toDate: dayAfter(step.date) }, pageSize: PAGE_SIZE_MAX };
  return {
    range: { ...(range.fromDate === undefined ? {} : { fromDate: range.fromDate }), toDate: step.date },
    pageSize,
  };
}

export type DateWalk<Item> = { ok: true; items: Item[]; next: DateStep | null } | { ok: false; problem: string };

/**
 * What to keep of a page of the walk and where to go next.
 * @param full whether the page holds as many records as were asked for
 * @param dateOf a record's creation date (YYYY-MM-DD), or null when it does not say
 */
export function walkOn<Item>(
  items: readonly Item[],
  full: boolean,
  step: DateStep | null,
  range: DateRange,
  dateOf: (item: Item) => string | null,
): DateWalk<Item> {
  if (step?.kind === 'day') {
    if (full) {
      return {
        ok: false,
        problem: `more than ${String(PAGE_SIZE_MAX)} records on ${step.date} and no page_next: the bank gives no way to read the rest of that day`,
      };
    }
    const more = range.fromDate === undefined || range.fromDate < step.date;
    // The newest `skip` of the day were kept from the page before.
    return { ok: true, items: items.slice(step.skip), next: more ? { kind: 'before', date: step.date } : null };
  }
  if (!full) return { ok: true, items: [...items], next: null };
  const last = items.at(-1);
  const oldest = last === undefined ? null : dateOf(last);
  if (oldest === null) {
    return { ok: false, problem: 'no page_next, and the last record has no date to page on by' };
  }
  // Day `oldest` comes whole at the next step; every later day is complete here.
  const complete = items.filter((item) => dateOf(item) !== oldest);
  if (complete.length > 0) return { ok: true, items: complete, next: { kind: 'day', date: oldest, skip: 0 } };
  // Nothing but day `oldest`: kept, and skipped at the next step.
  return { ok: true, items: [...items], next: { kind: 'day', date: oldest, skip: items.length } };
}
