/**
 * Record migration 3 (issue 40, item 2): screening hits kept as review items, and the
 * officer's "no match" decisions. Nothing of the record is dropped: the reviews table is rebuilt
 * row for row (same ids, bodies, MACs) only so its kind may also be `screening-hit`, since
 * SQLite cannot widen a CHECK in place; its indexes and count triggers are made again as 001 made
 * them, and review_counts, untouched, still counts every row.
 */
import type { Migration } from '../../migrations/migrationRunner.ts';

export const migration: Migration = {
  version: 3,
  name: 'screening hits, the no-match whitelist, and reviews of hits',
  sql: `
      CREATE TABLE reviews_with_hits (
              id INTEGER PRIMARY KEY,
              profile_id TEXT NOT NULL,
              kind TEXT NOT NULL CHECK (kind IN ('pending-transaction', 'application', 'webhook-send', 'screening-hit')),
              ref TEXT NOT NULL,
              account_id TEXT,
              posted_at TEXT,
              state TEXT NOT NULL CHECK (state IN ('cleared', 'flagged', 'escalated', 'changed')),
              rule_name TEXT,
              record_digest TEXT,
              version INTEGER NOT NULL,
              updated_at TEXT NOT NULL,
              body BLOB,
              row_listed INTEGER NOT NULL DEFAULT 1 CHECK (row_listed IN (0, 1)),
              row_mac TEXT) STRICT;
      INSERT INTO reviews_with_hits
              (id, profile_id, kind, ref, account_id, posted_at, state, rule_name, record_digest, version,
               updated_at, body, row_listed, row_mac)
        SELECT id, profile_id, kind, ref, account_id, posted_at, state, rule_name, record_digest, version,
               updated_at, body, row_listed, row_mac FROM reviews;
      DROP TABLE reviews;
      ALTER TABLE reviews_with_hits RENAME TO reviews;

      CREATE INDEX reviews_by_listed_state ON reviews (profile_id, kind, account_id, row_listed, state);
      CREATE INDEX reviews_by_queue_part ON reviews (profile_id, kind, state, account_id, rule_name);
      CREATE INDEX reviews_by_row_time ON reviews (profile_id, kind, account_id, state, posted_at, ref);
      CREATE INDEX reviews_by_state ON reviews (profile_id, kind, state, updated_at, id);
      CREATE INDEX reviews_by_time ON reviews (profile_id, updated_at, id);
      CREATE INDEX reviews_flagged_by_person ON reviews (profile_id, kind, state, updated_at, id)
              WHERE rule_name IS NULL;
      CREATE INDEX reviews_flagged_by_rule ON reviews (profile_id, kind, state, updated_at, id)
              WHERE rule_name IS NOT NULL;
      CREATE UNIQUE INDEX reviews_identity ON reviews (profile_id, kind, ref);

      CREATE TRIGGER reviews_counted AFTER INSERT ON reviews BEGIN
              INSERT INTO review_counts (profile_id, kind, account_key, state, by_rule, row_listed, total)
                VALUES (new.profile_id, new.kind, coalesce(new.account_id, ''), new.state, new.rule_name IS NOT NULL,
                  new.row_listed, 1)
                ON CONFLICT DO UPDATE SET total = total + 1;
            END;
      CREATE TRIGGER reviews_recounted
              AFTER UPDATE OF profile_id, kind, account_id, state, rule_name, row_listed ON reviews BEGIN
              UPDATE review_counts SET total = total - 1
                WHERE profile_id = old.profile_id AND kind = old.kind AND account_key = coalesce(old.account_id, '')
                  AND state = old.state AND by_rule = (old.rule_name IS NOT NULL) AND row_listed = old.row_listed;
              INSERT INTO review_counts (profile_id, kind, account_key, state, by_rule, row_listed, total)
                VALUES (new.profile_id, new.kind, coalesce(new.account_id, ''), new.state, new.rule_name IS NOT NULL,
                  new.row_listed, 1)
                ON CONFLICT DO UPDATE SET total = total + 1;
            END;
      CREATE TRIGGER reviews_uncounted AFTER DELETE ON reviews BEGIN
              UPDATE review_counts SET total = total - 1
                WHERE profile_id = old.profile_id AND kind = old.kind AND account_key = coalesce(old.account_id, '')
                  AND state = old.state AND by_rule = (old.rule_name IS NOT NULL) AND row_listed = old.row_listed;
            END;

      -- One applicant matching one list entry, kept from the first run that found it. ref is the
      -- review item's ref (the applicant, the list, the entry). The list version and digest, the
      -- score, and the applicant's and the entry's digests are those of the last run that found
      -- it; body holds the applicant (masked) and the entry side by side with the score's parts,
      -- sealed with the record's key under the hit's identity. state 'gone': a newer version of the
      -- list no longer holds the entry (gone_note says which list, since when); never deleted.
      CREATE TABLE screening_hits (
              profile_id TEXT NOT NULL,
              ref TEXT NOT NULL,
              applicant_id TEXT NOT NULL,
              list_source TEXT NOT NULL,
              entry_uid TEXT NOT NULL,
              list_version INTEGER NOT NULL,
              list_digest TEXT NOT NULL,
              score REAL NOT NULL,
              applicant_digest TEXT NOT NULL,
              entry_digest TEXT NOT NULL,
              state TEXT NOT NULL CHECK (state IN ('open', 'gone')),
              gone_note TEXT,
              found_at TEXT NOT NULL,
              screened_at TEXT NOT NULL,
              body BLOB NOT NULL,
              PRIMARY KEY (profile_id, ref)
            ) STRICT, WITHOUT ROWID;
      CREATE INDEX screening_hits_by_entry ON screening_hits (list_source, entry_uid, state);
      CREATE INDEX screening_hits_by_state ON screening_hits (profile_id, state, score);

      -- "No match": the officer cleared a hit with that reason. The pair is not a hit again while
      -- the applicant's digest and the entry's digest are still the two it was decided on.
      CREATE TABLE screening_no_match (
              profile_id TEXT NOT NULL,
              applicant_id TEXT NOT NULL,
              list_source TEXT NOT NULL,
              entry_uid TEXT NOT NULL,
              applicant_digest TEXT NOT NULL,
              entry_digest TEXT NOT NULL,
              decided_at TEXT NOT NULL,
              PRIMARY KEY (profile_id, applicant_id, list_source, entry_uid)
            ) STRICT, WITHOUT ROWID;

      -- Which applicant was last screened as which record (its digest) against which lists
      -- (their digests, joined): a run screens only the applicants new or changed since, or all
      -- of them when a list has a new version.
      CREATE TABLE screening_screened (
              profile_id TEXT NOT NULL,
              applicant_id TEXT NOT NULL,
              applicant_digest TEXT NOT NULL,
              lists_key TEXT NOT NULL,
              threshold REAL NOT NULL,
              screened_at TEXT NOT NULL,
              PRIMARY KEY (profile_id, applicant_id)
            ) STRICT, WITHOUT ROWID;
  `,
};
