/**
 * The team schema on PostgreSQL: every team rule lives here, in the database, so no client
 * (and no bug in one) can break it. Versioned like the cache's migrations: each entry is
 * applied once, in order, and its checksum is checked at every `ledger team init`.
 *
 * Roles: `ledgerdesk_team_owner` (NOLOGIN, owns every object and the SECURITY DEFINER
 * functions; CREATEROLE so that a lead's invite can create a login), `ledgerdesk_officer`
 * (NOLOGIN group of every officer's login). Officers read through row-level security and write
 * only through team.push / team.join / team.invite / team.remove_member; identity is always
 * `session_user` (the login), never a field of the payload.
 *
 * The history (team.events) is append-only for everyone (grants and triggers), hash-chained
 * per workspace by the server in commit order (appends to a workspace are serialised by an
 * advisory lock taken before the head is read, so seq order is commit order).
 */
import type { TeamMigration } from './teamMigration.ts';
import { SIGNED_MEMBERSHIP } from './teamMembershipSql.ts';
import { SET_BASED_PUSH } from './teamPushSetBased.ts';

export const TEAM_MIGRATIONS: readonly TeamMigration[] = [
  {
    version: 1,
    name: 'workspaces, officers, reviews and the signed, chained history',
    sql: String.raw`
CREATE TABLE team.workspaces (
  workspace text PRIMARY KEY CHECK (workspace ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
  created_by name NOT NULL DEFAULT session_user,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  key_version integer NOT NULL DEFAULT 1 CHECK (key_version >= 1),
  recovery_public bytea NOT NULL CHECK (length(recovery_public) = 32),
  -- Which moves need a second officer: "from>to" over review states.
  approval_rules text[] NOT NULL DEFAULT ARRAY['flagged>cleared', 'escalated>cleared', 'escalated>closed']
);

CREATE TABLE team.officers (
  role_name name PRIMARY KEY,
  display_name text NOT NULL CHECK (length(display_name) BETWEEN 1 AND 100),
  sign_public bytea CHECK (length(sign_public) = 32),
  box_public bytea CHECK (length(box_public) = 32),
  joined_at timestamptz
);

CREATE TABLE team.members (
  workspace text NOT NULL REFERENCES team.workspaces,
  role_name name NOT NULL REFERENCES team.officers,
  role text NOT NULL CHECK (role IN ('lead', 'officer')),
  active boolean NOT NULL DEFAULT true,
  PRIMARY KEY (workspace, role_name)
);

-- One-time invites: the team keys sealed under a key derived from the invite's secret (which
-- the server never sees: the login's password is given to it as a SCRAM verifier).
CREATE TABLE team.invites (
  workspace text NOT NULL REFERENCES team.workspaces,
  role_name name NOT NULL REFERENCES team.officers,
  wrapped bytea,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  used_at timestamptz,
  PRIMARY KEY (workspace, role_name)
);

-- The team key of each version, wrapped (X25519 + HKDF + AES-GCM) for one officer, or for the
-- offline recovery key ('#recovery').
CREATE TABLE team.wrapped_keys (
  workspace text NOT NULL REFERENCES team.workspaces,
  key_version integer NOT NULL,
  role_name name NOT NULL,
  wrapped bytea NOT NULL,
  PRIMARY KEY (workspace, key_version, role_name)
);

-- Each item's review as it stands: a projection of team.events kept by team.push.
CREATE TABLE team.reviews (
  workspace text NOT NULL REFERENCES team.workspaces,
  kind text NOT NULL,
  ref text NOT NULL,
  state text NOT NULL DEFAULT 'unreviewed'
    CHECK (state IN ('unreviewed', 'proposed', 'cleared', 'flagged', 'escalated', 'closed')),
  prior_state text,
  proposed_disposition text,
  proposed_by name,
  approved_by name,
  assignee name,
  version integer NOT NULL DEFAULT 0,
  last_action text,
  last_by name,
  last_disposition text,
  last_seq bigint,
  PRIMARY KEY (workspace, kind, ref),
  -- Four-eyes held by the table itself: no code path, not even the owner's or an admin's,
  -- stores a decision approved by its proposer.
  CONSTRAINT four_eyes CHECK (approved_by IS NULL OR approved_by <> proposed_by)
);

CREATE TABLE team.events (
  workspace text NOT NULL REFERENCES team.workspaces,
  seq bigint NOT NULL CHECK (seq >= 1),
  event_id uuid NOT NULL UNIQUE,
  officer name NOT NULL,
  at timestamptz NOT NULL,
  client_at text NOT NULL,
  kind text NOT NULL,
  ref text NOT NULL,
  action text NOT NULL,
  disposition text,
  assignee name,
  base_version integer,
  key_version integer,
  result text NOT NULL CHECK (result IN ('ok', 'conflict', 'refused')),
  detail text,
  new_version integer,
  new_state text,
  sealed bytea,
  signature bytea NOT NULL CHECK (length(signature) = 64),
  prev_hash bytea NOT NULL CHECK (length(prev_hash) = 32),
  hash bytea NOT NULL CHECK (length(hash) = 32),
  PRIMARY KEY (workspace, seq)
);
CREATE INDEX events_by_item ON team.events (workspace, kind, ref, seq);

CREATE FUNCTION team.refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'team.events is append-only: % refused', TG_OP USING ERRCODE = '42501';
END $$;
CREATE TRIGGER events_no_update BEFORE UPDATE OR DELETE ON team.events
  FOR EACH ROW EXECUTE FUNCTION team.refuse_change();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON team.events
  FOR EACH STATEMENT EXECUTE FUNCTION team.refuse_change();

-- Canonical bytes: each field length-prefixed (4-byte big-endian length, then its bytes; NULL
-- is 0xFFFFFFFF), so no two different events encode alike. The client computes the same.
CREATE FUNCTION team.lp(value text) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN value IS NULL THEN '\xffffffff'::bytea
    ELSE int4send(length(convert_to(value, 'UTF8'))) || convert_to(value, 'UTF8') END
$$;
CREATE FUNCTION team.lpb(value bytea) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN value IS NULL THEN '\xffffffff'::bytea ELSE int4send(length(value)) || value END
$$;
CREATE FUNCTION team.at_text(at timestamptz) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$$;
CREATE FUNCTION team.canonical(e team.events) RETURNS bytea LANGUAGE sql IMMUTABLE AS $$
  SELECT convert_to(E'ledgerdesk-team-event-v1\n', 'UTF8')
    || team.lp(e.workspace) || team.lp(e.seq::text) || team.lp(e.event_id::text) || team.lp(e.officer::text)
    || team.lp(team.at_text(e.at)) || team.lp(e.client_at) || team.lp(e.kind) || team.lp(e.ref)
    || team.lp(e.action) || team.lp(e.disposition) || team.lp(e.assignee::text)
    || team.lp(e.base_version::text) || team.lp(e.key_version::text) || team.lp(e.result)
    || team.lp(e.detail) || team.lp(e.new_version::text) || team.lp(e.new_state)
    || team.lpb(e.sealed) || team.lpb(e.signature)
$$;

CREATE FUNCTION team.is_member(ws text) RETURNS boolean LANGUAGE sql STABLE SECURITY DEFINER
  SET search_path = team, pg_temp AS $$
  SELECT EXISTS (SELECT 1 FROM team.members m WHERE m.workspace = ws AND m.role_name = session_user AND m.active)
$$;
CREATE FUNCTION team.is_lead(ws text) RETURNS boolean LANGUAGE sql STABLE SECURITY DEFINER
  SET search_path = team, pg_temp AS $$
  SELECT EXISTS (SELECT 1 FROM team.members m
    WHERE m.workspace = ws AND m.role_name = session_user AND m.active AND m.role = 'lead')
$$;

-- Appends one event to a workspace's chain. The caller holds the workspace's append lock.
CREATE FUNCTION team.append_event(ev team.events) RETURNS team.events LANGUAGE plpgsql
  SET search_path = team, pg_temp AS $$
DECLARE
  head record;
BEGIN
  SELECT e.seq, e.hash INTO head FROM team.events AS e WHERE e.workspace = ev.workspace ORDER BY e.seq DESC LIMIT 1;
  ev.seq := coalesce(head.seq, 0) + 1;
  ev.prev_hash := coalesce(head.hash, '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea);
  ev.at := date_trunc('microseconds', clock_timestamp());
  ev.hash := sha256(ev.prev_hash || team.canonical(ev));
  INSERT INTO team.events SELECT ev.*;
  RETURN ev;
END $$;

CREATE FUNCTION team.lock_workspace(ws text) RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(7265601, hashtext(ws))
$$;

-- An event of the batch as a row (not yet chained); bad JSON or types raise and undo the batch.
CREATE FUNCTION team.event_of(payload jsonb, me name) RETURNS team.events LANGUAGE plpgsql
  SET search_path = team, pg_temp AS $$
DECLARE
  ev team.events;
BEGIN
  IF jsonb_typeof(payload) <> 'object' THEN
    RAISE EXCEPTION 'an event must be a JSON object' USING ERRCODE = '22023';
  END IF;
  ev.event_id := (payload->>'id')::uuid;
  ev.officer := me;
  ev.client_at := payload->>'client_at';
  ev.workspace := payload->>'workspace';
  ev.kind := payload->>'kind';
  ev.ref := payload->>'ref';
  ev.action := payload->>'action';
  ev.disposition := payload->>'disposition';
  ev.assignee := payload->>'assignee';
  ev.base_version := (payload->>'base_version')::integer;
  ev.key_version := (payload->>'key_version')::integer;
  ev.sealed := decode(payload->>'sealed', 'base64');
  ev.signature := decode(payload->>'signature', 'base64');
  IF ev.event_id IS NULL OR ev.workspace IS NULL OR ev.kind IS NULL OR ev.ref IS NULL OR ev.action IS NULL
     OR ev.client_at IS NULL OR ev.signature IS NULL THEN
    RAISE EXCEPTION 'an event needs id, workspace, kind, ref, action, client_at and signature' USING ERRCODE = '22023';
  END IF;
  IF ev.client_at !~ '^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,6})?Z$' THEN
    RAISE EXCEPTION 'client_at must be a UTC time (YYYY-MM-DDTHH:MM:SS.sssZ)' USING ERRCODE = '22023';
  END IF;
  IF length(ev.ref) > 512 OR length(ev.kind) > 40 OR coalesce(length(ev.sealed), 0) > 1048576 THEN
    RAISE EXCEPTION 'an event field is too long' USING ERRCODE = '22023';
  END IF;
  RETURN ev;
END $$;

CREATE FUNCTION team.past_tense(action text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE action WHEN 'propose' THEN 'proposed' WHEN 'approve' THEN 'approved' WHEN 'reject' THEN 'rejected'
    ELSE action END
$$;

-- Decides one event against the review as it stands, then appends it (whatever the result).
CREATE FUNCTION team.apply_event(ev team.events, me name) RETURNS jsonb LANGUAGE plpgsql
  SET search_path = team, pg_temp AS $$
DECLARE
  r team.reviews;
  ws team.workspaces;
  result text := 'ok';
  detail text;
  next_state text;
  bumps boolean := ev.action IN ('propose', 'approve', 'reject');
BEGIN
  IF ev.kind NOT IN ('pending-transaction', 'application', 'webhook-send') THEN
    RAISE EXCEPTION 'unknown kind %', ev.kind USING ERRCODE = '22023';
  END IF;
  IF ev.action NOT IN ('propose', 'approve', 'reject', 'claim', 'assign', 'release', 'note') THEN
    RAISE EXCEPTION 'unknown action %', ev.action USING ERRCODE = '22023';
  END IF;
  IF ev.action = 'propose' AND (ev.disposition IS NULL OR ev.disposition NOT IN ('cleared', 'flagged', 'escalated', 'closed')) THEN
    RAISE EXCEPTION 'a proposal needs a disposition: cleared, flagged, escalated or closed' USING ERRCODE = '22023';
  END IF;
  IF bumps AND ev.base_version IS NULL THEN
    RAISE EXCEPTION '% needs base_version', ev.action USING ERRCODE = '22023';
  END IF;
  SELECT * INTO ws FROM team.workspaces WHERE workspace = ev.workspace;
  INSERT INTO team.reviews (workspace, kind, ref) VALUES (ev.workspace, ev.kind, ev.ref) ON CONFLICT DO NOTHING;
  SELECT * INTO r FROM team.reviews WHERE workspace = ev.workspace AND kind = ev.kind AND ref = ev.ref FOR UPDATE;
  next_state := r.state;

  IF bumps AND ev.base_version IS DISTINCT FROM r.version THEN
    result := 'conflict';
    detail := format('%s %s%s on version %s (you saw version %s): review again',
      coalesce(r.last_by::text, 'someone'), team.past_tense(coalesce(r.last_action, 'changed')),
      coalesce(' ' || r.last_disposition, ''), r.version, ev.base_version);
  ELSIF ev.action = 'propose' THEN
    IF r.state = 'proposed' THEN
      result := 'refused';
      detail := format('%s proposed %s on version %s and it awaits a second officer: approve or reject it first',
        r.proposed_by, r.proposed_disposition, r.version);
    ELSIF r.assignee IS NOT NULL AND r.assignee <> me THEN
      result := 'refused';
      detail := format('assigned to %s: only %s proposes on it', r.assignee, r.assignee);
    ELSIF ev.disposition = 'closed' AND r.state <> 'escalated' THEN
      result := 'refused';
      detail := 'only an escalation can be closed';
    ELSIF (r.state || '>' || ev.disposition) = ANY (ws.approval_rules) THEN
      next_state := 'proposed';
      UPDATE team.reviews SET state = 'proposed', prior_state = r.state, proposed_disposition = ev.disposition,
        proposed_by = me, approved_by = NULL WHERE workspace = r.workspace AND kind = r.kind AND ref = r.ref;
    ELSE
      next_state := ev.disposition;
      UPDATE team.reviews SET state = ev.disposition, prior_state = r.state, proposed_disposition = ev.disposition,
        proposed_by = me, approved_by = NULL WHERE workspace = r.workspace AND kind = r.kind AND ref = r.ref;
    END IF;
  ELSIF ev.action IN ('approve', 'reject') THEN
    IF r.state <> 'proposed' THEN
      result := 'refused';
      detail := format('there is no proposed disposition to %s', ev.action);
    ELSIF r.proposed_by = me THEN
      result := 'refused';
      detail := format('four-eyes: the officer who proposed a disposition cannot %s it', ev.action);
    ELSIF ev.action = 'reject' AND ev.sealed IS NULL THEN
      result := 'refused';
      detail := 'a rejection needs a note saying why';
    ELSIF ev.action = 'approve' THEN
      next_state := r.proposed_disposition;
      UPDATE team.reviews SET state = r.proposed_disposition, approved_by = me
        WHERE workspace = r.workspace AND kind = r.kind AND ref = r.ref;
    ELSE
      next_state := r.prior_state;
      UPDATE team.reviews SET state = r.prior_state, proposed_disposition = NULL, approved_by = NULL
        WHERE workspace = r.workspace AND kind = r.kind AND ref = r.ref;
    END IF;
  ELSIF ev.action = 'claim' THEN
    IF r.assignee IS NOT NULL AND r.assignee <> me THEN
      result := 'refused';
      detail := format('already claimed by %s', r.assignee);
    ELSE
      UPDATE team.reviews SET assignee = me WHERE workspace = r.workspace AND kind = r.kind AND ref = r.ref;
    END IF;
  ELSIF ev.action = 'assign' THEN
    IF NOT team.is_lead(ev.workspace) THEN
      result := 'refused';
      detail := 'only a lead assigns items to others (claim it instead)';
    ELSIF ev.assignee IS NULL OR NOT EXISTS (SELECT 1 FROM team.members m
        WHERE m.workspace = ev.workspace AND m.role_name = ev.assignee AND m.active) THEN
      result := 'refused';
      detail := format('%s is not a member of %s', coalesce(ev.assignee::text, '(nobody)'), ev.workspace);
    ELSE
      UPDATE team.reviews SET assignee = ev.assignee WHERE workspace = r.workspace AND kind = r.kind AND ref = r.ref;
    END IF;
  ELSIF ev.action = 'release' THEN
    IF r.assignee IS NOT NULL AND r.assignee <> me AND NOT team.is_lead(ev.workspace) THEN
      result := 'refused';
      detail := format('assigned to %s: only %s or a lead can release it', r.assignee, r.assignee);
    ELSE
      UPDATE team.reviews SET assignee = NULL WHERE workspace = r.workspace AND kind = r.kind AND ref = r.ref;
    END IF;
  ELSIF ev.action = 'note' AND ev.sealed IS NULL THEN
    RAISE EXCEPTION 'a note event needs its sealed note' USING ERRCODE = '22023';
  END IF;

  ev.result := result;
  ev.detail := detail;
  ev.new_state := next_state;
  ev.new_version := CASE WHEN result = 'ok' AND bumps THEN r.version + 1 ELSE r.version END;
  ev := team.append_event(ev);
  IF result = 'ok' AND bumps THEN
    UPDATE team.reviews SET version = ev.new_version, last_action = ev.action, last_by = me,
      last_disposition = CASE WHEN ev.action = 'reject' THEN r.proposed_disposition
                              WHEN ev.action = 'approve' THEN r.proposed_disposition ELSE ev.disposition END,
      last_seq = ev.seq
      WHERE workspace = r.workspace AND kind = r.kind AND ref = r.ref;
  END IF;
  RETURN jsonb_build_object('id', ev.event_id, 'seq', ev.seq, 'result', result, 'detail', detail,
    'version', ev.new_version, 'state', next_state, 'replayed', false);
END $$;

-- The one write path of officers: a batch of at most 1,000 events of one workspace, in one
-- transaction (a failure anywhere commits nothing), answered one result per event. A known
-- event id is answered with its stored result: retries are idempotent.
CREATE FUNCTION team.push(batch jsonb) RETURNS SETOF jsonb LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = team, pg_temp AS $$
DECLARE
  me name := session_user;
  payload jsonb;
  ev team.events;
  known team.events;
  ws text;
BEGIN
  IF jsonb_typeof(batch) IS DISTINCT FROM 'array' OR jsonb_array_length(batch) = 0 OR jsonb_array_length(batch) > 1000 THEN
    RAISE EXCEPTION 'a push is an array of 1 to 1000 events' USING ERRCODE = '22023';
  END IF;
  ws := batch->0->>'workspace';
  IF EXISTS (SELECT 1 FROM jsonb_array_elements(batch) AS b(item) WHERE b.item->>'workspace' IS DISTINCT FROM ws) THEN
    RAISE EXCEPTION 'a push carries the events of one workspace' USING ERRCODE = '22023';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM team.officers o WHERE o.role_name = me AND o.sign_public IS NOT NULL) THEN
    RAISE EXCEPTION '% is not an officer who has joined a team', me USING ERRCODE = '42501';
  END IF;
  IF NOT team.is_member(ws) THEN
    RAISE EXCEPTION '% is not a member of workspace %', me, ws USING ERRCODE = '42501';
  END IF;
  -- Before the head is read: appends to this workspace run one at a time, so seq = commit order.
  PERFORM team.lock_workspace(ws);
  FOR payload IN SELECT b.item FROM jsonb_array_elements(batch) AS b(item) LOOP
    ev := team.event_of(payload, me);
    SELECT * INTO known FROM team.events e WHERE e.event_id = ev.event_id;
    IF FOUND THEN
      IF known.officer <> me OR known.workspace <> ev.workspace THEN
        RAISE EXCEPTION 'event id % is already used by another event', ev.event_id USING ERRCODE = '23505';
      END IF;
      RETURN NEXT jsonb_build_object('id', known.event_id, 'seq', known.seq, 'result', known.result,
        'detail', known.detail, 'version', known.new_version, 'state', known.new_state, 'replayed', true);
      CONTINUE;
    END IF;
    RETURN NEXT team.apply_event(ev, me);
  END LOOP;
END $$;

-- A lead (or the login that made the workspace) invites an officer: creates the login with a
-- SCRAM verifier (the password itself never reaches the server), the membership and the invite.
CREATE FUNCTION team.invite(ws text, login name, display text, member_role text, verifier text, wrapped bytea)
  RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = team, pg_temp AS $$
BEGIN
  IF NOT (team.is_lead(ws) OR EXISTS (SELECT 1 FROM team.workspaces w WHERE w.workspace = ws AND w.created_by = session_user)) THEN
    RAISE EXCEPTION 'only a lead of % invites officers', ws USING ERRCODE = '42501';
  END IF;
  IF login !~ '^[a-z][a-z0-9_]{0,47}$' THEN
    RAISE EXCEPTION 'an officer''s login is lower-case letters, digits and _ (at most 48), starting with a letter' USING ERRCODE = '22023';
  END IF;
  IF verifier !~ '^SCRAM-SHA-256\$' THEN
    RAISE EXCEPTION 'the login''s password must be given as a SCRAM-SHA-256 verifier' USING ERRCODE = '22023';
  END IF;
  IF EXISTS (SELECT 1 FROM team.members m WHERE m.workspace = ws AND m.role_name = login) THEN
    RAISE EXCEPTION '% is already a member of %', login, ws USING ERRCODE = '23505';
  END IF;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = login) THEN
    IF NOT EXISTS (SELECT 1 FROM team.officers o WHERE o.role_name = login) THEN
      RAISE EXCEPTION 'a login named % already exists and is not an officer', login USING ERRCODE = '42710';
    END IF;
  ELSE
    EXECUTE format('CREATE ROLE %I LOGIN PASSWORD %L IN ROLE ledgerdesk_officer', login, verifier);
    INSERT INTO team.officers (role_name, display_name) VALUES (login, display);
  END IF;
  INSERT INTO team.members (workspace, role_name, role) VALUES (ws, login, member_role);
  INSERT INTO team.invites (workspace, role_name, wrapped) VALUES (ws, login, wrapped);
END $$;

-- What an invited officer unseals with the invite's secret; nothing once the invite is used.
CREATE FUNCTION team.my_invite(ws text) RETURNS bytea LANGUAGE plpgsql STABLE SECURITY DEFINER
  SET search_path = team, pg_temp AS $$
DECLARE
  found_invite team.invites;
BEGIN
  SELECT * INTO found_invite FROM team.invites i WHERE i.workspace = ws AND i.role_name = session_user;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'there is no invite for % in %', session_user, ws USING ERRCODE = '42501';
  END IF;
  IF found_invite.used_at IS NOT NULL THEN
    RAISE EXCEPTION 'this invite has already been used (on %)', team.at_text(found_invite.used_at) USING ERRCODE = '55000';
  END IF;
  RETURN found_invite.wrapped;
END $$;

-- The invited officer registers their public keys and their own wraps of the team keys, the
-- invite is spent, and a signed "join" event enters the history.
CREATE FUNCTION team.join(ws text, sign_key bytea, box_key bytea, wraps jsonb, payload jsonb)
  RETURNS jsonb LANGUAGE plpgsql SECURITY DEFINER SET search_path = team, pg_temp AS $$
DECLARE
  me name := session_user;
  ev team.events;
  w jsonb;
BEGIN
  PERFORM team.my_invite(ws);
  UPDATE team.invites SET used_at = clock_timestamp(), wrapped = NULL WHERE workspace = ws AND role_name = me;
  UPDATE team.officers SET sign_public = coalesce(sign_public, sign_key), box_public = coalesce(box_public, box_key),
    joined_at = coalesce(joined_at, clock_timestamp()) WHERE role_name = me;
  IF EXISTS (SELECT 1 FROM team.officers o WHERE o.role_name = me AND (o.sign_public <> sign_key OR o.box_public <> box_key)) THEN
    RAISE EXCEPTION '% joined before with other keys', me USING ERRCODE = '55000';
  END IF;
  FOR w IN SELECT * FROM jsonb_array_elements(wraps) LOOP
    INSERT INTO team.wrapped_keys (workspace, key_version, role_name, wrapped)
      VALUES (ws, (w->>'version')::integer, me, decode(w->>'wrapped', 'base64'))
      ON CONFLICT (workspace, key_version, role_name) DO UPDATE SET wrapped = EXCLUDED.wrapped;
  END LOOP;
  ev := team.event_of(payload, me);
  IF ev.workspace <> ws OR ev.kind <> 'member' OR ev.action <> 'join' OR ev.ref <> me THEN
    RAISE EXCEPTION 'a join event names its workspace, kind member, action join and the officer' USING ERRCODE = '22023';
  END IF;
  PERFORM team.lock_workspace(ws);
  ev.result := 'ok';
  ev := team.append_event(ev);
  RETURN jsonb_build_object('id', ev.event_id, 'seq', ev.seq, 'result', 'ok');
END $$;

-- A lead removes an officer: the membership ends (RLS then shows them nothing), the team key
-- moves to a new version wrapped for everyone who stays and for the recovery key, and a signed
-- "remove" event enters the history. The login is disabled when it has no other membership.
CREATE FUNCTION team.remove_member(ws text, login name, new_version integer, wraps jsonb, payload jsonb)
  RETURNS jsonb LANGUAGE plpgsql SECURITY DEFINER SET search_path = team, pg_temp AS $$
DECLARE
  me name := session_user;
  ev team.events;
  w jsonb;
  missing text;
BEGIN
  IF NOT team.is_lead(ws) THEN
    RAISE EXCEPTION 'only a lead of % removes officers', ws USING ERRCODE = '42501';
  END IF;
  IF login = me THEN
    RAISE EXCEPTION 'a lead cannot remove themselves' USING ERRCODE = '22023';
  END IF;
  UPDATE team.members SET active = false WHERE workspace = ws AND role_name = login AND active;
  IF NOT FOUND THEN
    RAISE EXCEPTION '% is not an active member of %', login, ws USING ERRCODE = '22023';
  END IF;
  UPDATE team.invites SET wrapped = NULL WHERE workspace = ws AND role_name = login;
  IF new_version <> (SELECT key_version FROM team.workspaces WHERE workspace = ws) + 1 THEN
    RAISE EXCEPTION 'the new team key must be version %', (SELECT key_version + 1 FROM team.workspaces WHERE workspace = ws)
      USING ERRCODE = '40001';
  END IF;
  FOR w IN SELECT * FROM jsonb_array_elements(wraps) LOOP
    INSERT INTO team.wrapped_keys (workspace, key_version, role_name, wrapped)
      VALUES (ws, new_version, w->>'role_name', decode(w->>'wrapped', 'base64'));
  END LOOP;
  SELECT string_agg(m.role_name, ', ') INTO missing FROM team.members m
    WHERE m.workspace = ws AND m.active AND NOT EXISTS (SELECT 1 FROM team.wrapped_keys k
      WHERE k.workspace = ws AND k.key_version = new_version AND k.role_name = m.role_name);
  IF missing IS NOT NULL THEN
    RAISE EXCEPTION 'the new team key is not wrapped for % (an officer who has not joined yet must join first)', missing
      USING ERRCODE = '22023';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM team.wrapped_keys k WHERE k.workspace = ws AND k.key_version = new_version AND k.role_name = '#recovery') THEN
    RAISE EXCEPTION 'the new team key is not wrapped for the recovery key' USING ERRCODE = '22023';
  END IF;
  UPDATE team.workspaces SET key_version = new_version WHERE workspace = ws;
  IF NOT EXISTS (SELECT 1 FROM team.members m WHERE m.role_name = login AND m.active) THEN
    EXECUTE format('ALTER ROLE %I NOLOGIN', login);
  END IF;
  ev := team.event_of(payload, me);
  IF ev.workspace <> ws OR ev.kind <> 'member' OR ev.action <> 'remove' OR ev.ref <> login THEN
    RAISE EXCEPTION 'a remove event names its workspace, kind member, action remove and the officer' USING ERRCODE = '22023';
  END IF;
  PERFORM team.lock_workspace(ws);
  ev.result := 'ok';
  ev.key_version := new_version;
  ev := team.append_event(ev);
  RETURN jsonb_build_object('id', ev.event_id, 'seq', ev.seq, 'result', 'ok');
END $$;

-- Reads: members see their workspaces' rows and nothing else.
ALTER TABLE team.workspaces ENABLE ROW LEVEL SECURITY;
ALTER TABLE team.members ENABLE ROW LEVEL SECURITY;
ALTER TABLE team.officers ENABLE ROW LEVEL SECURITY;
ALTER TABLE team.events ENABLE ROW LEVEL SECURITY;
ALTER TABLE team.reviews ENABLE ROW LEVEL SECURITY;
ALTER TABLE team.wrapped_keys ENABLE ROW LEVEL SECURITY;
ALTER TABLE team.invites ENABLE ROW LEVEL SECURITY;
CREATE POLICY member_reads ON team.workspaces FOR SELECT TO ledgerdesk_officer USING (team.is_member(workspace));
CREATE POLICY member_reads ON team.members FOR SELECT TO ledgerdesk_officer USING (team.is_member(workspace));
CREATE POLICY member_reads ON team.officers FOR SELECT TO ledgerdesk_officer USING (
  EXISTS (SELECT 1 FROM team.members m WHERE m.role_name = officers.role_name AND team.is_member(m.workspace)));
CREATE POLICY member_reads ON team.events FOR SELECT TO ledgerdesk_officer USING (team.is_member(workspace));
CREATE POLICY member_reads ON team.reviews FOR SELECT TO ledgerdesk_officer USING (team.is_member(workspace));
CREATE POLICY own_keys ON team.wrapped_keys FOR SELECT TO ledgerdesk_officer
  USING (role_name = session_user AND team.is_member(workspace));

REVOKE ALL ON ALL TABLES IN SCHEMA team FROM PUBLIC;
REVOKE ALL ON ALL FUNCTIONS IN SCHEMA team FROM PUBLIC;
REVOKE ALL ON SCHEMA team FROM PUBLIC;
GRANT USAGE ON SCHEMA team TO ledgerdesk_officer;
GRANT SELECT ON team.workspaces, team.members, team.officers, team.events, team.reviews, team.wrapped_keys
  TO ledgerdesk_officer;
GRANT EXECUTE ON FUNCTION team.push(jsonb), team.my_invite(text), team.join(text, bytea, bytea, jsonb, jsonb),
  team.invite(text, name, text, text, text, bytea), team.remove_member(text, name, integer, jsonb, jsonb),
  team.is_member(text), team.is_lead(text), team.at_text(timestamptz)
  TO ledgerdesk_officer;
`,
  },
  {
    version: 2,
    name: 'the four-eyes policy changed by a lead, as a signed event',
    sql: String.raw`
-- A lead sets which moves of a workspace need a second officer. The new policy is what the lead
-- signed: the event's disposition carries the rules ("from>to", comma-separated, sorted; empty
-- for none), so every laptop verifying the history sees who changed the policy, to what, when.
CREATE FUNCTION team.set_policy(ws text, payload jsonb) RETURNS jsonb LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = team, pg_temp AS $$
DECLARE
  me name := session_user;
  ev team.events;
  rules text[];
  rule text;
BEGIN
  IF NOT team.is_lead(ws) THEN
    RAISE EXCEPTION 'only a lead of % changes its four-eyes policy', ws USING ERRCODE = '42501';
  END IF;
  ev := team.event_of(payload, me);
  IF ev.workspace <> ws OR ev.kind <> 'workspace' OR ev.action <> 'policy' OR ev.ref <> ws OR ev.disposition IS NULL THEN
    RAISE EXCEPTION 'a policy event names its workspace, kind workspace, action policy, ref the workspace and its rules'
      USING ERRCODE = '22023';
  END IF;
  rules := CASE WHEN ev.disposition = '' THEN ARRAY[]::text[] ELSE string_to_array(ev.disposition, ',') END;
  FOREACH rule IN ARRAY rules LOOP
    IF rule !~ '^(unreviewed|cleared|flagged|escalated|closed)>(cleared|flagged|escalated|closed)$'
       OR split_part(rule, '>', 1) = split_part(rule, '>', 2) THEN
      RAISE EXCEPTION 'a four-eyes rule is "from>to" over review states, e.g. flagged>cleared (not %)', rule
        USING ERRCODE = '22023';
    END IF;
  END LOOP;
  IF (SELECT count(DISTINCT r) FROM unnest(rules) AS r) <> cardinality(rules)
     OR ev.disposition <> array_to_string(ARRAY(SELECT r FROM unnest(rules) AS r ORDER BY r), ',') THEN
    RAISE EXCEPTION 'the rules must be sorted and named once each' USING ERRCODE = '22023';
  END IF;
  PERFORM team.lock_workspace(ws);
  UPDATE team.workspaces SET approval_rules = rules WHERE workspace = ws;
  ev.result := 'ok';
  ev := team.append_event(ev);
  RETURN jsonb_build_object('id', ev.event_id, 'seq', ev.seq, 'result', 'ok');
END $$;
REVOKE ALL ON FUNCTION team.set_policy(text, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION team.set_policy(text, jsonb) TO ledgerdesk_officer;
`,
  },
  SET_BASED_PUSH,
  SIGNED_MEMBERSHIP,
];
