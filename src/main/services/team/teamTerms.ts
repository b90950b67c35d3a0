/**
 * The words of team review: what an officer can do to an item, and the dispositions a
 * proposal can carry (the solo ones, plus closing an escalation).
 */
import { REVIEW_KINDS, type ReviewKind } from '../../../shared/review/reviewTerms.ts';

export const TEAM_ACTIONS = ['propose', 'approve', 'reject', 'claim', 'assign', 'release', 'note'] as const;
export type TeamAction = (typeof TEAM_ACTIONS)[number];

export const TEAM_DISPOSITIONS = ['cleared', 'flagged', 'escalated', 'closed'] as const;
export type TeamDisposition = (typeof TEAM_DISPOSITIONS)[number];

export const TEAM_KINDS = REVIEW_KINDS;
export type TeamKind = ReviewKind;

/** Actions that move an item's version (and so carry the version they were based on). */
export const VERSIONED_ACTIONS: readonly TeamAction[] = ['propose', 'approve', 'reject'];
