/**
 * The second half of the move out of the cache (recordCopy.ts): what the cache sealed under its
 * data key is sealed again under the record's own key, inside the copy's transaction, so the
 * record no longer depends on a key the cache may lose (a data-key reset drops only the cache).
 *
 * - watch-rule names: each name opened, its keyed reference made again under the record's key,
 *   the name sealed under the new reference; every rule, review and step of history naming the
 *   old reference is renamed with it;
 * - the bodies of watch rules, reviews and their history (conditions, notes, the record as
 *   reviewed) and the sealed review settings (the reviewer's name);
 * - the row MACs (cache/rowMacs.ts): made again under the record's key only where the row was
 *   authentic under the cache's, so a row altered in the file stays reported as altered.
 *
 * A body that does not open under the cache's key is left as it was (it opens under no key now,
 * and is reported when read), never dropped. The audit log is not touched: its chain key is its
 * own, and its entries keep naming a rule by the reference it had when they were written.
 */
import type { DatabaseSync } from 'node:sqlite';
import { AUTHENTICATED_COLUMNS, RowMacs, type AuthenticatedTable } from '../cache/rowMacs.ts';
import { nameIdentity, RuleNames, watchRuleIdentity } from '../cache/ruleNames.ts';
import type { RecordSealer } from '../cache/sealing.ts';
import { reviewIdentity, stepIdentity } from '../review/reviewIdentity.ts';

type Row = Record<string, string | number | null | Uint8Array>;

export interface Resealed {
  /** Rows sealed again under the record's key, per table. */
  resealed: Record<string, number>;
  /** Rows whose body did not open under the cache's key: kept as they were. */
  leftAsTheyWere: number;
}

/** Re-seals, in `database` (the record's connection, inside the copy's transaction), from the cache's key to the record's. */
export function resealRecord(database: DatabaseSync, from: RecordSealer, to: RecordSealer): Resealed {
  const fromMacs = new RowMacs(() => from);
  const toMacs = new RowMacs(() => to);
  const toNames = new RuleNames(database, () => to);
  const result: Resealed = { resealed: {}, leftAsTheyWere: 0 };
  const counted = (table: string) => {
    result.resealed[table] = (result.resealed[table] ?? 0) + 1;
  };
  /** Opens `sealed` under the cache's key and seals it under the record's; null when it does not open. */
  const moved = (sealed: Uint8Array, identity: string, newIdentity: string): Buffer | null => {
    try {
      return to.seal(from.open(sealed, identity), newIdentity);
    } catch {
      result.leftAsTheyWere += 1;
      return null;
    }
  };

  // Rule references first: every other table is renamed by this map.
  const refs = new Map<string, string>();
  const names = database.prepare('SELECT profile_id, ref, name FROM watch_rule_names').all() as Row[];
  const renameName = database.prepare('UPDATE watch_rule_names SET ref = ?, name = ? WHERE profile_id = ? AND ref = ?');
  for (const row of names) {
    const profileId = String(row['profile_id']);
    const ref = String(row['ref']);
    let name: string;
    try {
      name = from.open(row['name'] as Uint8Array, nameIdentity(profileId, ref)).toString('utf8');
    } catch {
      result.leftAsTheyWere += 1;
      continue;
    }
    const newRef = toNames.refOf(profileId, name);
    refs.set(`${profileId}\u0000${ref}`, newRef);
    renameName.run(newRef, to.seal(name, nameIdentity(profileId, newRef)), profileId, ref);
    counted('watch_rule_names');
  }
  const refOf = (profileId: string, ref: string | null): string | null =>
    ref === null ? null : (refs.get(`${profileId}\u0000${ref}`) ?? ref);

  /** One table's rows: new body, new rule reference, and a new MAC where the old one held. */
  const resealTable = (
    table: AuthenticatedTable,
    key: readonly string[],
    identityOf: (row: Row, ref: string) => string,
    ruleColumn: 'rule_name' | 'name',
  ) => {
    const columns = AUTHENTICATED_COLUMNS[table];
    const rows = database
      .prepare(`SELECT ${[...new Set([...columns, ...key])].join(', ')}, row_mac FROM ${table}`)
      .all() as Row[];
    const update = database.prepare(
      `UPDATE ${table} SET ${ruleColumn} = ?, body = ?, row_mac = ? WHERE ${key.map((column) => `${column} = ?`).join(' AND ')}`,
    );
    for (const row of rows) {
      const profileId = String(row['profile_id']);
      const oldRule = row[ruleColumn] as string | null;
      const newRule = refOf(profileId, oldRule);
      const body = row['body'] as Uint8Array | null;
      const identityRef = ruleColumn === 'name' ? String(oldRule) : '';
      const newBody =
        body === null
          ? null
          : (moved(body, identityOf(row, identityRef), identityOf(row, ruleColumn === 'name' ? String(newRule) : '')) ??
            body);
      const next: Row = { ...row, [ruleColumn]: newRule, body: newBody };
      const mac = fromMacs.holds(table, row)
        ? toMacs.of(
            table,
            columns.map((column) => next[column] ?? null),
          )
        : (row['row_mac'] ?? null);
      update.run(newRule, newBody, mac, ...key.map((column) => row[column] ?? null));
      counted(table);
    }
  };
  resealTable(
    'watch_rules',
    ['profile_id', 'name'],
    (row, ref) => watchRuleIdentity(String(row['profile_id']), ref),
    'name',
  );
  resealTable(
    'reviews',
    ['id'],
    (row) => reviewIdentity(String(row['profile_id']), String(row['kind']), String(row['ref'])),
    'rule_name',
  );
  resealTable(
    'review_history',
    ['profile_id', 'kind', 'ref', 'version'],
    (row) => stepIdentity(String(row['profile_id']), String(row['kind']), String(row['ref']), Number(row['version'])),
    'rule_name',
  );

  // The review settings are sealed text in base64 (review/reviewer.ts), each under its name.
  const settings = database.prepare('SELECT name, value FROM review_settings').all() as {
    name: string;
    value: string;
  }[];
  const setSetting = database.prepare('UPDATE review_settings SET value = ? WHERE name = ?');
  for (const setting of settings) {
    const identity = `review_settings\u0000${setting.name}`;
    const sealed = moved(Buffer.from(setting.value, 'base64'), identity, identity);
    if (sealed === null) continue;
    setSetting.run(sealed.toString('base64'), setting.name);
    counted('review_settings');
  }
  return result;
}
