/**
 * A review put back to an earlier version of itself (issue 23, item 2). The row MAC
 * (rowMacs.ts) proves a review row was written by Ledgerdesk, not that it is the latest one
 * Ledgerdesk wrote: someone with the file can copy an escalated item's row aside, let the
 * officer clear it, then put the old row (and its old MAC) back, or delete the row so the item
 * looks unreviewed. The chained, anchored audit log is what the file cannot roll back, so each
 * move of an item is written there with the version it made (`version N` at the start of the
 * entry's detail: review.cleared|flagged|escalated|changed, target `kind:ref`), and a review
 * is authentic only when it is the version and state its latest entry says:
 *   - the row's state is the entry's (a disposition, or `changed`) and its version the entry's;
 *   - no step of its history is newer than the row;
 *   - a row that is gone was dropped by an audited event after that entry (its profile's
 *     reviews dropped, the profile's cache cleared, the data key reset).
 * Checked when an item is opened or reviewed (one indexed lookup each, migration 22) and over
 * every item by `audit verify`. A watch rule's flag is such a move too (`review.flagged`,
 * version 1, one entry per item: ruleFlagAudit.ts). Entries written before this check carry no
 * version: an item whose latest entry is one of them is checked by its row MAC only, until its
 * baseline entry (below) is written.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { AuditChainProblem } from '../audit/auditVerify.ts';
import { recordFileWords } from '../record/recordWhere.ts';

/** The actions that move one item's review (the disposition given, or the record changed). */
const ITEM_ACTIONS = `action IN ('review.cleared', 'review.flagged', 'review.escalated', 'review.changed')`;
/** The actions after which an item's review may be gone without having been rolled back. */
const RESET_ACTIONS = `action IN ('reviews.drop', 'cache.clear', 'cache.data-key-reset')`;
/** Resets of every profile's reviews at once (the data key lost or changed: sealed tables emptied). */
export const DATA_KEY_RESET_ACTION = 'cache.data-key-reset';

/** Set in cache_meta once every person's review has a versioned entry (ReviewRollbacks.baseline). */
const BASELINE_MARK = 'review_baselines';
/** The same for the reviews watch rules made (flags), audited per item since ruleFlagAudit.ts. */
const RULE_FLAG_BASELINE_MARK = 'rule_flag_baselines';

/** The detail of an item's entry: `version N` first, then what the entry says. */
export function versionDetail(version: number, rest: string | null): string {
  return rest === null ? `version ${String(version)}` : `version ${String(version)}, ${rest}`;
}

function versionIn(detail: string | null): number | null {
  const found = detail === null ? null : /^version (\d+)\b/.exec(detail);
  return found === null ? null : Number(found[1]);
}

interface ItemEntry {
  id: number;
  action: string;
  detail: string | null;
}

interface StandingRow {
  state: string;
  version: number;
}

/** Why a review is not the one its latest entry says, or null when it is (or cannot be told). */
function mismatch(
  entry: ItemEntry,
  row: StandingRow | undefined,
  newestStep: number | null,
  resetAfter: boolean,
): string | null {
  const version = versionIn(entry.detail);
  if (version === null || resetAfter) return null;
  const state = entry.action.slice('review.'.length);
  if (row === undefined) {
    return `its review (${state}, version ${String(version)}, audit entry #${String(entry.id)}) was deleted`;
  }
  if (row.state !== state || row.version !== version || (newestStep !== null && newestStep > row.version)) {
    return `its review was put back to version ${String(row.version)} (${row.state}); the audit log's entry #${String(entry.id)} says version ${String(version)} (${state})`;
  }
  return null;
}

/** A review that is not the latest one Ledgerdesk wrote: put back to an earlier version, or deleted. */
export class ReviewRolledBack extends Error {
  readonly code = 'storage_error';
  readonly action: string;
  /** `where`: the file that holds the reviews, as a person reads it (record/recordWhere.ts). */
  constructor(what: string, why: string, where: string) {
    super(`${what} was changed in ${where} outside Ledgerdesk (${why}), so it is not shown or acted on.`);
    this.name = 'ReviewRolledBack';
    this.action = `Run \`ledger audit verify\` to list every altered review; restore ${where} from a trusted copy.`;
  }
}

export class ReviewRollbacks {
  readonly #latest: StatementSync;
  readonly #resetAfter: StatementSync;
  readonly #newestStep: StatementSync;
  readonly #database: DatabaseSync;

  constructor(database: DatabaseSync) {
    this.#database = database;
    this.#latest = database.prepare(
      `SELECT id, action, detail FROM audit_log WHERE ${ITEM_ACTIONS} AND profile_id = ? AND target = ?
       ORDER BY id DESC LIMIT 1`,
    );
    this.#resetAfter = database.prepare(
      `SELECT 1 FROM audit_log WHERE ${RESET_ACTIONS}
         AND ((action = '${DATA_KEY_RESET_ACTION}') OR profile_id = ?) AND id > ? LIMIT 1`,
    );
    this.#newestStep = database.prepare(
      'SELECT max(version) AS newest FROM review_history WHERE profile_id = ? AND kind = ? AND ref = ?',
    );
  }

  /**
   * Throws ReviewRolledBack unless the item's review (`row`, already MAC-checked; undefined
   * when the item has none) is the one its latest audit entry says.
   */
  check(profileId: string, kind: string, ref: string, row: StandingRow | undefined, what: () => string): void {
    const entry = this.#latest.get(profileId, `${kind}:${ref}`) as ItemEntry | undefined;
    if (entry === undefined || versionIn(entry.detail) === null) return;
    const resetAfter = this.#resetAfter.get(profileId, entry.id) !== undefined;
    const step =
      row === undefined ? null : (this.#newestStep.get(profileId, kind, ref) as { newest: number | null }).newest;
    const where = recordFileWords(this.#database);
    const why = mismatch(entry, row, step, resetAfter);
    if (why !== null) throw new ReviewRolledBack(what(), why, where);
  }

  /** Whether the item's review is the one its latest audit entry says (the report's filter). */
  holds(profileId: string, row: StandingRow & { kind: string; ref: string }): boolean {
    try {
      this.check(profileId, row.kind, row.ref, row, () => '');
      return true;
    } catch (error) {
      if (error instanceof ReviewRolledBack) return false;
      throw error;
    }
  }

  /**
   * Once per cache file (marked in cache_meta): a review whose latest entry carries no version
   * (written before versions were audited, or none at all) gets a baseline entry naming the
   * version and state it stands at now, so from here on it is checked like any other: put back
   * or deleted, it is found. Only rows whose MAC holds (`authentic`) are baselined; what was done
   * to a row before this moment cannot be told (as with the row MACs' own upgrade). A person's
   * reviews and a rule's flags have a mark each: rules' flags got per-item entries later
   * (ruleFlagAudit.ts), so a cache already baselined for people's reviews baselines its flags once.
   */
  baseline(
    authentic: (row: Record<string, unknown>) => boolean,
    record: (entry: { profileId: string; action: string; target: string; detail: string }) => void,
  ): number {
    return (
      this.#baselineOnce(BASELINE_MARK, 'rule_name IS NULL', authentic, record) +
      this.#baselineOnce(RULE_FLAG_BASELINE_MARK, 'rule_name IS NOT NULL', authentic, record)
    );
  }

  #baselineOnce(
    mark: string,
    which: string,
    authentic: (row: Record<string, unknown>) => boolean,
    record: (entry: { profileId: string; action: string; target: string; detail: string }) => void,
  ): number {
    const marked = this.#database.prepare('SELECT value FROM cache_meta WHERE key = ?').get(mark);
    if (marked !== undefined) return 0;
    const rows = this.#database.prepare(`SELECT * FROM reviews WHERE ${which} ORDER BY id`).all() as (Record<
      string,
      unknown
    > &
      StandingRow & { profile_id: string; kind: string; ref: string })[];
    let written = 0;
    this.#database.exec('SAVEPOINT review_baselines');
    try {
      for (const row of rows) {
        const entry = this.#latest.get(row.profile_id, `${row.kind}:${row.ref}`) as ItemEntry | undefined;
        if (entry !== undefined && versionIn(entry.detail) !== null) continue;
        if (!authentic(row)) continue;
        record({
          profileId: row.profile_id,
          action: `review.${row.state}`,
          target: `${row.kind}:${row.ref}`,
          detail: versionDetail(row.version, 'baseline: the review as it stood when its versions were first audited'),
        });
        written += 1;
      }
      this.#database.prepare('INSERT INTO cache_meta (key, value) VALUES (?, ?)').run(mark, String(written));
      this.#database.exec('RELEASE review_baselines');
    } catch (error) {
      this.#database.exec('ROLLBACK TO review_baselines');
      this.#database.exec('RELEASE review_baselines');
      throw error;
    }
    return written;
  }

  /** The check `audit verify` runs over every item the log has an entry of: the first five found, and how many. */
  problem(): AuditChainProblem | null {
    const resets = this.#database.prepare(
      `SELECT action, profile_id AS profileId, max(id) AS id FROM audit_log WHERE ${RESET_ACTIONS} GROUP BY action, profile_id`,
    );
    let everyProfileReset = 0;
    const profileReset = new Map<string, number>();
    for (const reset of resets.all() as { action: string; profileId: string; id: number }[]) {
      if (reset.action === DATA_KEY_RESET_ACTION) everyProfileReset = Math.max(everyProfileReset, reset.id);
      else profileReset.set(reset.profileId, Math.max(profileReset.get(reset.profileId) ?? 0, reset.id));
    }
    const latest = this.#database.prepare(
      `SELECT entry.id, entry.profile_id AS profileId, entry.target, entry.action, entry.detail
       FROM (SELECT max(id) AS id FROM audit_log WHERE ${ITEM_ACTIONS} GROUP BY profile_id, target) AS last
       JOIN audit_log AS entry ON entry.id = last.id`,
    );
    const review = this.#database.prepare(
      `SELECT state, version, (SELECT max(h.version) FROM review_history AS h
         WHERE h.profile_id = r.profile_id AND h.kind = r.kind AND h.ref = r.ref) AS newestStep
       FROM reviews AS r WHERE profile_id = ? AND kind = ? AND ref = ?`,
    );
    const where = recordFileWords(this.#database);
    const found: string[] = [];
    let total = 0;
    for (const entry of latest.iterate() as Iterable<ItemEntry & { profileId: string; target: string }>) {
      const split = entry.target.indexOf(':');
      if (split === -1 || versionIn(entry.detail) === null) continue;
      const kind = entry.target.slice(0, split);
      const ref = entry.target.slice(split + 1);
      const row = review.get(entry.profileId, kind, ref) as (StandingRow & { newestStep: number | null }) | undefined;
      const resetAfter = everyProfileReset > entry.id || (profileReset.get(entry.profileId) ?? 0) > entry.id;
      const why = mismatch(entry, row, row?.newestStep ?? null, resetAfter);
      if (why === null) continue;
      total += 1;
      if (found.length < 5) found.push(`${kind} ${ref} (profile ${entry.profileId}): ${why}`);
    }
    if (total === 0) return null;
    return {
      kind: 'review-altered',
      entryId: 0,
      entry: null,
      message: `The audit log does not verify: ${String(total)} ${total === 1 ? 'review was' : 'reviews were'} put back to an earlier version or deleted in ${where} outside Ledgerdesk (${found.join('; ')}${total > 5 ? '; …' : ''}).`,
    };
  }
}
