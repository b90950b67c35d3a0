/**
 * Team migration 4 (issue 35): membership and the weakening of the policy enter the signed
 * history, and four-eyes counts people. The laptops re-decide every event with the same rules
 * (rules/itemRules.ts, rules/teamMembership.ts) and name any difference as tampering; these
 * functions are what an honest server does, so that an honest history always re-decides alike.
 *
 * - `team.found` (the administrator, at `team init`): the workspace, its lead (whose keys the
 *   lead's laptop made) and its founding officers' logins and invites, and the genesis event the
 *   lead signed naming all of them and the first policy.
 * - `team.invite_member` (a lead): an invite is a signed event naming the login, the role, the
 *   invite's one-time public key and when it expires; the invitee counts as the inviting lead's
 *   person until another person confirms them (`team.confirm_member`).
 * - `team.join`: a join names its invite and carries the new keys and the invite key's proof;
 *   an expired invite is refused.
 * - `team.sign_roster` (a lead, once, on a workspace made before this migration): the members
 *   and keys as the lead's laptop verified them, which starts the signed membership.
 * - `team.set_policy` / `team.decide_policy`: a stricter policy is in force at once; a weaker one
 *   waits until a second lead (another person) approves it, or a lead withdraws it.
 * - `team.push`: approvals and rejections name the proposal they answer (its chain hash), and
 *   the approver must be another person than the proposer.
 *
 * Workspaces made before this migration keep working unchanged (their history is "legacy" to the
 * laptops) until a lead signs the roster; their unused invites expire seven days from now.
 */
import type { TeamMigration } from './teamMigration.ts';

export const SIGNED_MEMBERSHIP: TeamMigration = {
  version: 4,
  name: 'membership and policy changes in the signed history; four-eyes counts people',
  sql: String.raw`
ALTER TABLE team.workspaces
  ADD COLUMN signed_from bigint,
  ADD COLUMN pending_rules text[],
  ADD COLUMN pending_by name,
  ADD COLUMN pending_hash bytea,
  ADD COLUMN pending_seq bigint;
ALTER TABLE team.members
  ADD COLUMN invited_by name,
  ADD COLUMN person name,
  ADD COLUMN founding boolean NOT NULL DEFAULT false;
UPDATE team.members SET person = role_name;
ALTER TABLE team.members ALTER COLUMN person SET NOT NULL;
ALTER TABLE team.invites
  ADD COLUMN expires_at timestamptz,
  ADD COLUMN event_id uuid;
UPDATE team.invites SET expires_at = clock_timestamp() + interval '7 days' WHERE used_at IS NULL;
ALTER TABLE team.reviews ADD COLUMN proposal_hash bytea;
UPDATE team.reviews AS r SET proposal_hash = (SELECT e.hash FROM team.events AS e
  WHERE e.workspace = r.workspace AND e.kind = r.kind AND e.ref = r.ref AND e.action = 'propose' AND e.result = 'ok'
  ORDER BY e.seq DESC LIMIT 1);

CREATE FUNCTION team.is_signed(ws text) RETURNS boolean LANGUAGE sql STABLE SECURITY DEFINER
  SET search_path = team, pg_temp AS $$
  SELECT EXISTS (SELECT 1 FROM team.workspaces w WHERE w.workspace = ws AND w.signed_from IS NOT NULL)
$$;

-- A login for an officer (the password given as a SCRAM verifier), or the existing officer login.
CREATE FUNCTION team.officer_login(login name, display text, verifier text) RETURNS void LANGUAGE plpgsql
  SET search_path = team, pg_temp AS $$
BEGIN
  IF login !~ '^[a-z][a-z0-9_]{0,47}$' THEN
    RAISE EXCEPTION 'an officer''s login is lower-case letters, digits and _ (at most 48), starting with a letter' USING ERRCODE = '22023';
  END IF;
  IF verifier !~ '^SCRAM-SHA-256\$' THEN
    RAISE EXCEPTION 'the login''s password must be given as a SCRAM-SHA-256 verifier' USING ERRCODE = '22023';
  END IF;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = login) THEN
    IF NOT EXISTS (SELECT 1 FROM team.officers o WHERE o.role_name = login) THEN
      RAISE EXCEPTION 'a login named % already exists and is not an officer', login USING ERRCODE = '42710';
    END IF;
  ELSE
    EXECUTE format('CREATE ROLE %I LOGIN PASSWORD %L IN ROLE ledgerdesk_officer', login, verifier);
    INSERT INTO team.officers (role_name, display_name) VALUES (login, display);
  END IF;
END $$;

CREATE FUNCTION team.expiry_of(expires_at timestamptz) RETURNS timestamptz LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF expires_at IS NULL OR expires_at <= clock_timestamp() OR expires_at > clock_timestamp() + interval '90 days' THEN
    RAISE EXCEPTION 'an invite expires between now and 90 days from now' USING ERRCODE = '22023';
  END IF;
  RETURN expires_at;
END $$;

-- team init: the workspace, its lead and founding officers, and the genesis event the lead signed.
CREATE FUNCTION team.found(ws text, recovery_public bytea, lead name, lead_verifier text, lead_sign bytea,
    lead_box bytea, wraps jsonb, invites jsonb, payload jsonb)
  RETURNS jsonb LANGUAGE plpgsql SECURITY DEFINER SET search_path = team, pg_temp AS $$
DECLARE
  ev team.events;
  terms jsonb;
  i jsonb;
  w jsonb;
BEGIN
  ev := team.event_of(payload, lead);
  IF ev.workspace <> ws OR ev.kind <> 'workspace' OR ev.action <> 'genesis' OR ev.ref <> ws THEN
    RAISE EXCEPTION 'a genesis event names its workspace, kind workspace, action genesis and the workspace' USING ERRCODE = '22023';
  END IF;
  terms := ev.disposition::jsonb;
  IF terms->>'lead' IS DISTINCT FROM lead OR terms->>'sign' IS DISTINCT FROM encode(lead_sign, 'base64')
     OR terms->>'box' IS DISTINCT FROM encode(lead_box, 'base64')
     OR jsonb_array_length(terms->'members') <> jsonb_array_length(invites)
     OR EXISTS (SELECT 1 FROM jsonb_array_elements(invites) AS x(i) WHERE NOT EXISTS (
       SELECT 1 FROM jsonb_array_elements(terms->'members') AS y(m)
       WHERE y.m->>'login' = x.i->>'login' AND y.m->>'role' = x.i->>'role'
         AND (y.m->>'expires')::timestamptz = (x.i->>'expires_at')::timestamptz)) THEN
    RAISE EXCEPTION 'the genesis event does not name the lead, the keys and the invites given' USING ERRCODE = '22023';
  END IF;
  INSERT INTO team.workspaces (workspace, recovery_public, approval_rules)
    VALUES (ws, recovery_public, ARRAY(SELECT jsonb_array_elements_text(terms->'rules')));
  PERFORM team.officer_login(lead, lead, lead_verifier);
  UPDATE team.officers SET sign_public = lead_sign, box_public = lead_box, joined_at = clock_timestamp()
    WHERE role_name = lead AND sign_public IS NULL;
  IF EXISTS (SELECT 1 FROM team.officers o WHERE o.role_name = lead AND (o.sign_public <> lead_sign OR o.box_public <> lead_box)) THEN
    RAISE EXCEPTION '% is an officer of another workspace, with other keys: lead with another login', lead USING ERRCODE = '55000';
  END IF;
  INSERT INTO team.members (workspace, role_name, role, person, founding) VALUES (ws, lead, 'lead', lead, true);
  FOR w IN SELECT * FROM jsonb_array_elements(wraps) LOOP
    INSERT INTO team.wrapped_keys (workspace, key_version, role_name, wrapped)
      VALUES (ws, 1, w->>'role_name', decode(w->>'wrapped', 'base64'));
  END LOOP;
  FOR i IN SELECT * FROM jsonb_array_elements(invites) LOOP
    IF i->>'login' = lead THEN
      RAISE EXCEPTION '% is the lead and is not invited', lead USING ERRCODE = '22023';
    END IF;
    PERFORM team.officer_login((i->>'login')::name, i->>'login', i->>'verifier');
    INSERT INTO team.members (workspace, role_name, role, invited_by, person, founding)
      VALUES (ws, (i->>'login')::name, i->>'role', lead, (i->>'login')::name, true);
    INSERT INTO team.invites (workspace, role_name, wrapped, expires_at, event_id)
      VALUES (ws, (i->>'login')::name, decode(i->>'wrapped', 'base64'), team.expiry_of((i->>'expires_at')::timestamptz), ev.event_id);
  END LOOP;
  PERFORM team.lock_workspace(ws);
  ev.result := 'ok';
  ev := team.append_event(ev);
  UPDATE team.workspaces SET signed_from = ev.seq WHERE workspace = ws;
  RETURN jsonb_build_object('id', ev.event_id, 'seq', ev.seq, 'hash', encode(ev.hash, 'hex'));
END $$;

-- A lead invites an officer (or invites again one who has not joined): a signed event.
CREATE FUNCTION team.invite_member(ws text, login name, display text, member_role text, verifier text,
    wrapped bytea, expires_at timestamptz, payload jsonb)
  RETURNS jsonb LANGUAGE plpgsql SECURITY DEFINER SET search_path = team, pg_temp AS $$
DECLARE
  me name := session_user;
  ev team.events;
  terms jsonb;
  existing team.members;
  inviter_person name;
BEGIN
  IF NOT team.is_lead(ws) THEN
    RAISE EXCEPTION 'only a lead of % invites officers', ws USING ERRCODE = '42501';
  END IF;
  IF NOT team.is_signed(ws) THEN
    RAISE EXCEPTION 'the membership of % is not in its signed history yet: a lead runs "ledger team upgrade" first', ws
      USING ERRCODE = '55000';
  END IF;
  ev := team.event_of(payload, me);
  IF ev.workspace <> ws OR ev.kind <> 'member' OR ev.action <> 'invite' OR ev.ref <> login THEN
    RAISE EXCEPTION 'an invite event names its workspace, kind member, action invite and the officer' USING ERRCODE = '22023';
  END IF;
  terms := ev.disposition::jsonb;
  IF terms->>'role' IS DISTINCT FROM member_role OR (terms->>'expires')::timestamptz IS DISTINCT FROM expires_at THEN
    RAISE EXCEPTION 'the invite event does not name the role and the expiry given' USING ERRCODE = '22023';
  END IF;
  PERFORM team.expiry_of(expires_at);
  SELECT person INTO inviter_person FROM team.members m WHERE m.workspace = ws AND m.role_name = me;
  SELECT * INTO existing FROM team.members m WHERE m.workspace = ws AND m.role_name = login;
  IF FOUND THEN
    IF NOT existing.active OR EXISTS (SELECT 1 FROM team.officers o WHERE o.role_name = login AND o.sign_public IS NOT NULL) THEN
      RAISE EXCEPTION '% is already a member of %', login, ws USING ERRCODE = '23505';
    END IF;
    IF existing.role <> member_role THEN
      RAISE EXCEPTION 'a new invite does not change the role of % (%)', login, existing.role USING ERRCODE = '22023';
    END IF;
    EXECUTE format('ALTER ROLE %I LOGIN PASSWORD %L', login, verifier);
    DELETE FROM team.invites WHERE workspace = ws AND role_name = login;
    INSERT INTO team.invites (workspace, role_name, wrapped, expires_at, event_id) VALUES (ws, login, wrapped, expires_at, ev.event_id);
    IF existing.invited_by IS NULL AND NOT existing.founding THEN
      -- Invited before the membership was signed and never introduced in it: this lead introduces them now.
      UPDATE team.members SET invited_by = me, person = inviter_person WHERE workspace = ws AND role_name = login;
      existing.person := inviter_person;
    END IF;
    ev.new_state := existing.person;
  ELSE
    PERFORM team.officer_login(login, display, verifier);
    INSERT INTO team.members (workspace, role_name, role, invited_by, person)
      VALUES (ws, login, member_role, me, inviter_person);
    INSERT INTO team.invites (workspace, role_name, wrapped, expires_at, event_id) VALUES (ws, login, wrapped, expires_at, ev.event_id);
    ev.new_state := inviter_person;
  END IF;
  PERFORM team.lock_workspace(ws);
  ev.result := 'ok';
  ev := team.append_event(ev);
  RETURN jsonb_build_object('id', ev.event_id, 'seq', ev.seq, 'result', 'ok');
END $$;

-- The unsigned invite of af86022, for a workspace whose membership is not signed yet.
CREATE OR REPLACE FUNCTION team.invite(ws text, login name, display text, member_role text, verifier text, wrapped bytea)
  RETURNS void LANGUAGE plpgsql SECURITY DEFINER SET search_path = team, pg_temp AS $$
BEGIN
  IF team.is_signed(ws) THEN
    RAISE EXCEPTION 'invites of % are signed by a lead (team migration 4): update Ledgerdesk', ws USING ERRCODE = '55000';
  END IF;
  IF NOT (team.is_lead(ws) OR EXISTS (SELECT 1 FROM team.workspaces w WHERE w.workspace = ws AND w.created_by = session_user)) THEN
    RAISE EXCEPTION 'only a lead of % invites officers', ws USING ERRCODE = '42501';
  END IF;
  IF EXISTS (SELECT 1 FROM team.members m WHERE m.workspace = ws AND m.role_name = login) THEN
    RAISE EXCEPTION '% is already a member of %', login, ws USING ERRCODE = '23505';
  END IF;
  PERFORM team.officer_login(login, display, verifier);
  INSERT INTO team.members (workspace, role_name, role, person) VALUES (ws, login, member_role, login);
  INSERT INTO team.invites (workspace, role_name, wrapped, expires_at)
    VALUES (ws, login, wrapped, clock_timestamp() + interval '7 days');
END $$;

CREATE OR REPLACE FUNCTION team.my_invite(ws text) RETURNS bytea LANGUAGE plpgsql STABLE SECURITY DEFINER
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
  IF found_invite.expires_at IS NOT NULL AND clock_timestamp() > found_invite.expires_at THEN
    RAISE EXCEPTION 'this invite expired on %: ask a lead of % for a new one', team.at_text(found_invite.expires_at), ws
      USING ERRCODE = '55000';
  END IF;
  RETURN found_invite.wrapped;
END $$;

-- The invited officer joins: the keys, the wraps, the invite spent, and the signed join event
-- (naming its invite, with the invite key's proof, once the membership is signed).
CREATE OR REPLACE FUNCTION team.join(ws text, sign_key bytea, box_key bytea, wraps jsonb, payload jsonb)
  RETURNS jsonb LANGUAGE plpgsql SECURITY DEFINER SET search_path = team, pg_temp AS $$
DECLARE
  me name := session_user;
  ev team.events;
  w jsonb;
  terms jsonb;
  invite team.invites;
BEGIN
  PERFORM team.my_invite(ws);
  SELECT * INTO invite FROM team.invites i WHERE i.workspace = ws AND i.role_name = me;
  ev := team.event_of(payload, me);
  IF ev.workspace <> ws OR ev.kind <> 'member' OR ev.action <> 'join' OR ev.ref <> me THEN
    RAISE EXCEPTION 'a join event names its workspace, kind member, action join and the officer' USING ERRCODE = '22023';
  END IF;
  IF team.is_signed(ws) THEN
    IF ev.disposition IS NULL OR invite.event_id IS NULL THEN
      RAISE EXCEPTION 'this invite was made before the membership of % was signed: ask a lead for a new one (ledger team invite)', ws
        USING ERRCODE = '55000';
    END IF;
    terms := ev.disposition::jsonb;
    IF terms->>'sign' IS DISTINCT FROM encode(sign_key, 'base64') OR terms->>'box' IS DISTINCT FROM encode(box_key, 'base64')
       OR (terms->>'invite')::uuid IS DISTINCT FROM invite.event_id THEN
      RAISE EXCEPTION 'the join event does not name these keys and this invite' USING ERRCODE = '22023';
    END IF;
    ev.new_state := (SELECT m.person FROM team.members m WHERE m.workspace = ws AND m.role_name = me);
  ELSIF ev.disposition IS NOT NULL THEN
    RAISE EXCEPTION 'a join before the membership is signed carries no terms' USING ERRCODE = '22023';
  END IF;
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
  PERFORM team.lock_workspace(ws);
  ev.result := 'ok';
  ev := team.append_event(ev);
  IF invite.expires_at IS NOT NULL AND ev.at > invite.expires_at THEN
    RAISE EXCEPTION 'this invite expired on %: ask a lead of % for a new one', team.at_text(invite.expires_at), ws
      USING ERRCODE = '55000';
  END IF;
  RETURN jsonb_build_object('id', ev.event_id, 'seq', ev.seq, 'result', 'ok');
END $$;

-- A member confirms another after comparing fingerprints: from then on an invitee counts as a
-- person of their own (when the one confirming is another person than the invitee counted as).
CREATE FUNCTION team.confirm_member(ws text, payload jsonb) RETURNS jsonb LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = team, pg_temp AS $$
DECLARE
  me name := session_user;
  ev team.events;
  target team.members;
  my_person name;
  key bytea;
BEGIN
  IF NOT team.is_member(ws) OR NOT team.is_signed(ws) THEN
    RAISE EXCEPTION '% is not a member of % (or its membership is not signed yet)', me, ws USING ERRCODE = '42501';
  END IF;
  ev := team.event_of(payload, me);
  IF ev.workspace <> ws OR ev.kind <> 'member' OR ev.action <> 'confirm' OR ev.ref = me THEN
    RAISE EXCEPTION 'a confirmation names its workspace, kind member, action confirm and another officer' USING ERRCODE = '22023';
  END IF;
  SELECT * INTO target FROM team.members m WHERE m.workspace = ws AND m.role_name = ev.ref AND m.active;
  SELECT o.sign_public INTO key FROM team.officers o WHERE o.role_name = ev.ref;
  IF NOT FOUND OR target.role_name IS NULL OR key IS NULL THEN
    RAISE EXCEPTION '% is not a member of % that joined', ev.ref, ws USING ERRCODE = '22023';
  END IF;
  IF (ev.disposition::jsonb)->>'sign' IS DISTINCT FROM encode(key, 'base64') THEN
    RAISE EXCEPTION 'this confirmation names another key than the one % joined with', ev.ref USING ERRCODE = '22023';
  END IF;
  SELECT m.person INTO my_person FROM team.members m WHERE m.workspace = ws AND m.role_name = me;
  PERFORM team.lock_workspace(ws);
  IF my_person <> target.person THEN
    UPDATE team.members SET person = role_name WHERE workspace = ws AND role_name = ev.ref;
    target.person := target.role_name;
  END IF;
  ev.result := 'ok';
  ev.new_state := target.person;
  ev := team.append_event(ev);
  RETURN jsonb_build_object('id', ev.event_id, 'seq', ev.seq, 'result', 'ok', 'person', target.person);
END $$;

-- A lead signs the roster of a workspace made before this migration: its membership is signed
-- from here on; a joined member the roster leaves out is removed.
CREATE FUNCTION team.sign_roster(ws text, payload jsonb) RETURNS jsonb LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = team, pg_temp AS $$
DECLARE
  me name := session_user;
  ev team.events;
  terms jsonb;
  entry jsonb;
  left_out name;
BEGIN
  IF NOT team.is_lead(ws) THEN
    RAISE EXCEPTION 'only a lead of % signs its roster', ws USING ERRCODE = '42501';
  END IF;
  IF team.is_signed(ws) THEN
    RAISE EXCEPTION 'the membership of % is already in its signed history', ws USING ERRCODE = '55000';
  END IF;
  ev := team.event_of(payload, me);
  IF ev.workspace <> ws OR ev.kind <> 'workspace' OR ev.action <> 'roster' OR ev.ref <> ws THEN
    RAISE EXCEPTION 'a roster event names its workspace, kind workspace, action roster and the workspace' USING ERRCODE = '22023';
  END IF;
  terms := ev.disposition::jsonb;
  IF ARRAY(SELECT jsonb_array_elements_text(terms->'rules')) IS DISTINCT FROM
     ARRAY(SELECT r FROM unnest((SELECT approval_rules FROM team.workspaces WHERE workspace = ws)) AS r ORDER BY r) THEN
    RAISE EXCEPTION 'the roster names other four-eyes rules than the ones in force' USING ERRCODE = '22023';
  END IF;
  FOR entry IN SELECT * FROM jsonb_array_elements(terms->'members') LOOP
    IF NOT EXISTS (SELECT 1 FROM team.members m JOIN team.officers o ON o.role_name = m.role_name
        WHERE m.workspace = ws AND m.role_name = entry->>'login' AND m.active
          AND encode(o.sign_public, 'base64') = entry->>'sign' AND encode(o.box_public, 'base64') = entry->>'box') THEN
      RAISE EXCEPTION 'the roster names % with keys the server does not hold for a member that joined', entry->>'login'
        USING ERRCODE = '22023';
    END IF;
    UPDATE team.members SET role = entry->>'role', invited_by = NULL, person = role_name, founding = true
      WHERE workspace = ws AND role_name = entry->>'login';
  END LOOP;
  FOR left_out IN SELECT m.role_name FROM team.members m JOIN team.officers o ON o.role_name = m.role_name
      WHERE m.workspace = ws AND m.active AND o.sign_public IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM jsonb_array_elements(terms->'members') AS x(e) WHERE x.e->>'login' = m.role_name) LOOP
    UPDATE team.members SET active = false WHERE workspace = ws AND role_name = left_out;
  END LOOP;
  PERFORM team.lock_workspace(ws);
  ev.result := 'ok';
  ev := team.append_event(ev);
  UPDATE team.workspaces SET signed_from = ev.seq WHERE workspace = ws;
  RETURN jsonb_build_object('id', ev.event_id, 'seq', ev.seq, 'result', 'ok');
END $$;

-- The policy: as migration 2 before the membership is signed; after it, a weaker policy waits.
CREATE OR REPLACE FUNCTION team.set_policy(ws text, payload jsonb) RETURNS jsonb LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = team, pg_temp AS $$
DECLARE
  me name := session_user;
  ev team.events;
  rules text[];
  rule text;
  current team.workspaces;
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
  SELECT * INTO current FROM team.workspaces w WHERE w.workspace = ws FOR UPDATE;
  ev.result := 'ok';
  IF current.signed_from IS NULL THEN
    UPDATE team.workspaces SET approval_rules = rules WHERE workspace = ws;
    ev := team.append_event(ev);
  ELSIF current.pending_rules IS NOT NULL THEN
    RAISE EXCEPTION 'a weaker policy proposed by % awaits a second lead: approve or withdraw it first', current.pending_by
      USING ERRCODE = '55000';
  ELSIF current.approval_rules <@ rules THEN
    ev.new_state := 'in-force';
    UPDATE team.workspaces SET approval_rules = rules WHERE workspace = ws;
    ev := team.append_event(ev);
  ELSE
    ev.new_state := 'pending';
    ev := team.append_event(ev);
    UPDATE team.workspaces SET pending_rules = rules, pending_by = me, pending_hash = ev.hash, pending_seq = ev.seq
      WHERE workspace = ws;
  END IF;
  RETURN jsonb_build_object('id', ev.event_id, 'seq', ev.seq, 'result', 'ok', 'state', ev.new_state);
END $$;

-- A second lead approves a weaker policy (naming it by its chain hash), or a lead withdraws it.
CREATE FUNCTION team.decide_policy(ws text, payload jsonb) RETURNS jsonb LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = team, pg_temp AS $$
DECLARE
  me name := session_user;
  ev team.events;
  current team.workspaces;
  my_person name;
  their_person name;
BEGIN
  IF NOT team.is_lead(ws) THEN
    RAISE EXCEPTION 'only a lead of % decides its four-eyes policy', ws USING ERRCODE = '42501';
  END IF;
  ev := team.event_of(payload, me);
  IF ev.workspace <> ws OR ev.kind <> 'workspace' OR ev.action NOT IN ('policy-approve', 'policy-reject') OR ev.ref <> ws THEN
    RAISE EXCEPTION 'a policy decision names its workspace, kind workspace, action policy-approve or policy-reject and the workspace'
      USING ERRCODE = '22023';
  END IF;
  PERFORM team.lock_workspace(ws);
  SELECT * INTO current FROM team.workspaces w WHERE w.workspace = ws FOR UPDATE;
  IF current.pending_rules IS NULL THEN
    RAISE EXCEPTION 'no weaker policy of % awaits a decision', ws USING ERRCODE = '55000';
  END IF;
  IF ev.disposition IS DISTINCT FROM encode(current.pending_hash, 'hex') THEN
    RAISE EXCEPTION 'the policy awaiting a decision is not the one this names (event %)', current.pending_seq USING ERRCODE = '55000';
  END IF;
  ev.result := 'ok';
  IF ev.action = 'policy-approve' THEN
    SELECT m.person INTO my_person FROM team.members m WHERE m.workspace = ws AND m.role_name = me;
    SELECT m.person INTO their_person FROM team.members m WHERE m.workspace = ws AND m.role_name = current.pending_by;
    IF my_person = their_person THEN
      RAISE EXCEPTION 'a weaker policy needs a second lead: % counts as the same person as % (%)', me, current.pending_by, my_person
        USING ERRCODE = '42501';
    END IF;
    ev.new_state := 'in-force';
    UPDATE team.workspaces SET approval_rules = pending_rules WHERE workspace = ws;
  ELSE
    ev.new_state := 'withdrawn';
  END IF;
  UPDATE team.workspaces SET pending_rules = NULL, pending_by = NULL, pending_hash = NULL, pending_seq = NULL WHERE workspace = ws;
  ev := team.append_event(ev);
  RETURN jsonb_build_object('id', ev.event_id, 'seq', ev.seq, 'result', 'ok', 'state', ev.new_state);
END $$;

-- Migration 3's set-based push, with approvals naming their proposal and four-eyes counting people
-- once the membership is signed.
CREATE OR REPLACE FUNCTION team.push(batch jsonb) RETURNS SETOF jsonb LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = team, pg_temp AS $$
DECLARE
  me name := session_user;
  ws text;
  policy team.workspaces;
  signed boolean;
  persons jsonb;
  evs team.events[];
  firsts integer[];
  known jsonb;
  stored jsonb;
  reviews team.reviews[];
  slot jsonb;
  touched boolean[];
  fresh team.events[] := ARRAY[]::team.events[];
  answers jsonb[] := ARRAY[]::jsonb[];
  head_seq bigint;
  head_hash bytea;
  ev team.events;
  r team.reviews;
  before team.reviews;
  result text;
  detail text;
  next_state text;
  bumps boolean;
  j integer;
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
  PERFORM team.lock_workspace(ws);
  SELECT * INTO policy FROM team.workspaces w WHERE w.workspace = ws;
  signed := policy.signed_from IS NOT NULL;
  SELECT coalesce(jsonb_object_agg(m.role_name, m.person), '{}'::jsonb) INTO persons FROM team.members m WHERE m.workspace = ws;

  SELECT array_agg(team.event_of(b.item, me) ORDER BY b.n) INTO evs
    FROM jsonb_array_elements(batch) WITH ORDINALITY AS b(item, n);
  SELECT array_agg(f.first ORDER BY f.n) INTO firsts FROM (
    SELECT n, min(n) OVER (PARTITION BY (evs[n]).event_id) AS first FROM generate_subscripts(evs, 1) AS n) AS f;
  SELECT coalesce(jsonb_object_agg(e.event_id::text, to_jsonb(e)), '{}'::jsonb) INTO known
    FROM team.events e WHERE e.event_id = ANY (ARRAY(SELECT u.event_id FROM unnest(evs) AS u));

  INSERT INTO team.reviews (workspace, kind, ref)
    SELECT DISTINCT ws, u.kind, u.ref FROM unnest(evs) AS u WHERE NOT known ? u.event_id::text
    ON CONFLICT DO NOTHING;
  PERFORM 1 FROM team.reviews t
    WHERE t.workspace = ws AND (t.kind, t.ref) IN (SELECT u.kind, u.ref FROM unnest(evs) AS u)
    ORDER BY t.kind, t.ref FOR UPDATE;
  SELECT coalesce(array_agg(t ORDER BY t.kind, t.ref), ARRAY[]::team.reviews[]) INTO reviews FROM team.reviews t
    WHERE t.workspace = ws AND (t.kind, t.ref) IN (SELECT u.kind, u.ref FROM unnest(evs) AS u);
  SELECT coalesce(jsonb_object_agg((reviews[k]).kind || E'\n' || (reviews[k]).ref, k), '{}'::jsonb) INTO slot
    FROM generate_subscripts(reviews, 1) AS k;
  touched := array_fill(false, ARRAY[greatest(cardinality(reviews), 1)]);

  SELECT e.seq, e.hash INTO head_seq, head_hash FROM team.events AS e WHERE e.workspace = ws ORDER BY e.seq DESC LIMIT 1;
  head_seq := coalesce(head_seq, 0);
  head_hash := coalesce(head_hash, '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea);

  FOR i IN 1 .. cardinality(evs) LOOP
    ev := evs[i];
    IF firsts[i] <> i THEN
      answers[i] := answers[firsts[i]] || jsonb_build_object('replayed', true);
      RETURN NEXT answers[i];
      CONTINUE;
    END IF;
    stored := known -> ev.event_id::text;
    IF stored IS NOT NULL THEN
      IF stored->>'officer' <> me OR stored->>'workspace' <> ev.workspace THEN
        RAISE EXCEPTION 'event id % is already used by another event', ev.event_id USING ERRCODE = '23505';
      END IF;
      answers[i] := jsonb_build_object('id', ev.event_id, 'seq', stored->'seq', 'result', stored->'result',
        'detail', stored->'detail', 'version', stored->'new_version', 'state', stored->'new_state', 'replayed', true);
      RETURN NEXT answers[i];
      CONTINUE;
    END IF;

    IF ev.kind NOT IN ('pending-transaction', 'application', 'webhook-send') THEN
      RAISE EXCEPTION 'unknown kind %', ev.kind USING ERRCODE = '22023';
    END IF;
    IF ev.action NOT IN ('propose', 'approve', 'reject', 'claim', 'assign', 'release', 'note') THEN
      RAISE EXCEPTION 'unknown action %', ev.action USING ERRCODE = '22023';
    END IF;
    IF ev.action = 'propose' AND (ev.disposition IS NULL OR ev.disposition NOT IN ('cleared', 'flagged', 'escalated', 'closed')) THEN
      RAISE EXCEPTION 'a proposal needs a disposition: cleared, flagged, escalated or closed' USING ERRCODE = '22023';
    END IF;
    IF ev.action = 'note' AND ev.sealed IS NULL THEN
      RAISE EXCEPTION 'a note event needs its sealed note' USING ERRCODE = '22023';
    END IF;
    bumps := ev.action IN ('propose', 'approve', 'reject');
    IF bumps AND ev.base_version IS NULL THEN
      RAISE EXCEPTION '% needs base_version', ev.action USING ERRCODE = '22023';
    END IF;

    j := (slot ->> (ev.kind || E'\n' || ev.ref))::integer;
    r := reviews[j];
    before := r;
    result := 'ok';
    detail := NULL;
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
      ELSE
        next_state := CASE WHEN (r.state || '>' || ev.disposition) = ANY (policy.approval_rules) THEN 'proposed'
          ELSE ev.disposition END;
        r.state := next_state;
        r.prior_state := before.state;
        r.proposed_disposition := ev.disposition;
        r.proposed_by := me;
        r.approved_by := NULL;
      END IF;
    ELSIF ev.action IN ('approve', 'reject') THEN
      IF r.state <> 'proposed' THEN
        result := 'refused';
        detail := format('there is no proposed disposition to %s', ev.action);
      ELSIF r.proposed_by = me THEN
        result := 'refused';
        detail := format('four-eyes: the officer who proposed a disposition cannot %s it', ev.action);
      ELSIF signed AND (persons->>me::text) IS NOT DISTINCT FROM (persons->>r.proposed_by::text) THEN
        result := 'refused';
        detail := format('four-eyes counts people: %s and %s count as one person (%s) until another member confirms them',
          me, r.proposed_by, coalesce(persons->>me::text, me::text));
      ELSIF signed AND ev.disposition IS NULL THEN
        result := 'refused';
        detail := format('%s must name the proposal it answers: update Ledgerdesk',
          CASE WHEN ev.action = 'approve' THEN 'an approval' ELSE 'a rejection' END);
      ELSIF signed AND ev.disposition IS DISTINCT FROM encode(r.proposal_hash, 'hex') THEN
        result := 'refused';
        detail := format('the proposal awaiting a second officer is not the one this %s names: review again', ev.action);
      ELSIF ev.action = 'reject' AND ev.sealed IS NULL THEN
        result := 'refused';
        detail := 'a rejection needs a note saying why';
      ELSIF ev.action = 'approve' THEN
        next_state := before.proposed_disposition;
        r.state := before.proposed_disposition;
        r.approved_by := me;
      ELSE
        next_state := before.prior_state;
        r.state := before.prior_state;
        r.proposed_disposition := NULL;
        r.approved_by := NULL;
      END IF;
    ELSIF ev.action = 'claim' THEN
      IF r.assignee IS NOT NULL AND r.assignee <> me THEN
        result := 'refused';
        detail := format('already claimed by %s', r.assignee);
      ELSE
        r.assignee := me;
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
        r.assignee := ev.assignee;
      END IF;
    ELSIF ev.action = 'release' THEN
      IF r.assignee IS NOT NULL AND r.assignee <> me AND NOT team.is_lead(ev.workspace) THEN
        result := 'refused';
        detail := format('assigned to %s: only %s or a lead can release it', r.assignee, r.assignee);
      ELSE
        r.assignee := NULL;
      END IF;
    END IF;

    ev.result := result;
    ev.detail := detail;
    ev.new_state := next_state;
    ev.new_version := CASE WHEN result = 'ok' AND bumps THEN before.version + 1 ELSE before.version END;
    ev.seq := head_seq + 1;
    ev.prev_hash := head_hash;
    ev.at := date_trunc('microseconds', clock_timestamp());
    ev.hash := sha256(ev.prev_hash || team.canonical(ev));
    head_seq := ev.seq;
    head_hash := ev.hash;
    fresh[cardinality(fresh) + 1] := ev;
    IF result = 'ok' THEN
      IF bumps THEN
        r.version := ev.new_version;
        r.last_action := ev.action;
        r.last_by := me;
        r.last_disposition := CASE WHEN ev.action IN ('approve', 'reject') THEN before.proposed_disposition
          ELSE ev.disposition END;
        r.last_seq := ev.seq;
      END IF;
      IF ev.action = 'propose' THEN
        r.proposal_hash := ev.hash;
      END IF;
      reviews[j] := r;
      touched[j] := true;
    END IF;
    answers[i] := jsonb_build_object('id', ev.event_id, 'seq', ev.seq, 'result', result, 'detail', detail,
      'version', ev.new_version, 'state', next_state, 'replayed', false);
    RETURN NEXT answers[i];
  END LOOP;

  INSERT INTO team.events SELECT * FROM unnest(fresh);
  UPDATE team.reviews AS t SET state = u.state, prior_state = u.prior_state,
      proposed_disposition = u.proposed_disposition, proposed_by = u.proposed_by, approved_by = u.approved_by,
      assignee = u.assignee, version = u.version, last_action = u.last_action, last_by = u.last_by,
      last_disposition = u.last_disposition, last_seq = u.last_seq, proposal_hash = u.proposal_hash
    FROM unnest(reviews) WITH ORDINALITY AS u
    WHERE touched[u.ordinality] AND t.workspace = u.workspace AND t.kind = u.kind AND t.ref = u.ref;
END $$;

REVOKE ALL ON FUNCTION team.found(text, bytea, name, text, bytea, bytea, jsonb, jsonb, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION team.officer_login(name, text, text), team.expiry_of(timestamptz) FROM PUBLIC;
REVOKE ALL ON FUNCTION team.invite_member(text, name, text, text, text, bytea, timestamptz, jsonb),
  team.confirm_member(text, jsonb), team.sign_roster(text, jsonb), team.decide_policy(text, jsonb),
  team.is_signed(text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION team.invite_member(text, name, text, text, text, bytea, timestamptz, jsonb),
  team.confirm_member(text, jsonb), team.sign_roster(text, jsonb), team.decide_policy(text, jsonb),
  team.is_signed(text) TO ledgerdesk_officer;
`,
};
