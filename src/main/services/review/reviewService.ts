/**
 * The officer's review of cached records: dispositions and notes, what changed since a review,
 * watch rules, the reviewer's name. Every disposition is one transaction with its audit-log
 * entries (the log is chained, so a review cannot be edited afterwards unnoticed); nothing is
 * written when any item of a selection is refused.
 */
import {
  REVIEW_KINDS,
  type ReviewReason,
  type Disposition,
  type ReviewKind,
  type ReviewState,
} from '../../../shared/review/reviewTerms.ts';
import type { WatchRule, WatchRuleInput } from '../../../shared/review/watchRule.ts';
import type { OfflineCache } from '../cache/offlineCache.ts';
import { versionDetail } from '../cache/reviewRollbacks.ts';
import type { SyncKind } from '../cache/syncCheckpoints.ts';
import { changedRefs } from './changedSinceReview.ts';
import { recordChanges, type FieldChange } from './recordChanges.ts';
import { ReviewedRecords } from './reviewedRecords.ts';
import { Reviewer } from './reviewer.ts';
import { checkedNote } from './reviewNote.ts';
import { ReviewProblem } from './reviewProblem.ts';
import { ruleFlagEntries } from './ruleFlagAudit.ts';
import { ReviewsTable, type Review, type ReviewListQuery, type ReviewStep } from './reviewsTable.ts';
import { ScreeningHits } from '../screening/screeningHits.ts';
import { WatchRules } from './watchRules.ts';

/** At most this many items take one disposition at once (a selection, or `--ref` repeated). */
const SELECTION_MAX = 10_000;

const REVIEW_KIND_OF_SYNC: Partial<Record<SyncKind, ReviewKind>> = {
  'pending-transactions': 'pending-transaction',
  'account-application': 'application',
  // The whole book (issue 24): its rules and changed reviews apply after it as after one application.
  applications: 'application',
  'webhook-sends': 'webhook-send',
};

export interface GiveReview {
  profileId: string;
  kind: ReviewKind;
  refs: readonly string[];
  disposition: Disposition;
  note?: string | null;
  /**
   * Why: `no-match` (a screening hit cleared as not the listed party) also whitelists the pair
   * until the applicant or the entry changes (screening/screeningHits.ts).
   */
  reason?: ReviewReason | null;
}

/** An item's review with everything the drawer shows. */
export interface ReviewDetail {
  review: Review | null;
  history: ReviewStep[];
  /** The record as reviewed (null when never reviewed by a person). */
  reviewedRecord: unknown;
  /** The record as cached now (null when the cache no longer holds it). */
  cachedRecord: unknown;
}

/** What a sync's aftermath did to the reviews. */
export interface AfterSync {
  changed: number;
  flaggedByRule: Record<string, number>;
}

export interface ReviewServiceOptions {
  cache: OfflineCache;
  /** The profile's name, for the audit log. */
  profileName: (profileId: string) => string;
  now?: () => Date;
}

export class ReviewService {
  readonly #cache: OfflineCache;
  readonly #profileName: (profileId: string) => string;
  readonly #now: () => Date;
  readonly table: ReviewsTable;
  readonly records: ReviewedRecords;
  readonly rules: WatchRules;
  readonly reviewer: Reviewer;
  readonly #hits: ScreeningHits;

  constructor(options: ReviewServiceOptions) {
    this.#cache = options.cache;
    this.#profileName = options.profileName;
    this.#now = options.now ?? (() => new Date());
    // Two keys: the record's rows (reviews, history, rules, settings) under the record's, the
    // bank's cached records (what a review was given on) under the cache's (issue 34).
    const recordSealer = () => options.cache.recordSealer;
    const cacheSealer = () => options.cache.sealer;
    this.table = new ReviewsTable(options.cache.database, recordSealer, options.cache.rowMacs, options.cache.ruleNames);
    this.records = new ReviewedRecords(options.cache.database, cacheSealer, recordSealer);
    this.rules = new WatchRules(
      options.cache.database,
      recordSealer,
      options.cache.rowMacs,
      options.cache.ruleNames,
      this.#now,
      cacheSealer,
    );
    this.reviewer = new Reviewer(options.cache.database, recordSealer);
    this.#hits = new ScreeningHits(options.cache.database, recordSealer);
  }

  /**
   * One disposition (and note) on every item given: each must be in the cache, or none is
   * written. The record each is given on is kept (sealed) with its digest, for "changed since".
   * An item the cache no longer holds but that was reviewed before (a pending transaction the
   * bank posted or released: its review is `changed`) can be reviewed again: the review keeps
   * the record last seen and no digest, since there is nothing left to compare.
   */
  give(input: GiveReview): Review[] {
    const note = checkedNote(input.note);
    const refs = [...new Set(input.refs)];
    if (refs.length === 0) throw new ReviewProblem('bad-ref', 'refs', 'Say which items to review (at least one ref).');
    if (refs.length > SELECTION_MAX) {
      throw new ReviewProblem(
        'bad-ref',
        'refs',
        `${refs.length.toLocaleString('en-US')} items were selected; one disposition covers at most ${SELECTION_MAX.toLocaleString('en-US')}.`,
      );
    }
    const reason = input.reason ?? null;
    if (reason !== null && (input.kind !== 'screening-hit' || input.disposition !== 'cleared')) {
      throw new ReviewProblem(
        'bad-reason',
        'reason',
        `"${reason}" is a reason for clearing a screening hit only (--kind screening-hit --disposition cleared); nothing was reviewed.`,
      );
    }
    const profileName = this.#profileName(input.profileId);
    const cached = this.records.find(input.profileId, input.kind, refs);
    const gone = this.table.lastKnown(
      input.profileId,
      input.kind,
      refs.filter((ref) => !cached.has(ref)),
    );
    const missing = refs.filter((ref) => !cached.has(ref) && !gone.has(ref));
    if (missing.length > 0) {
      const named =
        missing.slice(0, 3).join(', ') + (missing.length > 3 ? ` and ${String(missing.length - 3)} more` : '');
      throw new ReviewProblem(
        'not-cached',
        'refs',
        `No ${input.kind} ${named} is in the offline cache of ${profileName}; nothing was reviewed. Sync, or check the ref.`,
      );
    }
    const reviewer = this.reviewer.get().name;
    const at = this.#now().toISOString();
    return this.#cache.transaction(() => {
      const given = this.table.give(
        input.profileId,
        input.kind,
        refs.map((ref) => {
          const record = cached.get(ref);
          if (record !== undefined) {
            return {
              ref,
              accountId: record.accountId,
              postedAt: record.postedAt,
              digest: record.digest,
              record: record.record,
            };
          }
          const last = gone.get(ref);
          if (last === undefined) throw new Error(`unreachable: ${ref} was found above`);
          return { ref, ...last, digest: null };
        }),
        input.disposition,
        note,
        reviewer,
        at,
      );
      const hits: ReturnType<ScreeningHits['find']> =
        reason === 'no-match' ? this.#hits.find(input.profileId, refs) : new Map<string, never>();
      for (const review of given) {
        const hit = hits.get(review.ref);
        if (hit !== undefined) this.#hits.decideNoMatch(input.profileId, hit, at);
        const said = [reason === null ? null : `reason ${reason}`, note === null ? null : 'with a note'].filter(
          (part) => part !== null,
        );
        this.#cache.audit.record({
          profileId: input.profileId,
          profileName,
          action: `review.${input.disposition}`,
          target: `${input.kind}:${review.ref}`,
          result: 'ok',
          // The version it made: a review row put back to an earlier one is found (reviewRollbacks.ts).
          detail: versionDetail(review.version, said.length === 0 ? null : said.join(', ')),
        });
      }
      return given;
    });
  }

  /**
   * One item's review, its history, and the record as reviewed and as cached now. An item no
   * one reviewed has no review to compare: its record is the list's row, and is not looked up
   * (for a pending transaction that would be a walk of its profile's rows).
   */
  detail(profileId: string, kind: ReviewKind, ref: string): ReviewDetail {
    const review = this.table.get(profileId, kind, ref);
    if (review === null) return { review: null, history: [], reviewedRecord: null, cachedRecord: null };
    const cached = this.records.findReviewed(profileId, kind, [ref]).get(ref);
    const { record, ...standing } = review;
    return {
      review: standing,
      history: this.table.history(profileId, kind, ref),
      reviewedRecord: record,
      cachedRecord: cached?.record ?? null,
    };
  }

  /** The reviews of a page of rows, by ref (absent: unreviewed). */
  ofRefs(profileId: string, kind: ReviewKind, refs: readonly string[]): Map<string, Review> {
    return this.table.ofRefs(profileId, kind, refs);
  }

  /**
   * Reviews, most recently moved first. A rule's flag keeps no record of its own (no one
   * reviewed it): its row shows the record as cached, found where the flag says it is.
   */
  list(
    query: ReviewListQuery,
    onAltered?: (altered: { kind: ReviewKind; ref: string }) => void,
  ): ReturnType<ReviewsTable['list']> {
    const page = this.table.list(query, onAltered);
    const bare = page.rows.filter((row) => row.record === null);
    if (bare.length === 0) return page;
    const cached = new Map<string, unknown>();
    for (const kind of REVIEW_KINDS) {
      const refs = bare.filter((row) => row.kind === kind).map((row) => row.ref);
      if (refs.length === 0) continue;
      // With onAltered (the report), a record whose clear columns were changed is told, not thrown.
      const alteredRecord =
        onAltered === undefined
          ? undefined
          : (ref: string): void => {
              onAltered({ kind, ref });
            };
      for (const [ref, found] of this.records.findReviewed(query.profileId, kind, refs, alteredRecord))
        cached.set(`${kind}\u0000${ref}`, found.record);
    }
    return {
      ...page,
      rows: page.rows.map((row) =>
        row.record === null ? { ...row, record: cached.get(`${row.kind}\u0000${row.ref}`) ?? null } : row,
      ),
    };
  }

  counts(profileId: string, kind: ReviewKind): Record<ReviewState, number> {
    return this.table.counts(profileId, kind);
  }

  /**
   * After a sync of `syncKind` finished: reviews whose record changed become `changed` (with
   * what changed, field by field), then the profile's rules of that kind flag matching items
   * no one has reviewed. One transaction; each change and each item a rule flags is audited
   * (with the version it made, as a person's move is), and each rule's count.
   */
  afterSync(profileId: string, syncKind: SyncKind): AfterSync {
    const kind = REVIEW_KIND_OF_SYNC[syncKind];
    const result: AfterSync = { changed: 0, flaggedByRule: {} };
    if (kind === undefined) return result;
    if (kind === 'pending-transaction') this.table.relistPendingTransactions(profileId);
    const rules = this.rules.list(profileId).filter((rule) => rule.kind === kind);
    const refs = changedRefs(this.#cache.database, this.records, profileId, kind);
    if (refs.length === 0 && rules.length === 0) return result;
    const profileName = this.#profileName(profileId);
    const at = this.#now().toISOString();
    const current = this.records.find(profileId, kind, refs);
    this.#cache.transaction(() => {
      for (const ref of refs) {
        const reviewed = this.table.get(profileId, kind, ref);
        if (reviewed === null) continue;
        const changes = recordChanges(reviewed.record, current.get(ref)?.record ?? null);
        if (this.markChanged(profileId, kind, ref, changes, at, profileName) === null) continue;
        result.changed += 1;
      }
      for (const rule of rules) {
        const select = this.rules.selectOf(profileId, rule);
        if (select === null) continue;
        // The name stays sealed: tables and the audit log name the rule by its reference (N10).
        const ruleRef = this.rules.names.remember(profileId, rule.name);
        const flagged = this.table.flagByRule(profileId, kind, ruleRef, select, at);
        result.flaggedByRule[rule.name] = flagged.length;
        // One chained entry per item, in the flags' transaction: a flag row deleted is then found.
        this.#cache.audit.recordMany(ruleFlagEntries(profileId, profileName, kind, ruleRef, flagged));
      }
    });
    return result;
  }

  /**
   * Marks a review `changed` (the bank's record differs from the one reviewed) and audits the
   * move with the version it made, inside the caller's transaction: what afterSync does for each
   * changed item. Returns that version, or null when the item has no review with a record.
   */
  markChanged(
    profileId: string,
    kind: ReviewKind,
    ref: string,
    changes: FieldChange[],
    at: string,
    profileName = this.#profileName(profileId),
  ): number | null {
    const version = this.table.markChanged(profileId, kind, ref, changes, at);
    if (version === null) return null;
    this.#cache.audit.record({
      profileId,
      profileName,
      action: 'review.changed',
      target: `${kind}:${ref}`,
      result: 'ok',
      // The version it made: a review row put back to an earlier one is found (reviewRollbacks.ts).
      detail: versionDetail(
        version,
        `the bank's record changed since the review (${String(changes.length)} ${changes.length === 1 ? 'field' : 'fields'})`,
      ),
    });
    return version;
  }

  /**
   * A reviewed item whose record is now `current` (a screening hit found again on a changed
   * applicant or entry): its review is marked `changed` with what changed, field by field, in the
   * caller's transaction. Returns the version made, or null when the item has no review.
   */
  recordChanged(profileId: string, kind: ReviewKind, ref: string, current: unknown, at: string): number | null {
    const reviewed = this.table.get(profileId, kind, ref);
    if (reviewed === null) return null;
    return this.markChanged(profileId, kind, ref, recordChanges(reviewed.record, current), at);
  }

  saveRule(profileId: string, rule: WatchRuleInput): WatchRule {
    const saved = this.#cache.transaction(() => {
      const kept = this.rules.save(profileId, rule, this.#now().toISOString());
      this.#cache.audit.record({
        profileId,
        profileName: this.#profileName(profileId),
        action: 'rule.save',
        target: this.rules.names.refOf(profileId, kept.name),
        result: 'ok',
      });
      return kept;
    });
    return saved;
  }

  removeRule(profileId: string, name: string): void {
    this.#cache.transaction(() => {
      this.rules.remove(profileId, name);
      this.#cache.audit.record({
        profileId,
        profileName: this.#profileName(profileId),
        action: 'rule.remove',
        target: this.rules.names.refOf(profileId, name),
        result: 'ok',
      });
    });
  }

  /**
   * Records that a review report was written (after it was: the report quotes the chain as
   * it stood before this entry): who can later tell which report was made when, on what.
   */
  recordReport(
    profileId: string,
    report: { items: readonly unknown[]; chain: { lastId: number | null } },
    format: string,
  ): void {
    this.#cache.audit.record({
      profileId,
      profileName: this.#profileName(profileId),
      action: 'review.report',
      target: profileId,
      result: 'ok',
      detail: `${format}: ${String(report.items.length)} ${report.items.length === 1 ? 'item' : 'items'}, verified up to entry #${String(report.chain.lastId ?? 0)}`,
    });
  }

  /**
   * Sets the name reviews are signed with (null: the OS user name again). Audited without the
   * name itself: the log is in clear, the name is sealed with each review.
   */
  setReviewer(name: string | null): { name: string; source: 'os' | 'settings' } {
    return this.#cache.transaction(() => {
      const reviewer = this.reviewer.set(name);
      this.#cache.audit.record({
        profileId: '',
        profileName: '',
        action: 'reviewer.set',
        target: 'reviewer',
        result: 'ok',
        detail: name === null ? 'back to the OS user name' : 'a name set in Settings',
      });
      return reviewer;
    });
  }

  /**
   * Forgets the profile's reviews (with its cached data) and, when the profile goes, its rules.
   * The audit log says how many reviews went, so a report made later can be explained.
   */
  dropProfile(profileId: string, withRules: boolean): void {
    this.#cache.transaction(() => {
      const counts = REVIEW_KINDS.map((kind) => this.table.counts(profileId, kind));
      const reviews = counts.reduce(
        (sum, count) => sum + Object.values(count).reduce((total, one) => total + one, 0),
        0,
      );
      const rules = withRules ? this.rules.list(profileId).length : 0;
      this.table.dropProfile(profileId);
      if (withRules) this.rules.dropProfile(profileId);
      if (reviews > 0 || rules > 0) {
        this.#cache.audit.record({
          profileId,
          profileName: this.#profileName(profileId),
          action: 'reviews.drop',
          target: profileId,
          result: 'ok',
          detail: `${reviews.toLocaleString('en-US')} ${reviews === 1 ? 'review' : 'reviews'}${withRules ? ` and ${String(rules)} watch ${rules === 1 ? 'rule' : 'rules'}` : ''} dropped with the profile's cached data`,
        });
      }
    });
  }
}
