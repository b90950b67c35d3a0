/**
 * How one event moves an item's review: the same rules, in the same order, with the same
 * sentences as the server's `team.push` (server/teamPushSetBased.ts and team migration 4,
 * server/teamMembershipSql.ts). Laptops run them on every event they pull and on every event
 * `ledger audit verify --team` reads, from the signed intent and the review as the verified
 * history left it, and compare the result, the new state, the new version and the sentence with
 * what the server wrote: a difference is tampering (issue 35, T1).
 *
 * What the rules need besides the review is given by the caller (the membership and the policy
 * in force, rules/teamMembers.ts), as the verified history made them at that event.
 */
import type { TeamEventRow } from '../crypto/teamCanonical.ts';

/** An item's review as the rules keep it (the server's team.reviews row), with when it moved. */
export interface ItemState {
  state: string;
  priorState: string | null;
  proposedDisposition: string | null;
  proposedBy: string | null;
  approvedBy: string | null;
  assignee: string | null;
  version: number;
  lastAction: string | null;
  lastBy: string | null;
  lastDisposition: string | null;
  /** The chain hash (hex) of the proposal an approval or rejection must name. */
  proposalHash: string | null;
  /** The server's time of the proposal and of its approval, for people (not for the rules). */
  proposedAt: string | null;
  approvedAt: string | null;
  /** The last event about the item, whatever its result (the queues' order). */
  lastSeq: number;
}

export const NEW_ITEM: Readonly<ItemState> = {
  state: 'unreviewed',
  priorState: null,
  proposedDisposition: null,
  proposedBy: null,
  approvedBy: null,
  assignee: null,
  version: 0,
  lastAction: null,
  lastBy: null,
  lastDisposition: null,
  proposalHash: null,
  proposedAt: null,
  approvedAt: null,
  lastSeq: 0,
};

/** What the server must have written for an event. */
export interface Outcome {
  result: 'ok' | 'conflict' | 'refused';
  detail: string | null;
  newState: string | null;
  newVersion: number | null;
}

export interface ItemContext {
  workspace: string;
  /** The four-eyes rules in force ("from>to"). */
  rules: ReadonlySet<string>;
  /** Whether membership is in the signed history (after the genesis or the roster). */
  signedMembership: boolean;
  isLead(login: string): boolean | 'unknown';
  isActiveMember(login: string): boolean;
  /** The person a login counts as for four-eyes (itself, or its inviting lead's person). */
  personOf(login: string): string;
}

/** Thrown for an event the server could never have recorded (its own checks raise on it). */
export class ImpossibleEvent extends Error {}

const ITEM_ACTIONS = new Set(['propose', 'approve', 'reject', 'claim', 'assign', 'release', 'note']);
const DISPOSITIONS = new Set(['cleared', 'flagged', 'escalated', 'closed']);
const BUMPS = new Set(['propose', 'approve', 'reject']);

function pastTense(action: string): string {
  if (action === 'propose') return 'proposed';
  if (action === 'approve') return 'approved';
  if (action === 'reject') return 'rejected';
  return action;
}

/**
 * The outcome the rules give `event` on `review` (NEW_ITEM when the item has none yet). 'unknown'
 * from isLead (who leads was not in the signed history before an upgrade's roster) accepts the
 * server's answer for the two moves only a lead may make.
 */
export function decideItem(review: ItemState, event: TeamEventRow, context: ItemContext): Outcome {
  const me = event.officer;
  const action = event.action;
  if (!ITEM_ACTIONS.has(action)) throw new ImpossibleEvent(`unknown action ${action}`);
  if (action === 'propose' && (event.disposition === null || !DISPOSITIONS.has(event.disposition)))
    throw new ImpossibleEvent('a proposal without a disposition');
  const bumps = BUMPS.has(action);
  if (bumps && event.baseVersion === null) throw new ImpossibleEvent(`${action} without a base version`);
  if (action === 'note' && event.sealed === null) throw new ImpossibleEvent('a note without its sealed note');
  const refused = (detail: string): Outcome => ({
    result: 'refused',
    detail,
    newState: review.state,
    newVersion: review.version,
  });
  const ok = (newState: string): Outcome => ({
    result: 'ok',
    detail: null,
    newState,
    newVersion: bumps ? review.version + 1 : review.version,
  });

  if (bumps && event.baseVersion !== review.version)
    return {
      result: 'conflict',
      detail: `${review.lastBy ?? 'someone'} ${pastTense(review.lastAction ?? 'changed')}${review.lastDisposition === null ? '' : ` ${review.lastDisposition}`} on version ${String(review.version)} (you saw version ${String(event.baseVersion)}): review again`,
      newState: review.state,
      newVersion: review.version,
    };
  switch (action) {
    case 'propose': {
      const disposition = event.disposition ?? '';
      if (review.state === 'proposed')
        return refused(
          `${review.proposedBy ?? ''} proposed ${review.proposedDisposition ?? ''} on version ${String(review.version)} and it awaits a second officer: approve or reject it first`,
        );
      if (review.assignee !== null && review.assignee !== me)
        return refused(`assigned to ${review.assignee}: only ${review.assignee} proposes on it`);
      if (disposition === 'closed' && review.state !== 'escalated') return refused('only an escalation can be closed');
      return ok(context.rules.has(`${review.state}>${disposition}`) ? 'proposed' : disposition);
    }
    case 'approve':
    case 'reject': {
      const proposer = review.proposedBy ?? '';
      if (review.state !== 'proposed') return refused(`there is no proposed disposition to ${action}`);
      if (proposer === me) return refused(`four-eyes: the officer who proposed a disposition cannot ${action} it`);
      if (context.signedMembership) {
        if (context.personOf(me) === context.personOf(proposer))
          return refused(
            `four-eyes counts people: ${me} and ${proposer} count as one person (${context.personOf(me)}) until another member confirms them`,
          );
        if (event.disposition === null)
          return refused(
            `${action === 'approve' ? 'an approval' : 'a rejection'} must name the proposal it answers: update Ledgerdesk`,
          );
        if (event.disposition !== review.proposalHash)
          return refused(`the proposal awaiting a second officer is not the one this ${action} names: review again`);
      }
      if (action === 'reject' && event.sealed === null) return refused('a rejection needs a note saying why');
      return ok(
        action === 'approve' ? (review.proposedDisposition ?? review.state) : (review.priorState ?? review.state),
      );
    }
    case 'claim':
      if (review.assignee !== null && review.assignee !== me) return refused(`already claimed by ${review.assignee}`);
      return ok(review.state);
    case 'assign': {
      const lead = context.isLead(me);
      // Who led was never signed (a history from before the roster): the server's answer stands.
      if (lead === 'unknown' && event.result !== 'ok') return outcomeOf(event);
      if (lead === false) return refused('only a lead assigns items to others (claim it instead)');
      if (event.assignee === null || !context.isActiveMember(event.assignee))
        return refused(`${event.assignee ?? '(nobody)'} is not a member of ${context.workspace}`);
      return ok(review.state);
    }
    case 'release': {
      if (review.assignee !== null && review.assignee !== me) {
        const lead = context.isLead(me);
        if (lead === 'unknown' && event.result !== 'ok') return outcomeOf(event);
        if (lead === false)
          return refused(`assigned to ${review.assignee}: only ${review.assignee} or a lead can release it`);
      }
      return ok(review.state);
    }
    default:
      return ok(review.state);
  }
}

/**
 * The review after an event whose outcome is known (checked against the rules on pull and in
 * verify, so the mirror and the rules cannot drift apart): what the server's team.push writes
 * to team.reviews for it, plus when it moved.
 */
export function projectItem(review: ItemState, event: TeamEventRow): ItemState {
  const next: ItemState = { ...review, lastSeq: event.seq };
  if (event.result !== 'ok') return next;
  switch (event.action) {
    case 'propose':
      next.priorState = review.state;
      next.proposedDisposition = event.disposition;
      next.proposedBy = event.officer;
      next.approvedBy = null;
      next.proposalHash = Buffer.from(event.hash).toString('hex');
      next.proposedAt = event.at;
      next.approvedAt = null;
      break;
    case 'approve':
      next.approvedBy = event.officer;
      next.approvedAt = event.at;
      break;
    case 'reject':
      next.proposedDisposition = null;
      next.approvedBy = null;
      next.approvedAt = null;
      break;
    case 'claim':
      next.assignee = event.officer;
      break;
    case 'assign':
      next.assignee = event.assignee;
      break;
    case 'release':
      next.assignee = null;
      break;
    default:
      break;
  }
  if (event.newState !== null) next.state = event.newState;
  if (BUMPS.has(event.action)) {
    if (event.newVersion !== null) next.version = event.newVersion;
    next.lastAction = event.action;
    next.lastBy = event.officer;
    next.lastDisposition = event.action === 'propose' ? event.disposition : review.proposedDisposition;
  }
  return next;
}

function outcomeOf(event: TeamEventRow): Outcome {
  return { result: event.result, detail: event.detail, newState: event.newState, newVersion: event.newVersion };
}

/** Whether the server wrote what the rules make. */
export function sameOutcome(expected: Outcome, event: TeamEventRow): boolean {
  return (
    expected.result === event.result &&
    expected.detail === event.detail &&
    expected.newState === event.newState &&
    expected.newVersion === event.newVersion
  );
}
