/**
 * Watch rules, per profile, sealed in the cache (a rule may name a customer or a merchant),
 * and how each becomes one SQL SELECT of the items it matches: on clear columns (amount, type,
 * type source, statuses, attempt numbers) and, for words of a description, the keyed search
 * tokens, so matching a million rows after a sync never opens a sealed body.
 */
import type { DatabaseSync } from 'node:sqlite';
import { parseWith } from '../../../shared/bank/index.ts';
import { citizenshipsOf, watchRule, type WatchRule, type WatchRuleInput } from '../../../shared/review/watchRule.ts';
import { APPLICANT_MATCHES_FUNCTION, type ApplicantConditions } from '../cache/applicantRuleMatch.ts';
import { centsOf } from '../cache/money.ts';
import type { RowMacs } from '../cache/rowMacs.ts';
import { watchRuleIdentity, type RuleNames } from '../cache/ruleNames.ts';
import type { RecordSealer } from '../cache/sealing.ts';
import { SearchTokens } from '../cache/searchTokens.ts';
import { Statements } from '../cache/statements.ts';
import { ReviewProblem } from './reviewProblem.ts';

/** A rule's matches: rows of (ref, account_id, posted_at). */
export interface RuleSelect {
  sql: string;
  parameters: (string | number | null)[];
}

export class WatchRules {
  readonly #sealer: () => RecordSealer;
  /** The cache's sealer: a rule's words are matched against the cache's keyed search words. */
  readonly #searchSealer: () => RecordSealer;
  readonly #statements: Statements;
  readonly #macs: RowMacs;
  readonly #now: () => Date;
  /** Names sealed, rows keyed by reference (N10). */
  readonly names: RuleNames;

  constructor(
    database: DatabaseSync,
    sealer: () => RecordSealer,
    macs: RowMacs,
    names: RuleNames,
    now: () => Date = () => new Date(),
    searchSealer: () => RecordSealer = sealer,
  ) {
    this.#now = now;
    this.#sealer = sealer;
    this.#searchSealer = searchSealer;
    this.#statements = new Statements(database);
    this.#macs = macs;
    this.names = names;
  }

  /** A profile's rules, by name (the column holds the name's reference, so they are sorted here). */
  list(profileId: string): WatchRule[] {
    const rows = this.#statements
      .get('SELECT profile_id, name, kind, created_at, body, row_mac FROM watch_rules WHERE profile_id = ?')
      .all(profileId) as { name: string; body: Uint8Array }[];
    const sealer = this.#sealer();
    return rows
      .map((row) => {
        this.#macs.check('watch_rules', row, () => 'A watch rule');
        return sealer.openJson(row.body, watchRuleIdentity(profileId, row.name)) as WatchRule;
      })
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Adds a rule, or replaces the one of the same name; refuses an invalid one, naming the field. */
  save(profileId: string, input: WatchRuleInput, at: string): WatchRule {
    const parsed = parseWith(watchRule, input);
    if (!parsed.ok)
      throw new ReviewProblem('bad-rule', 'rule', `The watch rule is not valid: ${parsed.problems.join('; ')}`);
    const rule = parsed.value;
    const ref = this.names.remember(profileId, rule.name);
    const body = this.#sealer().sealJson(rule, watchRuleIdentity(profileId, ref));
    const kept = this.#statements
      .get('SELECT created_at FROM watch_rules WHERE profile_id = ? AND name = ?')
      .get(profileId, ref) as { created_at: string } | undefined;
    const createdAt = kept?.created_at ?? at;
    this.#statements
      .get(
        `INSERT INTO watch_rules (profile_id, name, kind, created_at, body, row_mac) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (profile_id, name) DO UPDATE SET kind = excluded.kind, body = excluded.body, row_mac = excluded.row_mac`,
      )
      .run(
        profileId,
        ref,
        rule.kind,
        createdAt,
        body,
        this.#macs.of('watch_rules', [profileId, ref, rule.kind, createdAt, body]),
      );
    return rule;
  }

  /** Removes a rule; the flags it made stay (they are history). */
  remove(profileId: string, name: string): void {
    const removed = this.#statements
      .get('DELETE FROM watch_rules WHERE profile_id = ? AND name = ?')
      .run(profileId, this.names.refOf(profileId, name));
    if (removed.changes === 0)
      throw new ReviewProblem('no-such-rule', 'name', `There is no watch rule named "${name}".`);
  }

  dropProfile(profileId: string): void {
    this.#statements.get('DELETE FROM watch_rules WHERE profile_id = ?').run(profileId);
    this.names.dropProfile(profileId);
  }

  /** The conditions a rule puts on an application's people; null when it puts none. */
  #peopleConditions(rule: WatchRule): ApplicantConditions | null {
    if (
      rule.applicantYoungerThan === undefined &&
      rule.applicantOlderThan === undefined &&
      rule.citizenshipOutside === undefined
    )
      return null;
    return {
      today: this.#now().toISOString().slice(0, 10),
      ...(rule.applicantYoungerThan === undefined ? {} : { youngerThan: rule.applicantYoungerThan }),
      ...(rule.applicantOlderThan === undefined ? {} : { olderThan: rule.applicantOlderThan }),
      ...(rule.citizenshipOutside === undefined ? {} : { citizenships: citizenshipsOf(rule.citizenshipOutside) }),
    };
  }

  /** The SELECT of the items a rule matches in a profile's cache; null when it cannot match any. */
  selectOf(profileId: string, rule: WatchRule): RuleSelect | null {
    const where: string[] = [];
    const parameters: (string | number | null)[] = [profileId];
    if (rule.kind === 'pending-transaction') {
      if (rule.amountBeyond !== undefined) {
        const cents = centsOf(rule.amountBeyond);
        where.push(cents < 0 ? 'p.amount_cents <= ?' : 'p.amount_cents >= ?');
        parameters.push(cents);
      }
      if (rule.type !== undefined) {
        where.push('p.type = ?');
        parameters.push(rule.type);
      }
      if (rule.typeSource !== undefined) {
        where.push('p.type_source = ?');
        parameters.push(rule.typeSource);
      }
      if (rule.descriptionHas !== undefined) {
        const sealer = this.#searchSealer();
        const match = new SearchTokens((text, bytes) => sealer.keyedHash(text, bytes)).matchOf(rule.descriptionHas);
        if (match === null) return null;
        where.push('p.id IN (SELECT rowid FROM pending_transaction_search WHERE pending_transaction_search MATCH ?)');
        parameters.push(match);
      }
      return {
        sql: `SELECT p.row_key AS ref, s.account_id AS account_id, p.posted_at AS posted_at
              FROM pending_transaction_scopes AS s CROSS JOIN pending_transactions AS p ON p.scope = s.id
              WHERE s.profile_id = ?${where.map((clause) => ` AND ${clause}`).join('')}`,
        parameters,
      };
    }
    if (rule.kind === 'application') {
      if (rule.applicationStatus !== undefined) {
        where.push('status = ?');
        parameters.push(rule.applicationStatus);
      }
      const people = this.#peopleConditions(rule);
      if (people !== null) {
        // One person of the application meeting every condition (applicantRuleMatch.ts).
        where.push(`application_id IN (SELECT link.application_id FROM application_applicants AS link
          JOIN applicants AS person ON person.profile_id = link.profile_id AND person.applicant_id = link.applicant_id
          WHERE link.profile_id = ? AND person.kind = 'person' AND person.body IS NOT NULL
            AND ${APPLICANT_MATCHES_FUNCTION}(person.profile_id, person.applicant_id, person.body, ?) = 1)`);
        parameters.push(profileId, JSON.stringify(people));
      }
      return {
        sql: `SELECT application_id AS ref, NULL AS account_id, NULL AS posted_at FROM account_applications
              WHERE profile_id = ?${where.map((clause) => ` AND ${clause}`).join('')}`,
        parameters,
      };
    }
    if (rule.sendStatus !== undefined) {
      where.push('status = ?');
      parameters.push(rule.sendStatus);
    }
    if (rule.attemptAtLeast !== undefined) {
      where.push('attempt_number >= ?');
      parameters.push(rule.attemptAtLeast);
    }
    return {
      sql: `SELECT send_id AS ref, NULL AS account_id, NULL AS posted_at FROM webhook_sends
            WHERE profile_id = ?${where.map((clause) => ` AND ${clause}`).join('')}`,
      parameters,
    };
  }
}
