/**
 * This laptop's side of team mode, in its cache file (cache migrations 16 and 29): the verified
 * copy of the team's history (team_events), the review of each item as the team's rules decided
 * it (team_reviews), the wrapped team keys, the officers' keys as first seen, the members this
 * officer acknowledged, and the outbox of actions not yet answered by the server. Reads are
 * named queries; writes come from TeamSync (a verified, re-decided page at a time, one SQLite
 * transaction each) and from TeamDesk (a queued action).
 */
import type { DatabaseSync, SQLInputValue } from 'node:sqlite';
import type { TeamEventRow } from '../crypto/teamCanonical.ts';
import { EVENT_FIELDS, eventFieldValues, TEAM_GENESIS } from '../crypto/teamCanonical.ts';
import { RowAltered } from '../../cache/rowMacs.ts';
import type { ReviewSource, TouchedReview } from '../rules/historyJudge.ts';
import { NEW_ITEM, projectItem, type ItemState } from '../rules/itemRules.ts';
import type { Role } from '../rules/teamMembership.ts';
import { isItemKind } from '../teamTerms.ts';

/**
 * What this build's rules made of the mirror's reviews: 0, rows of a build before issue 35; 1,
 * rebuilt from the verified events; 2, every event re-decided by this build's rules.
 */
export const RULES_REBUILT = 1;
export const RULES_JUDGED = 2;

export type OutboxState = 'queued' | 'ok' | 'conflict' | 'refused';

export interface OutboxRow {
  position: number;
  eventId: string;
  workspace: string;
  kind: string;
  ref: string;
  action: string;
  payload: string;
  state: OutboxState;
  seq: number | null;
  detail: string | null;
  queuedAt: string;
  answeredAt: string | null;
}

export interface TeamReview extends ItemState {
  workspace: string;
  kind: string;
  ref: string;
}

export interface MirrorHead {
  seq: number;
  hash: Buffer;
}

export interface PinnedOfficer {
  roleName: string;
  displayName: string;
  signPublic: Buffer;
  boxPublic: Buffer;
  /** Who the server said leads, when it was pinned (histories from before the roster). */
  role: Role | null;
}

const REVIEW_COLUMNS = `workspace, kind, ref, state, prior_state AS priorState, proposed_disposition AS proposedDisposition,
  proposed_by AS proposedBy, proposed_at AS proposedAt, approved_by AS approvedBy, approved_at AS approvedAt,
  assignee, version, last_seq AS lastSeq, last_action AS lastAction, last_by AS lastBy,
  last_disposition AS lastDisposition, proposal_hash AS proposalHash`;

const OUTBOX_COLUMNS = `position, event_id AS eventId, workspace, kind, ref, action, payload, state, seq, detail,
  queued_at AS queuedAt, answered_at AS answeredAt`;

const EVENT_COLUMNS = `workspace, seq, event_id AS id, officer, at, client_at AS clientAt, kind, ref, action, disposition,
  assignee, base_version AS baseVersion, key_version AS keyVersion, result, detail, new_version AS newVersion,
  new_state AS newState, sealed, signature, prev_hash AS prevHash, hash`;

function asBuffer(value: Uint8Array): Buffer {
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** The review after one more verified event (null: the item has none yet). */
function projected(current: TeamReview | null, event: TeamEventRow): TeamReview {
  const base = current ?? { ...NEW_ITEM, workspace: event.workspace, kind: event.kind, ref: event.ref };
  return { ...projectItem(base, event), workspace: base.workspace, kind: base.kind, ref: base.ref };
}

/** Two projections alike, field by field. */
function sameReview(a: TeamReview, b: TeamReview): boolean {
  return (Object.keys(a) as (keyof TeamReview)[]).every((field) => a[field] === b[field]);
}

export class TeamMirror {
  readonly #database: DatabaseSync;

  constructor(database: DatabaseSync) {
    this.#database = database;
  }

  /** Runs `work` in one SQLite transaction (all or nothing). */
  transaction<Result>(work: () => Result): Result {
    this.#database.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.#database.exec('COMMIT');
      return result;
    } catch (error) {
      this.#database.exec('ROLLBACK');
      throw error;
    }
  }

  ensureWorkspace(workspace: string, login: string, profileId: string | null): void {
    this.#database
      .prepare(
        `INSERT INTO team_workspaces (workspace, login, profile_id, head_hash) VALUES (?, ?, ?, ?)
         ON CONFLICT (workspace) DO UPDATE SET login = excluded.login, profile_id = coalesce(excluded.profile_id, team_workspaces.profile_id)`,
      )
      .run(workspace, login, profileId, TEAM_GENESIS);
  }

  profileOf(workspace: string): string | null {
    const row = this.#database
      .prepare('SELECT profile_id AS profileId FROM team_workspaces WHERE workspace = ?')
      .get(workspace) as { profileId: string | null } | undefined;
    return row?.profileId ?? null;
  }

  mapProfile(workspace: string, profileId: string): void {
    this.#database.prepare('UPDATE team_workspaces SET profile_id = ? WHERE workspace = ?').run(profileId, workspace);
  }

  head(workspace: string): MirrorHead {
    const row = this.#database
      .prepare('SELECT cursor_seq AS seq, head_hash AS hash FROM team_workspaces WHERE workspace = ?')
      .get(workspace) as { seq: number; hash: Uint8Array } | undefined;
    return row === undefined ? { seq: 0, hash: TEAM_GENESIS } : { seq: row.seq, hash: asBuffer(row.hash) };
  }

  pulledAt(workspace: string): string | null {
    const row = this.#database
      .prepare('SELECT pulled_at AS pulledAt FROM team_workspaces WHERE workspace = ?')
      .get(workspace) as { pulledAt: string | null } | undefined;
    return row?.pulledAt ?? null;
  }

  // --- keys -------------------------------------------------------------------------------

  saveWrappedKey(workspace: string, version: number, wrapped: Uint8Array): void {
    this.#database
      .prepare(
        'INSERT INTO team_keys (workspace, key_version, wrapped) VALUES (?, ?, ?) ON CONFLICT DO UPDATE SET wrapped = excluded.wrapped',
      )
      .run(workspace, version, wrapped);
    this.#database
      .prepare('UPDATE team_workspaces SET key_version = max(key_version, ?) WHERE workspace = ?')
      .run(version, workspace);
  }

  wrappedKeys(workspace: string): { version: number; wrapped: Buffer }[] {
    return (
      this.#database
        .prepare('SELECT key_version AS version, wrapped FROM team_keys WHERE workspace = ? ORDER BY key_version')
        .all(workspace) as {
        version: number;
        wrapped: Uint8Array;
      }[]
    ).map((row) => ({ version: row.version, wrapped: asBuffer(row.wrapped) }));
  }

  pinnedOfficers(workspace: string): Map<string, PinnedOfficer> {
    const rows = this.#database
      .prepare(
        'SELECT role_name AS roleName, display_name AS displayName, sign_public AS signPublic, box_public AS boxPublic, role FROM team_officer_keys WHERE workspace = ?',
      )
      .all(workspace) as {
      roleName: string;
      displayName: string;
      signPublic: Uint8Array;
      boxPublic: Uint8Array;
      role: string | null;
    }[];
    return new Map(
      rows.map((row) => [
        row.roleName,
        {
          ...row,
          signPublic: asBuffer(row.signPublic),
          boxPublic: asBuffer(row.boxPublic),
          role: row.role === 'lead' || row.role === 'officer' ? row.role : null,
        },
      ]),
    );
  }

  pinOfficer(workspace: string, officer: PinnedOfficer, at: string): void {
    this.#database
      .prepare(
        `INSERT INTO team_officer_keys (workspace, role_name, display_name, sign_public, box_public, pinned_at, role) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT DO UPDATE SET role = coalesce(team_officer_keys.role, excluded.role)`,
      )
      .run(workspace, officer.roleName, officer.displayName, officer.signPublic, officer.boxPublic, at, officer.role);
  }

  // --- members this officer acknowledged ----------------------------------------------------

  acknowledgedMembers(workspace: string): Map<string, Buffer> {
    const rows = this.#database
      .prepare('SELECT login, sign_public AS signPublic FROM team_acknowledged WHERE workspace = ?')
      .all(workspace) as { login: string; signPublic: Uint8Array }[];
    return new Map(rows.map((row) => [row.login, asBuffer(row.signPublic)]));
  }

  acknowledgeMember(workspace: string, login: string, signPublic: Uint8Array, at: string): void {
    this.#database
      .prepare(
        `INSERT INTO team_acknowledged (workspace, login, sign_public, acknowledged_at) VALUES (?, ?, ?, ?)
         ON CONFLICT DO UPDATE SET sign_public = excluded.sign_public, acknowledged_at = excluded.acknowledged_at`,
      )
      .run(workspace, login, signPublic, at);
  }

  // --- what this build's rules made of the mirror -------------------------------------------

  rulesVersion(workspace: string): number {
    const row = this.#database
      .prepare('SELECT rules_version AS version FROM team_workspaces WHERE workspace = ?')
      .get(workspace) as { version: number } | undefined;
    return row?.version ?? 0;
  }

  setRulesVersion(workspace: string, version: number): void {
    this.#database.prepare('UPDATE team_workspaces SET rules_version = ? WHERE workspace = ?').run(version, workspace);
  }

  /** The hash of the history's first event as the invite named it (null: not named). */
  rootHash(workspace: string): Buffer | null {
    const row = this.#database
      .prepare('SELECT root_hash AS hash FROM team_workspaces WHERE workspace = ?')
      .get(workspace) as { hash: Uint8Array | null } | undefined;
    return row?.hash == null ? null : asBuffer(row.hash);
  }

  setRootHash(workspace: string, hash: Uint8Array): void {
    this.#database
      .prepare('UPDATE team_workspaces SET root_hash = coalesce(root_hash, ?) WHERE workspace = ?')
      .run(hash, workspace);
  }

  /**
   * The reviews as the verified events make them, rebuilt (a build before issue 35 kept fewer
   * columns): one walk of the workspace's events, in one transaction.
   */
  rebuildReviews(workspace: string): void {
    this.transaction(() => {
      const replayed = new Map<string, TeamReview>();
      const events = this.#database
        .prepare(`SELECT ${EVENT_COLUMNS} FROM team_events WHERE workspace = ? ORDER BY seq`)
        .iterate(workspace) as Iterable<TeamEventRow>;
      for (const row of events) {
        const event = normaliseEvent(row);
        if (!isItemKind(event.kind)) continue;
        const key = `${event.kind}\u0000${event.ref}`;
        replayed.set(key, projected(replayed.get(key) ?? null, event));
      }
      this.#database.prepare('DELETE FROM team_reviews WHERE workspace = ?').run(workspace);
      const write = this.#reviewWriter();
      for (const review of replayed.values()) write(review);
      this.setRulesVersion(workspace, Math.max(this.rulesVersion(workspace), RULES_REBUILT));
    });
  }

  /**
   * Forgets the verified events from `seq` on (the next pull fetches and decides them again:
   * one this build's rules refuse is then named), and rebuilds the reviews from the ones kept.
   */
  forgetFrom(workspace: string, seq: number): void {
    this.transaction(() => {
      this.#database.prepare('DELETE FROM team_events WHERE workspace = ? AND seq >= ?').run(workspace, seq);
      const last = this.#database
        .prepare('SELECT seq, hash FROM team_events WHERE workspace = ? ORDER BY seq DESC LIMIT 1')
        .get(workspace) as { seq: number; hash: Uint8Array } | undefined;
      this.#database
        .prepare('UPDATE team_workspaces SET cursor_seq = ?, head_hash = ? WHERE workspace = ?')
        .run(last?.seq ?? 0, last?.hash ?? TEAM_GENESIS, workspace);
    });
    this.rebuildReviews(workspace);
  }

  /** Reads the stored reviews for the rules (pull: the review as the last verified page left it). */
  reviewSource(workspace: string): ReviewSource {
    const read = this.#database.prepare(
      `SELECT ${REVIEW_COLUMNS} FROM team_reviews WHERE workspace = ? AND kind = ? AND ref = ?`,
    );
    return {
      read: (kind, ref) => {
        const row = read.get(workspace, kind, ref) as TeamReview | undefined;
        return row === undefined ? null : { ...row };
      },
    };
  }

  /** Whether the verified history signs its membership (it holds a genesis or a roster). */
  membershipSigned(workspace: string): boolean {
    return (
      this.#database
        .prepare(
          `SELECT 1 FROM team_events WHERE workspace = ? AND kind = 'workspace' AND ref = ? AND action IN ('genesis', 'roster') LIMIT 1`,
        )
        .get(workspace, workspace) !== undefined
    );
  }

  /** The membership and policy events, in order (the membership is replayed from them). */
  membershipEvents(workspace: string): TeamEventRow[] {
    return (
      this.#database
        .prepare(
          `SELECT ${EVENT_COLUMNS} FROM team_events WHERE workspace = ? AND kind IN ('member', 'workspace') ORDER BY seq`,
        )
        .all(workspace) as unknown as TeamEventRow[]
    ).map(normaliseEvent);
  }

  // --- the verified history ---------------------------------------------------------------

  /**
   * Appends verified events, stores the reviews the rules decided for them, answers the outbox
   * and moves the head; the caller holds the transaction.
   */
  appendVerified(events: readonly TeamEventRow[], touched: readonly TouchedReview[], pulledAt: string): void {
    const columns = [...EVENT_FIELDS.map(([, column]) => column), 'prev_hash', 'hash'];
    // Prepared once per page, not once per event: preparing cost more than running them.
    const insert = this.#database.prepare(
      `INSERT INTO team_events (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    const answer = this.#database.prepare(
      `UPDATE team_outbox SET state = ?, seq = ?, detail = ?, answered_at = coalesce(answered_at, ?) WHERE event_id = ?`,
    );
    for (const event of events) {
      insert.run(...eventFieldValues(event), event.prevHash, event.hash);
      answer.run(event.result, event.seq, event.detail, pulledAt, event.id);
    }
    const last = events.at(-1);
    if (last === undefined) return;
    const write = this.#reviewWriter();
    for (const entry of touched)
      write({ ...entry.review, workspace: last.workspace, kind: entry.kind, ref: entry.ref });
    this.#database
      .prepare('UPDATE team_workspaces SET cursor_seq = ?, head_hash = ?, pulled_at = ? WHERE workspace = ?')
      .run(last.seq, last.hash, pulledAt, last.workspace);
  }

  #reviewWriter(): (review: TeamReview) => void {
    const write = this.#database.prepare(
      `INSERT INTO team_reviews (workspace, kind, ref, state, prior_state, proposed_disposition, proposed_by, proposed_at,
         approved_by, approved_at, assignee, version, last_seq, last_action, last_by, last_disposition, proposal_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (workspace, kind, ref) DO UPDATE SET state = excluded.state, prior_state = excluded.prior_state,
         proposed_disposition = excluded.proposed_disposition, proposed_by = excluded.proposed_by,
         proposed_at = excluded.proposed_at, approved_by = excluded.approved_by, approved_at = excluded.approved_at,
         assignee = excluded.assignee, version = excluded.version, last_seq = excluded.last_seq,
         last_action = excluded.last_action, last_by = excluded.last_by, last_disposition = excluded.last_disposition,
         proposal_hash = excluded.proposal_hash`,
    );
    return (review) => {
      write.run(...reviewValues(review));
    };
  }

  event(workspace: string, seq: number): TeamEventRow | null {
    const row = this.#database
      .prepare(`SELECT ${EVENT_COLUMNS} FROM team_events WHERE workspace = ? AND seq = ?`)
      .get(workspace, seq) as TeamEventRow | undefined;
    return row === undefined ? null : normaliseEvent(row);
  }

  /** Mirror events in seq order from `after` (for verify --team). */
  events(workspace: string, after: number, limit: number): TeamEventRow[] {
    return (
      this.#database
        .prepare(`SELECT ${EVENT_COLUMNS} FROM team_events WHERE workspace = ? AND seq > ? ORDER BY seq LIMIT ?`)
        .all(workspace, after, limit) as unknown as TeamEventRow[]
    ).map(normaliseEvent);
  }

  history(workspace: string, kind: string, ref: string): TeamEventRow[] {
    return (
      this.#database
        .prepare(`SELECT ${EVENT_COLUMNS} FROM team_events WHERE workspace = ? AND kind = ? AND ref = ? ORDER BY seq`)
        .all(workspace, kind, ref) as unknown as TeamEventRow[]
    ).map(normaliseEvent);
  }

  /**
   * An item's team review, once it is known to be the projection of the verified events this
   * laptop holds (RowAltered otherwise): the projection is kept in clear in the cache file, and
   * an edit there (a proposal shown approved, an item taken off a queue) must not decide.
   */
  review(workspace: string, kind: string, ref: string): TeamReview | null {
    return this.#authentic(this.#stored(workspace, kind, ref), workspace, kind, ref);
  }

  #stored(workspace: string, kind: string, ref: string): TeamReview | undefined {
    return this.#database
      .prepare(`SELECT ${REVIEW_COLUMNS} FROM team_reviews WHERE workspace = ? AND kind = ? AND ref = ?`)
      .get(workspace, kind, ref) as TeamReview | undefined;
  }

  /** The row (undefined: none), checked against the item's verified events replayed. */
  #authentic(row: TeamReview | undefined, workspace: string, kind: string, ref: string): TeamReview | null {
    // Membership and policy events are in the history but never projected: no review is theirs.
    if (!isItemKind(kind)) {
      if (row !== undefined) throw new RowAltered(`The team review of ${kind} ${ref}`);
      return null;
    }
    let replayed: TeamReview | null = null;
    for (const event of this.history(workspace, kind, ref)) replayed = projected(replayed, event);
    const authentic = row === undefined ? replayed === null : replayed !== null && sameReview(row, replayed);
    if (!authentic) throw new RowAltered(`The team review of ${kind} ${ref}`);
    return row === undefined ? null : { ...row };
  }

  /** Rows of a queue, each checked as review() checks one. */
  #checked(rows: TeamReview[]): TeamReview[] {
    return rows.map((row) => this.#authentic(row, row.workspace, row.kind, row.ref) ?? row);
  }

  /**
   * For `ledger audit verify --team`: the items whose projection in the file is not the one the
   * verified events make (changed, added or deleted), by one walk of the workspace's events.
   */
  alteredReviews(workspace: string): string[] {
    const replayed = new Map<string, TeamReview>();
    const events = this.#database
      .prepare(`SELECT ${EVENT_COLUMNS} FROM team_events WHERE workspace = ? ORDER BY seq`)
      .iterate(workspace) as Iterable<TeamEventRow>;
    for (const row of events) {
      const event = normaliseEvent(row);
      if (!isItemKind(event.kind)) continue;
      const key = `${event.kind}\u0000${event.ref}`;
      replayed.set(key, projected(replayed.get(key) ?? null, event));
    }
    const altered: string[] = [];
    const rows = this.#database
      .prepare(`SELECT ${REVIEW_COLUMNS} FROM team_reviews WHERE workspace = ?`)
      .iterate(workspace) as Iterable<TeamReview>;
    for (const row of rows) {
      const key = `${row.kind}\u0000${row.ref}`;
      const expected = replayed.get(key);
      replayed.delete(key);
      if (expected === undefined || !sameReview(row, expected)) altered.push(`${row.kind} ${row.ref}`);
    }
    for (const missing of replayed.values()) altered.push(`${missing.kind} ${missing.ref} (deleted)`);
    return altered;
  }

  /** The queues of an officer. */
  assignedTo(workspace: string, login: string, limit: number): TeamReview[] {
    return this.#checked(
      this.#database
        .prepare(
          `SELECT ${REVIEW_COLUMNS} FROM team_reviews WHERE workspace = ? AND assignee = ? AND state NOT IN ('cleared', 'closed') ORDER BY last_seq DESC LIMIT ?`,
        )
        .all(workspace, login, limit) as unknown as TeamReview[],
    );
  }

  awaitingApprovalBy(workspace: string, login: string, limit: number): TeamReview[] {
    return this.#checked(
      this.#database
        .prepare(
          `SELECT ${REVIEW_COLUMNS} FROM team_reviews WHERE workspace = ? AND state = 'proposed' AND proposed_by <> ? ORDER BY last_seq LIMIT ?`,
        )
        .all(workspace, login, limit) as unknown as TeamReview[],
    );
  }

  unassigned(workspace: string, limit: number): TeamReview[] {
    return this.#checked(
      this.#database
        .prepare(
          `SELECT ${REVIEW_COLUMNS} FROM team_reviews WHERE workspace = ? AND assignee IS NULL AND state NOT IN ('cleared', 'closed') ORDER BY last_seq LIMIT ?`,
        )
        .all(workspace, limit) as unknown as TeamReview[],
    );
  }

  /** Items whose review is settled (cleared or closed), the latest first: who proposed, who approved. */
  decided(workspace: string, limit: number): TeamReview[] {
    return this.#checked(
      this.#database
        .prepare(
          `SELECT ${REVIEW_COLUMNS} FROM team_reviews WHERE workspace = ? AND state IN ('cleared', 'closed') ORDER BY last_seq DESC LIMIT ?`,
        )
        .all(workspace, limit) as unknown as TeamReview[],
    );
  }

  // --- the outbox -------------------------------------------------------------------------

  enqueue(row: {
    eventId: string;
    workspace: string;
    kind: string;
    ref: string;
    action: string;
    payload: string;
    queuedAt: string;
  }): void {
    this.#database
      .prepare(
        `INSERT INTO team_outbox (event_id, workspace, kind, ref, action, payload, state, queued_at) VALUES (?, ?, ?, ?, ?, ?, 'queued', ?)`,
      )
      .run(row.eventId, row.workspace, row.kind, row.ref, row.action, row.payload, row.queuedAt);
  }

  queued(workspace: string, limit: number): OutboxRow[] {
    return this.#database
      .prepare(
        `SELECT ${OUTBOX_COLUMNS} FROM team_outbox WHERE workspace = ? AND state = 'queued' ORDER BY position LIMIT ?`,
      )
      .all(workspace, limit) as unknown as OutboxRow[];
  }

  queuedCount(workspace: string): number {
    return (
      this.#database
        .prepare(`SELECT count(*) AS n FROM team_outbox WHERE workspace = ? AND state = 'queued'`)
        .get(workspace) as { n: number }
    ).n;
  }

  /** My queued actions on one item that move its version (what the next action's base counts). */
  queuedVersionMoves(workspace: string, kind: string, ref: string): number {
    return (
      this.#database
        .prepare(
          `SELECT count(*) AS n FROM team_outbox WHERE workspace = ? AND kind = ? AND ref = ? AND state = 'queued' AND action IN ('propose', 'approve', 'reject')`,
        )
        .get(workspace, kind, ref) as { n: number }
    ).n;
  }

  answer(eventId: string, state: OutboxState, seq: number | null, detail: string | null, at: string): void {
    this.#database
      .prepare('UPDATE team_outbox SET state = ?, seq = ?, detail = ?, answered_at = ? WHERE event_id = ?')
      .run(state, seq, detail, at, eventId);
  }

  outboxRow(eventId: string): OutboxRow | null {
    const row = this.#database.prepare(`SELECT ${OUTBOX_COLUMNS} FROM team_outbox WHERE event_id = ?`).get(eventId) as
      OutboxRow | undefined;
    return row === undefined ? null : { ...row };
  }

  /** Conflicts and refusals the officer has not dismissed yet. */
  conflicts(workspace: string, limit: number): OutboxRow[] {
    return this.#database
      .prepare(
        `SELECT ${OUTBOX_COLUMNS} FROM team_outbox WHERE workspace = ? AND state IN ('conflict', 'refused') AND acknowledged = 0 ORDER BY position LIMIT ?`,
      )
      .all(workspace, limit) as unknown as OutboxRow[];
  }

  acknowledge(workspace: string, eventId: string): boolean {
    return (
      Number(
        this.#database
          .prepare(
            `UPDATE team_outbox SET acknowledged = 1 WHERE workspace = ? AND event_id = ? AND state IN ('conflict', 'refused')`,
          )
          .run(workspace, eventId).changes,
      ) > 0
    );
  }

  /**
   * Drops this laptop's copy of a workspace's history and reviews: never the team's record (the
   * server's), and never what this laptop alone holds. Kept: the actions not yet pushed and the
   * conflicts not yet seen (the outbox), the wrapped team keys, the officers' keys pinned at
   * first sight (a cleared cache must not let a swapped key in), and the profile the workspace
   * maps to. The next pull verifies the whole history again from its first event, against the
   * anchor still in the keychain.
   */
  dropMirror(workspace: string): void {
    this.transaction(() => {
      this.#database.prepare('DELETE FROM team_events WHERE workspace = ?').run(workspace);
      this.#database.prepare('DELETE FROM team_reviews WHERE workspace = ?').run(workspace);
      this.#database
        .prepare('UPDATE team_workspaces SET cursor_seq = 0, head_hash = ?, pulled_at = NULL WHERE workspace = ?')
        .run(TEAM_GENESIS, workspace);
    });
  }

  /** Drops the mirrors of the workspaces a profile maps to (clearing the profile's cache). */
  dropMirrorsOfProfile(profileId: string): string[] {
    const workspaces = (
      this.#database.prepare('SELECT workspace FROM team_workspaces WHERE profile_id = ?').all(profileId) as {
        workspace: string;
      }[]
    ).map((row) => row.workspace);
    for (const workspace of workspaces) this.dropMirror(workspace);
    return workspaces;
  }
}

function normaliseEvent(row: TeamEventRow): TeamEventRow {
  return {
    ...row,
    sealed: row.sealed === null ? null : asBuffer(row.sealed),
    signature: asBuffer(row.signature),
    prevHash: asBuffer(row.prevHash),
    hash: asBuffer(row.hash),
  };
}

function reviewValues(review: TeamReview): SQLInputValue[] {
  return [
    review.workspace,
    review.kind,
    review.ref,
    review.state,
    review.priorState,
    review.proposedDisposition,
    review.proposedBy,
    review.proposedAt,
    review.approvedBy,
    review.approvedAt,
    review.assignee,
    review.version,
    review.lastSeq,
    review.lastAction,
    review.lastBy,
    review.lastDisposition,
    review.proposalHash,
  ];
}
