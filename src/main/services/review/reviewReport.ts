/**
 * The review report of a profile over a date range: how many items are in each state, by kind,
 * and every flagged, escalated and changed item with its note, its whole history and the record
 * as cached (or as reviewed, when the cache no longer holds it), with the audit log's
 * verification (its chain head, or the first entry that breaks the chain) as the report was made. Rendered as HTML (reportHtml.ts) and CSV
 * (reportCsv.ts).
 */
import { REVIEW_KINDS, REVIEW_STATES, type ReviewKind, type ReviewState } from '../../../shared/review/reviewTerms.ts';
import { unmaskedFieldsOf, type DisclosureClass } from '../../../shared/personalData/exportDisclosure.ts';
import { exportedApplicantsOf, type ExportedApplicant } from '../applicants/applicantExport.ts';
import type { OfflineCache } from '../cache/offlineCache.ts';
import type { AuditVerification } from '../audit/auditVerify.ts';
import type { ItemNames } from '../../../shared/review/itemNames.ts';
import { ItemNamer } from '../names/itemNamer.ts';
import { machineZone } from './reportTimes.ts';
import type { Review, ReviewStep } from './reviewsTable.ts';
import type { ReviewService } from './reviewService.ts';

/** States whose items the report lists one by one. */
export const REPORTED_STATES: readonly ReviewState[] = ['flagged', 'escalated', 'changed'];

export interface ReportedItem {
  review: Review;
  history: ReviewStep[];
  /** The record as cached now, or as reviewed when the cache no longer holds it. */
  record: unknown;
  recordSource: 'cache' | 'as reviewed';
  /** An application's applicants, masked as the profile says (applicantExport.ts); absent for other kinds. */
  applicants?: ExportedApplicant[];
  /** Who or what it is, from the cache: its account's name, its applicants' names (issue 38). */
  names: ItemNames;
}

export interface ReviewReport {
  profile: { id: string; name: string };
  /** YYYY-MM-DD, inclusive; null: from the first review. */
  from: string | null;
  /** YYYY-MM-DD, exclusive; null: up to now. */
  to: string | null;
  generatedAt: string;
  /** The time zone the report's times are printed in (the machine's unless told). */
  timeZone: string;
  reviewer: string;
  /** The classes of applicants' personal fields the profile lets reports print in clear (default none). */
  unmasked: DisclosureClass[];
  /** Items whose review last moved within the range, by kind and state. */
  counts: Record<ReviewKind, Record<ReviewState, number>>;
  items: ReportedItem[];
  /** The audit log checked when the report was made: ok with its chain head, or what breaks it. */
  chain: Pick<AuditVerification, 'ok' | 'entries' | 'head' | 'lastId'> & { problem: string | null };
}

const PAGE = 1000;

export async function buildReviewReport(
  cache: OfflineCache,
  reviews: ReviewService,
  options: {
    profileId: string;
    profileName: string;
    from?: string;
    to?: string;
    now?: Date;
    /** The profile's setting (Profile.exportUnmasked); absent: every personal field masked. */
    unmasked?: readonly DisclosureClass[];
    /** The zone its times are printed in; the machine's by default. */
    timeZone?: string;
  },
): Promise<ReviewReport> {
  // A locked record (its key lost) holds reviews that cannot be read: no report, not one that
  // says "0 flagged" over them.
  cache.requireReadableRecord();
  const unmaskedClasses = [...(options.unmasked ?? [])];
  const unmaskedFields = unmaskedFieldsOf(unmaskedClasses);
  const counts = Object.fromEntries(
    REVIEW_KINDS.map((kind) => [kind, Object.fromEntries(REVIEW_STATES.map((state) => [state, 0]))]),
  ) as Record<ReviewKind, Record<ReviewState, number>>;
  const items: ReportedItem[] = [];
  /** Each reported item's account, for its name (read once, at the end). */
  const accountOf = new Map<ReportedItem, string | null>();
  // Reviews changed in the file are not printed as items: audit verify (below) names them and
  // the report then says it is not verified.
  const altered: string[] = [];
  let cursor: string | null = null;
  do {
    const page = reviews.list(
      {
        profileId: options.profileId,
        ...(options.from === undefined ? {} : { fromDate: options.from }),
        ...(options.to === undefined ? {} : { toDate: options.to }),
        limit: PAGE,
        cursor,
      },
      (item) => altered.push(`${item.kind} ${item.ref}`),
    );
    // The cached records and the histories of the page's reported items: one read of each per
    // kind, not one per item.
    const cachedRecords = new Map<string, unknown>();
    const histories = new Map<string, ReviewStep[]>();
    for (const kind of REVIEW_KINDS) {
      const refs = page.rows
        .filter((row) => row.kind === kind && REPORTED_STATES.includes(row.state))
        .map((row) => row.ref);
      if (refs.length === 0) continue;
      // A cached record whose clear columns were changed in the file is left out (the item is
      // printed as reviewed) and the report is not verified.
      const alteredRecord = (ref: string): void => {
        altered.push(`${kind} ${ref}`);
      };
      for (const [ref, found] of reviews.records.findReviewed(options.profileId, kind, refs, alteredRecord))
        cachedRecords.set(`${kind}\u0000${ref}`, found.record);
      for (const [ref, steps] of reviews.table.histories(options.profileId, kind, refs))
        histories.set(`${kind}\u0000${ref}`, steps);
    }
    for (const listed of page.rows) {
      const { record: reviewedRecord, accountId, ...review } = listed;
      counts[review.kind][review.state] += 1;
      if (!REPORTED_STATES.includes(review.state)) continue;
      const key = `${review.kind}\u0000${review.ref}`;
      const cached = cachedRecords.has(key) ? { record: cachedRecords.get(key) } : undefined;
      const record = cached?.record ?? reviewedRecord;
      const item: ReportedItem = {
        review,
        history: histories.get(key) ?? [],
        record,
        recordSource: cached === undefined ? 'as reviewed' : 'cache',
        ...(review.kind === 'application'
          ? { applicants: exportedApplicantsOf(cache.applicants, options.profileId, review.ref, unmaskedFields) }
          : {}),
        names: {},
      };
      const recordAccount = (record as { account_id?: unknown } | null)?.account_id;
      accountOf.set(item, accountId ?? (typeof recordAccount === 'string' ? recordAccount : null));
      items.push(item);
    }
    cursor = page.nextCursor;
  } while (cursor !== null);
  // Names first (issue 38): every item's account and applicants, read in one pass.
  const names = new ItemNamer(cache).ofItems(
    options.profileId,
    items.map((item) => ({ kind: item.review.kind, ref: item.review.ref, accountId: accountOf.get(item) ?? null })),
  );
  items.forEach((item, index) => {
    item.names = names[index] ?? {};
  });
  const verification = await cache.audit.verify();
  const problem =
    verification.problem?.message ??
    (altered.length === 0
      ? null
      : `The reviews or cached records of ${[...new Set(altered)].join(', ')} were changed outside Ledgerdesk.`);
  return {
    profile: { id: options.profileId, name: options.profileName },
    from: options.from ?? null,
    to: options.to ?? null,
    generatedAt: (options.now ?? new Date()).toISOString(),
    timeZone: options.timeZone ?? machineZone(),
    reviewer: reviews.reviewer.get().name,
    unmasked: unmaskedClasses,
    counts,
    items,
    chain: {
      ok: verification.ok && altered.length === 0,
      entries: verification.entries,
      head: verification.head,
      lastId: verification.lastId,
      problem,
    },
  };
}
