/**
 * What a rule would flag over the cache now, before it is saved (issue 40): for a watch rule
 * on items (watchRule.ts) and for a pattern rule over sets (patternRule.ts), the counts — items
 * matched, those already reviewed (a rule never flags an item a person or a rule already
 * reviewed), those it would flag — and the first items or sets. Nothing is written: the rule
 * is not saved, no item is flagged, no audit entry is made.
 *
 * An invalid rule is refused as when saving it (ReviewProblem 'bad-rule', naming the field).
 */
import type { DatabaseSync } from 'node:sqlite';
import { parseWith } from '../../../shared/bank/index.ts';
import { describePatternRule, patternRule, type PatternRuleInput } from '../../../shared/review/patternRule.ts';
import type { ReviewKind } from '../../../shared/review/reviewTerms.ts';
import { describeRule, watchRule, type WatchRuleInput } from '../../../shared/review/watchRule.ts';
import type { OfflineCache } from '../cache/offlineCache.ts';
import { PatternRuleEvaluator, type FlaggedSet } from './patternRules.ts';
import { ReviewProblem } from './reviewProblem.ts';
import { WatchRules } from './watchRules.ts';

const PREVIEW_FIRST = 20;

interface PreviewCounts {
  /** Items the rule's conditions match. */
  matched: number;
  /** Of those, items already reviewed or flagged (left as they are). */
  alreadyReviewed: number;
  /** Items the rule would flag now. */
  wouldFlag: number;
}

interface PreviewItem {
  ref: string;
  accountId: string | null;
  postedAt: string | null;
}

export interface WatchRulePreview {
  rule: string;
  kind: ReviewKind;
  counts: PreviewCounts;
  /** The first items it would flag, in the cache's order. */
  first: PreviewItem[];
}

export interface PatternRulePreview {
  rule: string;
  kind: ReviewKind;
  counts: PreviewCounts & { sets: number };
  /** The first sets, each with its items. */
  firstSets: FlaggedSet[];
}

function refused(problems: string[]): never {
  throw new ReviewProblem('bad-rule', 'rule', `The rule is not valid: ${problems.join('; ')}`);
}

/** How many of these refs of a kind have a review (in chunks: a preview may count 100,000). */
function reviewedAmong(database: DatabaseSync, profileId: string, kind: ReviewKind, refs: readonly string[]): number {
  const statement = database.prepare(
    `SELECT count(*) AS n FROM reviews WHERE profile_id = ? AND kind = ? AND ref IN (SELECT value FROM json_each(?))`,
  );
  let total = 0;
  for (let start = 0; start < refs.length; start += 10_000)
    total += (statement.get(profileId, kind, JSON.stringify(refs.slice(start, start + 10_000))) as { n: number }).n;
  return total;
}

export class RulePreviews {
  readonly #cache: OfflineCache;
  readonly #rules: WatchRules;
  readonly #patterns: PatternRuleEvaluator;

  constructor(cache: OfflineCache, now: () => Date = () => new Date()) {
    this.#cache = cache;
    this.#rules = new WatchRules(
      cache.database,
      () => cache.recordSealer,
      cache.rowMacs,
      cache.ruleNames,
      now,
      () => cache.sealer,
    );
    this.#patterns = new PatternRuleEvaluator(cache.database, () => cache.sealer);
  }

  watchRule(profileId: string, input: WatchRuleInput, first = PREVIEW_FIRST): WatchRulePreview {
    const parsed = parseWith(watchRule, input);
    if (!parsed.ok) refused(parsed.problems);
    const rule = parsed.value;
    const select = this.#rules.selectOf(profileId, rule);
    const description = describeRule(rule);
    if (select === null)
      return {
        rule: description,
        kind: rule.kind,
        counts: { matched: 0, alreadyReviewed: 0, wouldFlag: 0 },
        first: [],
      };
    const database = this.#cache.database;
    const matched = (
      database.prepare(`SELECT count(*) AS n FROM (${select.sql})`).get(...select.parameters) as { n: number }
    ).n;
    // The reviews the rule's matches hold, found from the reviews' side (a profile has far
    // fewer reviews than cached rows): each review's item checked against the rule.
    const alreadyReviewed = (
      database
        .prepare(
          `SELECT count(*) AS n FROM reviews AS r
           WHERE r.profile_id = ? AND r.kind = ? AND EXISTS (SELECT 1 FROM (${select.sql}) AS m WHERE m.ref = r.ref)`,
        )
        .get(profileId, rule.kind, ...select.parameters) as { n: number }
    ).n;
    const rows = database
      .prepare(
        `SELECT m.ref AS ref, m.account_id AS account_id, m.posted_at AS posted_at FROM (${select.sql}) AS m
         WHERE NOT EXISTS (SELECT 1 FROM reviews AS r WHERE r.profile_id = ? AND r.kind = ? AND r.ref = m.ref)
         LIMIT ?`,
      )
      .all(...select.parameters, profileId, rule.kind, first) as {
      ref: string;
      account_id: string | null;
      posted_at: string | null;
    }[];
    return {
      rule: description,
      kind: rule.kind,
      counts: { matched, alreadyReviewed, wouldFlag: matched - alreadyReviewed },
      first: rows.map((row) => ({ ref: row.ref, accountId: row.account_id, postedAt: row.posted_at })),
    };
  }

  patternRule(profileId: string, input: PatternRuleInput, firstSets = 10): PatternRulePreview {
    const parsed = parseWith(patternRule, input);
    if (!parsed.ok) refused(parsed.problems);
    const rule = parsed.value;
    const kind: ReviewKind = rule.template === 'shared-applicant-field' ? 'application' : 'pending-transaction';
    const all = this.#patterns.evaluate(profileId, rule);
    const refs = [
      ...new Set(
        all.sets.flatMap((set) => (set.kind === 'shared-field' ? set.applications : set.items.map((item) => item.ref))),
      ),
    ];
    const alreadyReviewed = reviewedAmong(this.#cache.database, profileId, kind, refs);
    return {
      rule: describePatternRule(rule),
      kind,
      counts: { sets: all.setCount, matched: refs.length, alreadyReviewed, wouldFlag: refs.length - alreadyReviewed },
      firstSets: all.sets.slice(0, firstSets),
    };
  }
}
