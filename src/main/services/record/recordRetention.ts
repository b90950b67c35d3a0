/**
 * How long the officer's record is kept (issue 34, item 5): a retention per profile, counted in
 * years after each review (five by default), and a legal hold that suspends every purge. Kept in
 * the record's own file, so clearing or losing the cache never changes them.
 */
import type { RecordStore } from './recordStore.ts';
import { RecordError } from './recordError.ts';

const DEFAULT_RETENTION_YEARS = 5;
const MAX_RETENTION_YEARS = 100;

export interface LegalHold {
  reason: string;
  placedAt: string;
}

export class RecordRetention {
  readonly #record: RecordStore;
  readonly #now: () => Date;

  constructor(record: RecordStore, now: () => Date = () => new Date()) {
    this.#record = record;
    this.#now = now;
  }

  /** The profile's retention in years (the default when none was set). */
  years(profileId: string): number {
    const row = this.#record.database
      .prepare('SELECT years FROM record_retention WHERE profile_id = ?')
      .get(profileId) as { years: number } | undefined;
    return row?.years ?? DEFAULT_RETENTION_YEARS;
  }

  setYears(profileId: string, years: number): void {
    if (!Number.isInteger(years) || years < 1 || years > MAX_RETENTION_YEARS) {
      throw new RecordError(
        'invalid',
        `A retention is a whole number of years from 1 to ${String(MAX_RETENTION_YEARS)}; ${String(years)} is not one.`,
      );
    }
    this.#record.transaction(() => {
      this.#record.database
        .prepare(
          `INSERT INTO record_retention (profile_id, years, updated_at) VALUES (?, ?, ?)
           ON CONFLICT (profile_id) DO UPDATE SET years = excluded.years, updated_at = excluded.updated_at`,
        )
        .run(profileId, years, this.#now().toISOString());
    });
  }

  hold(): LegalHold | null {
    const row = this.#record.database.prepare('SELECT reason, placed_at FROM record_hold WHERE id = 1').get() as
      { reason: string; placed_at: string } | undefined;
    return row === undefined ? null : { reason: row.reason, placedAt: row.placed_at };
  }

  placeHold(reason: string): LegalHold {
    const why = reason.trim();
    if (why === '')
      throw new RecordError('invalid', 'Say why the record is held (--reason "…"): the audit log keeps it.');
    const placedAt = this.#now().toISOString();
    this.#record.transaction(() => {
      this.#record.database
        .prepare(
          `INSERT INTO record_hold (id, reason, placed_at) VALUES (1, ?, ?)
           ON CONFLICT (id) DO UPDATE SET reason = excluded.reason, placed_at = excluded.placed_at`,
        )
        .run(why, placedAt);
    });
    return { reason: why, placedAt };
  }

  /** Lifts the hold; false when there was none. */
  liftHold(): boolean {
    return this.#record.transaction(
      () => this.#record.database.prepare('DELETE FROM record_hold WHERE id = 1').run().changes > 0,
    );
  }

  /** The moment before which a profile's reviews have outlived their retention. */
  cutoff(profileId: string): Date {
    const cutoff = new Date(this.#now());
    cutoff.setUTCFullYear(cutoff.getUTCFullYear() - this.years(profileId));
    return cutoff;
  }
}
