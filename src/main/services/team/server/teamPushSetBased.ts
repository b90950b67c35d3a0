/**
 * Team migration 3: `team.push` decides a batch in memory and writes it set-based.
 *
 * Migration 1's push ran about eight SQL statements per event (read the workspace, insert and
 * lock the review, update it twice, read the chain's head, insert the event): 0.38–0.90 ms of
 * server CPU per event, most of it statement overhead. This one runs a fixed number of
 * statements per batch of up to 1,000: parse every event, look up the known ids, create and lock
 * every review the batch touches (in (kind, ref) order), read the head once; then decides each
 * event in order against the reviews held in a PL/pgSQL array and chains it (one SHA-256 each);
 * then one multi-row INSERT of the events and one UPDATE … FROM unnest() of the reviews that
 * moved. It also makes team.canonical() PL/pgSQL (same bytes, seven times cheaper; see below).
 * The rules, their sentences and the answers are migration 1's, unchanged: the same
 * integration tests hold them. The four-eyes CHECK and the append-only triggers still guard the
 * tables whatever a function does.
 */
import type { TeamMigration } from './teamMigration.ts';

export const SET_BASED_PUSH: TeamMigration = {
  version: 3,
  name: 'team.push decides a batch in memory and writes it set-based',
  sql: String.raw`
-- The same bytes as migration 1's team.canonical(), as a PL/pgSQL function: the SQL function
-- was not inlined (a whole-row argument read 19 times) and ran through the SQL-function
-- executor at every call, 0.2–0.3 ms each, most of a push's server CPU; PL/pgSQL evaluates
-- this one expression (its team.lp calls inlined) about seven times faster.
CREATE OR REPLACE FUNCTION team.canonical(e team.events) RETURNS bytea LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN convert_to(E'ledgerdesk-team-event-v1
', 'UTF8')
    || team.lp(e.workspace) || team.lp(e.seq::text) || team.lp(e.event_id::text) || team.lp(e.officer::text)
    || team.lp(team.at_text(e.at)) || team.lp(e.client_at) || team.lp(e.kind) || team.lp(e.ref)
    || team.lp(e.action) || team.lp(e.disposition) || team.lp(e.assignee::text)
    || team.lp(e.base_version::text) || team.lp(e.key_version::text) || team.lp(e.result)
    || team.lp(e.detail) || team.lp(e.new_version::text) || team.lp(e.new_state)
    || team.lpb(e.sealed) || team.lpb(e.signature);
END $$;

CREATE OR REPLACE FUNCTION team.push(batch jsonb) RETURNS SETOF jsonb LANGUAGE plpgsql SECURITY DEFINER
  SET search_path = team, pg_temp AS $$
DECLARE
  me name := session_user;
  ws text;
  policy team.workspaces;
  evs team.events[];
  -- For each event of the batch, the position of the first event with its id (a retry inside
  -- one batch is answered like a retry across batches).
  firsts integer[];
  known jsonb;
  stored jsonb;
  reviews team.reviews[];
  -- "kind" LF "ref" -> the review's position in reviews.
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
  -- Before the head is read: appends to this workspace run one at a time, so seq = commit order.
  PERFORM team.lock_workspace(ws);
  SELECT * INTO policy FROM team.workspaces w WHERE w.workspace = ws;

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
    ELSIF ev.action = 'note' AND ev.sealed IS NULL THEN
      RAISE EXCEPTION 'a note event needs its sealed note' USING ERRCODE = '22023';
    END IF;

    ev.result := result;
    ev.detail := detail;
    ev.new_state := next_state;
    ev.new_version := CASE WHEN result = 'ok' AND bumps THEN before.version + 1 ELSE before.version END;
    -- Chained here, in batch order, from the head read once under the workspace's lock.
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
      last_disposition = u.last_disposition, last_seq = u.last_seq
    FROM unnest(reviews) WITH ORDINALITY AS u
    WHERE touched[u.ordinality] AND t.workspace = u.workspace AND t.kind = u.kind AND t.ref = u.ref;
END $$;
`,
};
