/**
 * Drift, kept (issue 14, item 3): what the bank's answers showed, per profile and resource —
 * records read, expected fields left out, fields the interface does not list — added up from
 * the BankClient's observations (fieldDrift.ts) and kept in the cache database. Counts are
 * gathered in memory and written every ten seconds in one short transaction (and before any
 * read), so a sync reading thousands of pages does not write once per page beside the cache
 * writer.
 *
 * Bounded (security review of 3b75e6a, I8): the field names come from the bank, so a bank
 * sending new names every day cannot grow the ledger without end. Each profile keeps at most
 * DRIFT_NAMES_PER_RESOURCE names per resource and DRIFT_NAME_BYTES_PER_PROFILE bytes of names
 * over all its resources; past either, the names seen longest ago (then the rarest) go, and the
 * resource's `droppedNames` says how many were let go, in the report, the CLI and Settings.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { DriftObservation } from '../bank/fieldDrift.ts';

interface FieldCount {
  field: string;
  /** Records that left it out (missing) or carried it (unknown). */
  count: number;
}

interface ResourceDrift {
  /** In the bank's words: `document`, `pending_transaction`, or `<resource> list` for a list's envelope. */
  resource: string;
  records: number;
  missing: FieldCount[];
  unknown: FieldCount[];
  /** Fields records carried in a form the interface does not allow (the records kept as received). */
  malformed: FieldCount[];
  /** Field names let go to keep the ledger bounded (the oldest first); 0 when none was. */
  droppedNames: number;
  firstSeen: string;
  lastSeen: string;
}

export interface DriftReport {
  profileId: string;
  /** Resources read, by name. */
  resources: ResourceDrift[];
  /** When the first of these counts began; null when nothing was read yet. */
  since: string | null;
}

type Kind = 'read' | 'missing' | 'unknown' | 'malformed' | 'dropped';

/** Field names kept per profile and resource (each at most 100 characters: fieldDrift.ts). */
export const DRIFT_NAMES_PER_RESOURCE = 200;
/** Bytes of field names kept per profile, over all its resources. */
export const DRIFT_NAME_BYTES_PER_PROFILE = 64 * 1024;

const NAMED_KINDS = "kind IN ('missing', 'unknown', 'malformed')";

interface Pending {
  count: number;
  first: string;
  last: string;
}

// Rare enough that a sync, whose writer holds the write lock most of the time, hardly ever waits for it.
const FLUSH_AFTER_MS = 10_000;

export class DriftLedger {
  readonly #database: DatabaseSync;
  readonly #now: () => Date;
  readonly #upsert: StatementSync;
  /** `profile \0 resource \0 kind \0 field` → counts not written yet. */
  readonly #pending = new Map<string, Pending>();
  #timer: ReturnType<typeof setTimeout> | null = null;
  #closed = false;

  constructor(database: DatabaseSync, now: () => Date = () => new Date()) {
    this.#database = database;
    this.#now = now;
    this.#upsert = database.prepare(
      `INSERT INTO bank_drift (profile_id, resource, kind, field, count, first_seen, last_seen)
       VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (profile_id, resource, kind, field)
       DO UPDATE SET count = count + excluded.count, last_seen = excluded.last_seen`,
    );
  }

  /** Adds what one answer showed (from a BankClient's onDrift). */
  observe(profileId: string, observation: DriftObservation): void {
    if (this.#closed) return;
    const at = this.#now().toISOString();
    this.#add(profileId, observation.resource, 'read', '', observation.records, at);
    for (const [field, count] of Object.entries(observation.missing)) {
      this.#add(profileId, observation.resource, 'missing', field, count, at);
    }
    for (const [field, count] of Object.entries(observation.unknown)) {
      this.#add(profileId, observation.resource, 'unknown', field, count, at);
    }
    for (const [field, count] of Object.entries(observation.malformed ?? {})) {
      this.#add(profileId, observation.resource, 'malformed', field, count, at);
    }
    this.#timer ??= setTimeout(() => {
      this.#timer = null;
      this.#flushQuietly();
    }, FLUSH_AFTER_MS);
    this.#timer.unref();
  }

  #add(profileId: string, resource: string, kind: Kind, field: string, count: number, at: string): void {
    const key = [profileId, resource, kind, field].join('\0');
    const pending = this.#pending.get(key);
    if (pending === undefined) this.#pending.set(key, { count, first: at, last: at });
    else {
      pending.count += count;
      pending.last = at;
    }
  }

  /** Writes the counts gathered so far. Waits for a transaction another part has open to end first. */
  flush(): void {
    if (this.#pending.size === 0 || this.#database.isTransaction) return;
    const entries = [...this.#pending.entries()];
    this.#pending.clear();
    this.#database.exec('BEGIN IMMEDIATE');
    try {
      const touched = new Map<string, Set<string>>();
      let at = '';
      for (const [key, pending] of entries) {
        const [profileId = '', resource = '', kind = '', field = ''] = key.split('\0');
        this.#upsert.run(profileId, resource, kind, field, pending.count, pending.first, pending.last);
        if (kind !== 'read') {
          const resources = touched.get(profileId) ?? new Set<string>();
          resources.add(resource);
          touched.set(profileId, resources);
        }
        if (pending.last > at) at = pending.last;
      }
      for (const [profileId, resources] of touched) this.#bound(profileId, resources, at);
      this.#database.exec('COMMIT');
    } catch (error) {
      this.#database.exec('ROLLBACK');
      // Kept for the next flush: a busy or full database loses no count.
      for (const [key, pending] of entries) {
        const again = this.#pending.get(key);
        if (again === undefined) this.#pending.set(key, pending);
        else again.count += pending.count;
      }
      throw error;
    }
  }

  /** Lets the oldest names go past the caps (inside flush's transaction), counting them per resource. */
  #bound(profileId: string, resources: ReadonlySet<string>, at: string): void {
    const dropped = new Map<string, number>();
    const drop = (resource: string, kind: string, field: string): void => {
      this.#database
        .prepare('DELETE FROM bank_drift WHERE profile_id = ? AND resource = ? AND kind = ? AND field = ?')
        .run(profileId, resource, kind, field);
      dropped.set(resource, (dropped.get(resource) ?? 0) + 1);
    };
    for (const resource of resources) {
      const { names } = this.#database
        .prepare(`SELECT COUNT(*) AS names FROM bank_drift WHERE profile_id = ? AND resource = ? AND ${NAMED_KINDS}`)
        .get(profileId, resource) as { names: number };
      if (names <= DRIFT_NAMES_PER_RESOURCE) continue;
      const oldest = this.#database
        .prepare(
          `SELECT kind, field FROM bank_drift WHERE profile_id = ? AND resource = ? AND ${NAMED_KINDS}
           ORDER BY last_seen, count, field LIMIT ?`,
        )
        .all(profileId, resource, names - DRIFT_NAMES_PER_RESOURCE) as { kind: string; field: string }[];
      for (const row of oldest) drop(resource, row.kind, row.field);
    }
    const { bytes } = this.#database
      .prepare(
        `SELECT COALESCE(SUM(length(CAST(field AS BLOB))), 0) AS bytes FROM bank_drift WHERE profile_id = ? AND ${NAMED_KINDS}`,
      )
      .get(profileId) as { bytes: number };
    let over = bytes - DRIFT_NAME_BYTES_PER_PROFILE;
    if (over > 0) {
      const oldest = this.#database
        .prepare(
          `SELECT resource, kind, field, length(CAST(field AS BLOB)) AS bytes FROM bank_drift
           WHERE profile_id = ? AND ${NAMED_KINDS} ORDER BY last_seen, count, field`,
        )
        .iterate(profileId) as Iterable<{ resource: string; kind: string; field: string; bytes: number }>;
      const chosen: { resource: string; kind: string; field: string }[] = [];
      for (const row of oldest) {
        if (over <= 0) break;
        chosen.push(row);
        over -= Math.max(row.bytes, 1);
      }
      for (const row of chosen) drop(row.resource, row.kind, row.field);
    }
    for (const [resource, count] of dropped) {
      this.#upsert.run(profileId, resource, 'dropped', '', count, at, at);
    }
  }

  #flushQuietly(): void {
    try {
      this.flush();
    } catch {
      // Counts stay pending; the next observation or read tries again.
    }
  }

  report(profileId: string): DriftReport {
    this.#flushQuietly();
    const rows = this.#database
      .prepare(
        `SELECT resource, kind, field, count, first_seen, last_seen FROM bank_drift
         WHERE profile_id = ? ORDER BY resource, kind, count DESC, field`,
      )
      .all(profileId) as {
      resource: string;
      kind: Kind;
      field: string;
      count: number;
      first_seen: string;
      last_seen: string;
    }[];
    const byResource = new Map<string, ResourceDrift>();
    for (const row of rows) {
      let entry = byResource.get(row.resource);
      if (entry === undefined) {
        entry = {
          resource: row.resource,
          records: 0,
          missing: [],
          unknown: [],
          malformed: [],
          droppedNames: 0,
          firstSeen: row.first_seen,
          lastSeen: row.last_seen,
        };
        byResource.set(row.resource, entry);
      }
      if (row.first_seen < entry.firstSeen) entry.firstSeen = row.first_seen;
      if (row.last_seen > entry.lastSeen) entry.lastSeen = row.last_seen;
      if (row.kind === 'read') entry.records = row.count;
      else if (row.kind === 'dropped') entry.droppedNames = row.count;
      else entry[row.kind].push({ field: row.field, count: row.count });
    }
    const resources = [...byResource.values()];
    const since = resources.reduce<string | null>(
      (earliest, resource) => (earliest === null || resource.firstSeen < earliest ? resource.firstSeen : earliest),
      null,
    );
    return { profileId, resources, since };
  }

  /** Starts the counts of a profile over (after the bank changed, or to measure from now). */
  reset(profileId: string): void {
    for (const key of [...this.#pending.keys()]) if (key.startsWith(`${profileId}\0`)) this.#pending.delete(key);
    this.#database.prepare('DELETE FROM bank_drift WHERE profile_id = ?').run(profileId);
  }

  close(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
    this.#flushQuietly();
    this.#closed = true;
  }
}
