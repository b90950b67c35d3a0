/**
 * The words of team review: what an officer can do to an item, and the dispositions a
 * proposal can carry (the solo ones, plus closing an escalation).
 */
import type { ReviewKind } from '../../../shared/review/reviewTerms.ts';

export const TEAM_ACTIONS = ['propose', 'approve', 'reject', 'claim', 'assign', 'release', 'note'] as const;
export type TeamAction = (typeof TEAM_ACTIONS)[number];

export const TEAM_DISPOSITIONS = ['cleared', 'flagged', 'escalated', 'closed'] as const;

/** Screening hits are not team items yet (issue 40, item 5): the team server's schema does not know them. */
export const TEAM_KINDS = [
  'pending-transaction',
  'application',
  'webhook-send',
] as const satisfies readonly ReviewKind[];
export type TeamKind = (typeof TEAM_KINDS)[number];

/** Whether an event is about an item under review (not a membership or policy event). */
export function isItemKind(kind: string): kind is TeamKind {
  return (TEAM_KINDS as readonly string[]).includes(kind);
}

/** Actions that move an item's version (and so carry the version they were based on). */
export const VERSIONED_ACTIONS: readonly TeamAction[] = ['propose', 'approve', 'reject'];

/** Review states a four-eyes rule names: "from>to" (the state a proposal leaves, the one it asks for). */
const POLICY_FROM_STATES = ['unreviewed', 'cleared', 'flagged', 'escalated', 'closed'] as const;

/** The policy a new workspace starts with (the server's default, teamSchemaSql.ts). */
export const DEFAULT_APPROVAL_RULES = ['escalated>cleared', 'escalated>closed', 'flagged>cleared'] as const;

const RULE_PATTERN = /^(unreviewed|cleared|flagged|escalated|closed)>(cleared|flagged|escalated|closed)$/;

/**
 * A four-eyes policy as the server takes it: each rule "from>to" over review states, named once,
 * sorted. Answers the rules, or the sentence saying what is wrong.
 */
export function approvalRulesOf(rules: readonly string[]): { rules: string[] } | { problem: string } {
  const cleaned = [...new Set(rules.map((rule) => rule.trim()))].sort();
  for (const rule of cleaned) {
    const match = RULE_PATTERN.exec(rule);
    if (match === null || match[1] === match[2])
      return {
        problem: `"${rule}" is not a four-eyes rule: write from>to over review states (from: ${POLICY_FROM_STATES.join(', ')}; to: ${TEAM_DISPOSITIONS.join(', ')}), e.g. flagged>cleared.`,
      };
  }
  return { rules: cleaned };
}
