/**
 * The audit entries of a watch rule's flags (issue 23, item 2). A flag is a review like any
 * other (state `flagged`, version 1), so each item a rule flags gets its own chained entry in
 * the shape of a person's move (`review.flagged`, target `kind:ref`, detail `version 1, …`):
 * reviewRollbacks.ts then finds a flag row deleted from the file, or put back after a person
 * moved the item on, like any other review. The rule is named by its keyed reference only,
 * never its name (N10). A per-rule summary (`review.rule-flag`, target the rule's reference,
 * the count) is kept beside them: one line that says which rule flagged how many.
 */
import type { ReviewKind } from '../../../shared/review/reviewTerms.ts';
import type { NewAuditEntry } from '../audit/auditLog.ts';
import { versionDetail } from '../cache/reviewRollbacks.ts';

/** The benchmark's baseline and the older-cache test only: see ruleFlagEntriesAsBefore. */
let entriesOff = false;

/**
 * While on, a rule's flags are audited by the per-rule summary alone, as Ledgerdesk did before
 * per-item entries: the same-run baseline of tests/bench/ruleFlags.bench.ts, and the cache an
 * earlier version left in tests/security/ruleFlagRollback.test.ts. The app never calls this.
 */
export function ruleFlagEntriesAsBefore(off: boolean): void {
  entriesOff = off;
}

/** One entry per item the rule flagged (the version its flag made is 1), then the rule's summary. */
export function ruleFlagEntries(
  profileId: string,
  profileName: string,
  kind: ReviewKind,
  ruleRef: string,
  refs: readonly string[],
): NewAuditEntry[] {
  if (refs.length === 0) return [];
  const byRule = `flagged by watch rule ${ruleRef}`;
  const items: NewAuditEntry[] = entriesOff
    ? []
    : refs.map((ref) => ({
        profileId,
        profileName,
        action: 'review.flagged',
        target: `${kind}:${ref}`,
        result: 'ok',
        detail: versionDetail(1, byRule),
      }));
  items.push({
    profileId,
    profileName,
    action: 'review.rule-flag',
    target: ruleRef,
    result: 'ok',
    detail: `${refs.length.toLocaleString('en-US')} ${kind} ${refs.length === 1 ? 'item' : 'items'} flagged`,
  });
  return items;
}
