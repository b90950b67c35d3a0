/**
 * Team review (docs/team.md): the officer's team, its members and their key fingerprints, the
 * sync state, the four queues, and every team action. Actions are queued on the laptop at once
 * (online or not) and pushed when the server answers; conflicts and refusals come back in the
 * `conflicts` queue with the server's sentence ("alice proposed cleared on version 2: review again").
 */
import { z } from 'zod';
import { NOTE_MAX, REVIEW_KINDS } from '../../review/reviewTerms.ts';

const TEAM_ACTION_NAMES = ['propose', 'approve', 'reject', 'claim', 'assign', 'release', 'note'] as const;
export const TEAM_DISPOSITION_NAMES = ['cleared', 'flagged', 'escalated', 'closed'] as const;

const login = z.string().regex(/^[a-z][a-z0-9_]{0,47}$/, { message: 'must be an officer login' });
const itemRef = z.string().min(1, { message: 'must not be empty' }).max(512);

const teamStatus = z.object({
  joined: z.boolean(),
  workspace: z.string().nullable(),
  login: z.string().nullable(),
  role: z.enum(['lead', 'officer']).nullable(),
  server: z.string().nullable(),
  /** The last event this laptop verified. */
  head: z.object({ seq: z.number().int().nonnegative(), hash: z.string() }).nullable(),
  queued: z.number().int().nonnegative(),
  conflicts: z.number().int().nonnegative(),
  pulledAt: z.string().nullable(),
  /** Whether the membership and policy are in the signed history (false: a lead runs `ledger team upgrade`). */
  membershipSigned: z.boolean(),
  /** Members joined whose key fingerprint this officer has not acknowledged yet. */
  newMembers: z.number().int().nonnegative(),
});
export type TeamStatus = z.infer<typeof teamStatus>;

const teamMember = z.object({
  login: z.string(),
  displayName: z.string(),
  role: z.enum(['lead', 'officer']),
  active: z.boolean(),
  joined: z.boolean(),
  signingKey: z.string().nullable(),
  boxKey: z.string().nullable(),
  /** Who introduced the login in the signed history (null: the genesis lead, or the roster). */
  introducedBy: z.string().nullable(),
  /** Who the login counts as for four-eyes: itself, or its inviting lead until another member confirms it. */
  countsAs: z.string(),
  inviteExpires: z.string().nullable(),
  /**
   * acknowledged: this officer compared its fingerprint; new: not yet (a notice to acknowledge);
   * self; unsigned: the server lists it but no lead introduced it (nothing it signs is accepted).
   */
  notice: z.enum(['acknowledged', 'new', 'self', 'unsigned']),
});

const teamReview = z.object({
  kind: z.string(),
  ref: z.string(),
  state: z.string(),
  proposedDisposition: z.string().nullable(),
  proposedBy: z.string().nullable(),
  proposedAt: z.string().nullable(),
  approvedBy: z.string().nullable(),
  approvedAt: z.string().nullable(),
  assignee: z.string().nullable(),
  version: z.number().int(),
});
export type TeamReviewRow = z.infer<typeof teamReview>;

const teamConflict = z.object({
  eventId: z.string(),
  kind: z.string(),
  ref: z.string(),
  action: z.string(),
  state: z.enum(['conflict', 'refused']),
  detail: z.string().nullable(),
  queuedAt: z.string(),
});

const teamQueues = z.object({
  assignedToMe: z.array(teamReview),
  awaitingMyApproval: z.array(teamReview),
  unassigned: z.array(teamReview),
  conflicts: z.array(teamConflict),
  /** Settled reviews (cleared or closed), the latest first: who proposed, who approved and when. */
  decided: z.array(teamReview),
});
export type TeamQueues = z.infer<typeof teamQueues>;

const teamSyncOutcome = z.object({
  pushed: z.number().int().nonnegative(),
  pulled: z.number().int().nonnegative(),
  /** Why the server could not be reached: actions stay queued. */
  problem: z.string().nullable(),
  status: teamStatus,
});

const teamActionInput = z.strictObject({
  kind: z.enum(REVIEW_KINDS),
  ref: itemRef,
  action: z.enum(TEAM_ACTION_NAMES),
  disposition: z.enum(TEAM_DISPOSITION_NAMES).optional(),
  assignee: login.optional(),
  note: z.string().min(1).max(NOTE_MAX).optional(),
});

const teamHistoryEvent = z.object({
  seq: z.number().int(),
  officer: z.string(),
  at: z.string(),
  clientAt: z.string(),
  action: z.string(),
  disposition: z.string().nullable(),
  assignee: z.string().nullable(),
  result: z.enum(['ok', 'conflict', 'refused']),
  detail: z.string().nullable(),
  note: z.string().nullable(),
});

export type TeamHistoryEvent = z.infer<typeof teamHistoryEvent>;

const teamVerification = z.object({
  workspace: z.string(),
  ok: z.boolean(),
  events: z.number().int().nonnegative(),
  head: z.object({ seq: z.number().int(), hash: z.string() }),
  firstBad: z.object({ seq: z.number().int().nullable(), reason: z.string() }).nullable(),
});

/** A four-eyes rule: "from>to" over review states, e.g. flagged>cleared. */
const approvalRule = z
  .string()
  .regex(/^(unreviewed|cleared|flagged|escalated|closed)>(cleared|flagged|escalated|closed)$/, {
    message: 'must be from>to over review states, e.g. flagged>cleared',
  });

const teamPolicy = z.object({
  workspace: z.string(),
  /** Sorted; empty: every proposal takes effect at once. */
  rules: z.array(z.string()),
  /** A weaker policy waiting for a second lead (another person than its proposer). */
  pending: z.object({ rules: z.array(z.string()), by: z.string(), seq: z.number().int(), hash: z.string() }).nullable(),
  /** Whether the policy is in the signed history (before an upgrade's roster, a change is in force at once). */
  signed: z.boolean(),
});
export type TeamPolicy = z.infer<typeof teamPolicy>;

export const teamOperations = {
  /** The team this laptop is in (or joined: false, solo mode), and its sync state. */
  status: { input: z.strictObject({}), output: teamStatus },
  /** Joins with an invite file (a path the officer chose), mapping the workspace to a profile. */
  join: {
    input: z.strictObject({
      inviteFile: z.string().min(1).max(4_096),
      profileId: z.string().min(1).max(200).optional(),
    }),
    output: teamStatus,
  },
  /** Push what is queued, pull and verify what is new. */
  sync: { input: z.strictObject({}), output: teamSyncOutcome },
  members: { input: z.strictObject({}), output: z.object({ rows: z.array(teamMember) }) },
  queues: { input: z.strictObject({ limit: z.number().int().min(1).max(1_000).default(200) }), output: teamQueues },
  /** One action, queued at once and pushed when the server answers. */
  act: {
    input: teamActionInput,
    output: z.object({
      eventId: z.string(),
      state: z.enum(['queued', 'ok', 'conflict', 'refused']),
      detail: z.string().nullable(),
    }),
  },
  /** An item's history, who and when, with the notes opened. */
  history: {
    input: z.strictObject({ kind: z.enum(REVIEW_KINDS), ref: itemRef }),
    output: z.object({ events: z.array(teamHistoryEvent) }),
  },
  /** The officer has seen a conflict or refusal: it leaves the queue. */
  acknowledge: { input: z.strictObject({ eventId: z.uuid() }), output: z.object({ acknowledged: z.boolean() }) },
  /** The workspace's four-eyes policy: which moves need a second officer. */
  policy: { input: z.strictObject({}), output: teamPolicy },
  /**
   * A lead changes the policy (online): signed, chained in the history, audited. A stricter one
   * is in force at once; a weaker one waits for a second lead (outcome 'pending').
   */
  setPolicy: {
    input: z.strictObject({ rules: z.array(approvalRule).max(20) }),
    output: teamPolicy.extend({ seq: z.number().int(), outcome: z.enum(['in-force', 'pending']) }),
  },
  /** A second lead approves the weaker policy waiting, or a lead withdraws it. */
  decidePolicy: {
    input: z.strictObject({ decision: z.enum(['approve', 'reject']) }),
    output: teamPolicy.extend({ seq: z.number().int() }),
  },
  /**
   * The officer acknowledges a new member after comparing the member's signing-key fingerprint
   * with them (the fingerprint as compared): signed as a confirmation once the membership is.
   */
  acknowledgeMember: {
    input: z.strictObject({ login, fingerprint: z.string().min(1).max(100) }),
    output: z.object({ countsAs: z.string(), confirmed: z.boolean() }),
  },
  /** Re-reads the server's whole history and checks it (as `ledger audit verify --team`). */
  verify: { input: z.strictObject({}), output: teamVerification },
} as const;
