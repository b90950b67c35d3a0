/**
 * The reads of the team server, as named queries on the officer's connection (row-level
 * security shows only their workspaces). Column order and types are converted here once, so
 * the rest of team mode sees TeamEventRow and plain numbers.
 */
import type { TeamEventRow } from './crypto/teamCanonical.ts';
import type { Queryable } from './teamConnection.ts';

interface EventRecord {
  workspace: string;
  seq: string;
  id: string;
  officer: string;
  at: string;
  client_at: string;
  kind: string;
  ref: string;
  action: string;
  disposition: string | null;
  assignee: string | null;
  base_version: number | null;
  key_version: number | null;
  result: 'ok' | 'conflict' | 'refused';
  detail: string | null;
  new_version: number | null;
  new_state: string | null;
  sealed: Buffer | null;
  signature: Buffer;
  prev_hash: Buffer;
  hash: Buffer;
}

// The table is aliased and every column qualified: ORDER BY a bare `seq` would sort by the
// text alias below ('10' before '9'), a pitfall found in the design's spike.
const EVENT_SELECT = `SELECT e.workspace, e.seq::text AS seq, e.event_id::text AS id, e.officer::text AS officer,
  team.at_text(e.at) AS at, e.client_at, e.kind, e.ref, e.action, e.disposition, e.assignee::text AS assignee,
  e.base_version, e.key_version, e.result, e.detail, e.new_version, e.new_state, e.sealed, e.signature, e.prev_hash, e.hash
  FROM team.events AS e`;

function eventOf(record: EventRecord): TeamEventRow {
  return {
    workspace: record.workspace,
    seq: Number(record.seq),
    id: record.id,
    officer: record.officer,
    at: record.at,
    clientAt: record.client_at,
    kind: record.kind,
    ref: record.ref,
    action: record.action,
    disposition: record.disposition,
    assignee: record.assignee,
    baseVersion: record.base_version,
    keyVersion: record.key_version,
    result: record.result,
    detail: record.detail,
    newVersion: record.new_version,
    newState: record.new_state,
    sealed: record.sealed,
    signature: record.signature,
    prevHash: record.prev_hash,
    hash: record.hash,
  };
}

export async function eventsAfter(
  db: Queryable,
  workspace: string,
  after: number,
  limit: number,
): Promise<TeamEventRow[]> {
  const result = await db.query<EventRecord>(
    `${EVENT_SELECT} WHERE e.workspace = $1 AND e.seq > $2 ORDER BY e.seq LIMIT $3`,
    [workspace, after, limit],
  );
  return result.rows.map(eventOf);
}

export async function eventAt(db: Queryable, workspace: string, seq: number): Promise<TeamEventRow | null> {
  const result = await db.query<EventRecord>(`${EVENT_SELECT} WHERE e.workspace = $1 AND e.seq = $2`, [workspace, seq]);
  const row = result.rows[0];
  return row === undefined ? null : eventOf(row);
}

export async function lastSeq(db: Queryable, workspace: string): Promise<number> {
  const result = await db.query<{ seq: string | null }>(
    'SELECT max(e.seq)::text AS seq FROM team.events AS e WHERE e.workspace = $1',
    [workspace],
  );
  return Number(result.rows[0]?.seq ?? 0);
}

export interface ServerOfficer {
  roleName: string;
  displayName: string;
  signPublic: Buffer | null;
  boxPublic: Buffer | null;
  role: 'lead' | 'officer';
  active: boolean;
  joinedAt: string | null;
}

export async function officersOf(db: Queryable, workspace: string): Promise<ServerOfficer[]> {
  const result = await db.query<{
    role_name: string;
    display_name: string;
    sign_public: Buffer | null;
    box_public: Buffer | null;
    role: 'lead' | 'officer';
    active: boolean;
    joined_at: string | null;
  }>(
    `SELECT o.role_name::text AS role_name, o.display_name, o.sign_public, o.box_public, m.role, m.active,
       team.at_text(o.joined_at) AS joined_at
     FROM team.members AS m JOIN team.officers AS o ON o.role_name = m.role_name
     WHERE m.workspace = $1 ORDER BY o.role_name`,
    [workspace],
  );
  return result.rows.map((row) => ({
    roleName: row.role_name,
    displayName: row.display_name,
    signPublic: row.sign_public,
    boxPublic: row.box_public,
    role: row.role,
    active: row.active,
    joinedAt: row.joined_at,
  }));
}

export async function myWrappedKeys(db: Queryable, workspace: string): Promise<{ version: number; wrapped: Buffer }[]> {
  const result = await db.query<{ key_version: number; wrapped: Buffer }>(
    'SELECT k.key_version, k.wrapped FROM team.wrapped_keys AS k WHERE k.workspace = $1 AND k.role_name = session_user ORDER BY k.key_version',
    [workspace],
  );
  return result.rows.map((row) => ({ version: row.key_version, wrapped: row.wrapped }));
}

export async function workspaceInfo(
  db: Queryable,
  workspace: string,
): Promise<{ keyVersion: number; recoveryPublic: Buffer; approvalRules: string[] } | null> {
  const result = await db.query<{ key_version: number; recovery_public: Buffer; approval_rules: string[] }>(
    'SELECT w.key_version, w.recovery_public, w.approval_rules FROM team.workspaces AS w WHERE w.workspace = $1',
    [workspace],
  );
  const row = result.rows[0];
  return row === undefined
    ? null
    : { keyVersion: row.key_version, recoveryPublic: row.recovery_public, approvalRules: row.approval_rules };
}
