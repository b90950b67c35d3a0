/**
 * Watch-rule names sealed at rest (the security review of 3b75e6a, N10). A rule's name may name a
 * customer or a merchant ("Payments to Acme Holdings"), so no table holds it in clear: the rules,
 * the reviews a rule flagged and their history name the rule by a keyed reference
 * (`rule#` and 16 base64url characters of an HMAC of the profile and the name under the data
 * key: the same name always gets the same reference, so SQL still filters, counts and joins on
 * it, and the row MACs cover it), and `watch_rule_names` keeps each name sealed under its
 * reference. A rule's flags outlive the rule (they are history), so its name is kept until
 * the profile's rules go. Audit entries name a rule by the same reference.
 *
 * Files written before: their names are turned into references once, on the first open
 * (marked in cache_meta.rule_names), re-sealing each rule's conditions under its new identity
 * and carrying each row's MAC over only where it was authentic (an altered row stays altered).
 */
import type { DatabaseSync } from 'node:sqlite';
import { AUTHENTICATED_COLUMNS, rowMacSql, type RowMacs } from './rowMacs.ts';
import type { RecordSealer } from './sealing.ts';
import { Statements } from './statements.ts';

/** The SQL function giving a rule's reference: ledgerdesk_rule_ref(profile_id, name). */
export const RULE_REF_FUNCTION = 'ledgerdesk_rule_ref';

const UPGRADED_MARK = 'rule_names';

const REF_PREFIX = 'rule#';

/** The identity a rule's conditions are sealed under (its reference, never its name). */
export function watchRuleIdentity(profileId: string, ref: string): string {
  return `watch_rule\u0000${profileId}\u0000${ref}`;
}

/** The identity a rule's name is sealed under. */
export function nameIdentity(profileId: string, ref: string): string {
  return `watch_rule_name\u0000${profileId}\u0000${ref}`;
}

export class RuleNames {
  readonly #sealer: () => RecordSealer;
  readonly #statements: Statements;
  /** Names opened this session, per profile and reference (a page of flags names few rules). */
  readonly #opened = new Map<string, string>();

  constructor(database: DatabaseSync, sealer: () => RecordSealer) {
    this.#sealer = sealer;
    this.#statements = new Statements(database);
  }

  /** A rule's reference in a profile: what every table and audit entry names it by. */
  refOf(profileId: string, name: string): string {
    return REF_PREFIX + this.#sealer().keyedHash(`watch-rule-name\u0000${profileId}\u0000${name}`, 12);
  }

  /** The reference of a rule's name, its name kept sealed under it (once). */
  remember(profileId: string, name: string): string {
    const ref = this.refOf(profileId, name);
    const sealed = this.#sealer().seal(name, nameIdentity(profileId, ref));
    this.#statements
      .get('INSERT INTO watch_rule_names (profile_id, ref, name) VALUES (?, ?, ?) ON CONFLICT DO NOTHING')
      .run(profileId, ref, sealed);
    this.#opened.set(`${profileId}\u0000${ref}`, name);
    return ref;
  }

  /**
   * The name a reference stands for; the reference itself when no name is kept for it (or the
   * kept one is not the name the reference was made from: swapped in the file).
   */
  nameOf(profileId: string, ref: string): string {
    const key = `${profileId}\u0000${ref}`;
    const known = this.#opened.get(key);
    if (known !== undefined) return known;
    const row = this.#statements
      .get('SELECT name FROM watch_rule_names WHERE profile_id = ? AND ref = ?')
      .get(profileId, ref) as { name: Uint8Array } | undefined;
    if (row === undefined) return ref;
    let name: string;
    try {
      name = this.#sealer().open(row.name, nameIdentity(profileId, ref)).toString('utf8');
    } catch {
      return ref;
    }
    if (this.refOf(profileId, name) !== ref) return ref;
    this.#opened.set(key, name);
    return name;
  }

  /** Forgets a profile's names (its rules and reviews went with it). */
  dropProfile(profileId: string): void {
    this.#statements.get('DELETE FROM watch_rule_names WHERE profile_id = ?').run(profileId);
    for (const key of this.#opened.keys()) if (key.startsWith(`${profileId}\u0000`)) this.#opened.delete(key);
  }

  /** Registers the SQL function and, once per file, turns the names of earlier versions into references. */
  install(database: DatabaseSync, macs: RowMacs, upgrade = true): void {
    database.function(RULE_REF_FUNCTION, { deterministic: true }, (profileId, name) =>
      name === null ? null : this.refOf(String(profileId), String(name)),
    );
    // Moved into the record (record/recordCopy.ts), the names were references before: never again.
    if (!upgrade) return;
    const mark = database.prepare('SELECT value FROM cache_meta WHERE key = ?').get(UPGRADED_MARK);
    if (mark !== undefined) return;
    database.exec('BEGIN IMMEDIATE');
    try {
      this.#upgradeRules(database, macs);
      for (const table of ['reviews', 'review_history'] as const) {
        const names = database
          .prepare(`SELECT DISTINCT profile_id, rule_name FROM ${table} WHERE rule_name IS NOT NULL`)
          .all() as { profile_id: string; rule_name: string }[];
        for (const row of names) this.remember(row.profile_id, row.rule_name);
        const ref = `${RULE_REF_FUNCTION}(profile_id, rule_name)`;
        database.exec(
          `UPDATE ${table} SET rule_name = ${ref},
             row_mac = CASE WHEN row_mac = ${rowMacSql(table)} THEN ${rowMacSql(table, '', { rule_name: ref })} ELSE row_mac END
           WHERE rule_name IS NOT NULL`,
        );
      }
      database.prepare('INSERT INTO cache_meta (key, value) VALUES (?, ?)').run(UPGRADED_MARK, '1');
      database.exec('COMMIT');
    } catch (error) {
      if (database.isTransaction) database.exec('ROLLBACK');
      throw error;
    }
  }

  /** Each rule: its name to a reference, its conditions re-sealed under the reference's identity. */
  #upgradeRules(database: DatabaseSync, macs: RowMacs): void {
    const rules = database
      .prepare(`SELECT ${AUTHENTICATED_COLUMNS.watch_rules.join(', ')}, row_mac FROM watch_rules`)
      .all() as {
      profile_id: string;
      name: string;
      kind: string;
      created_at: string;
      body: Uint8Array;
      row_mac: string | null;
    }[];
    const update = database.prepare(
      'UPDATE watch_rules SET name = ?, body = ?, row_mac = ? WHERE profile_id = ? AND name = ?',
    );
    const sealer = this.#sealer();
    for (const rule of rules) {
      const ref = this.remember(rule.profile_id, rule.name);
      const authentic = macs.holds('watch_rules', rule);
      let body: Uint8Array = rule.body;
      try {
        const plain = sealer.open(rule.body, `watch_rule\u0000${rule.profile_id}\u0000${rule.name}`);
        body = sealer.seal(plain, watchRuleIdentity(rule.profile_id, ref));
      } catch {
        // Left as it is: it opens under no identity now, and is reported when read.
      }
      const mac = authentic
        ? macs.of('watch_rules', [rule.profile_id, ref, rule.kind, rule.created_at, body])
        : (rule.row_mac ?? '');
      update.run(ref, body, mac, rule.profile_id, rule.name);
    }
  }
}
