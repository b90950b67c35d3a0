/**
 * A watch rule: conditions, kept per profile, that flag matching unreviewed items after each
 * sync ("flagged by rule NAME"). Every condition given must hold; each kind has its own.
 */
import { z } from 'zod';
import {
  ACCOUNT_APPLICATION_STATUSES,
  PENDING_TRANSACTION_TYPE_SOURCES,
  PENDING_TRANSACTION_TYPES,
  WEBHOOK_SEND_STATUSES,
} from '../bank/index.ts';
import { REVIEW_KINDS, type ReviewKind } from './reviewTerms.ts';

export const RULE_NAME_MAX = 100;

/** Which conditions apply to which kind of item. */
export const RULE_CONDITIONS: Record<ReviewKind, readonly string[]> = {
  'pending-transaction': ['amountBeyond', 'descriptionHas', 'type', 'typeSource'],
  application: ['applicationStatus', 'applicantYoungerThan', 'applicantOlderThan', 'citizenshipOutside'],
  'webhook-send': ['sendStatus', 'attemptAtLeast'],
  // A hit is never flagged or cleared by a rule: only a person dispositions it.
  'screening-hit': [],
};

const CONDITION_NAMES = Object.values(RULE_CONDITIONS).flat();

export const watchRule = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1, { message: 'must not be empty' })
      .max(RULE_NAME_MAX, { message: `must be at most ${String(RULE_NAME_MAX)} characters` })
      // eslint-disable-next-line no-control-regex -- a name is one line of plain text
      .regex(/^[^\u0000-\u001f\u007f]+$/, { message: 'must be one line of plain text' }),
    kind: z.enum(REVIEW_KINDS, { message: `must be one of ${REVIEW_KINDS.join(', ')}` }),
    /**
     * An amount with two decimals: a positive bound matches amounts at or above it, a
     * negative one amounts at or below it (debits are negative).
     */
    amountBeyond: z
      .string()
      .regex(/^-?[0-9]{1,13}\.[0-9]{2}$/, { message: 'must be an amount with two decimals, like 1000.00 or -250.00' })
      .optional(),
    /** Whole words that must all be in the description or summary (case and accents ignored). */
    descriptionHas: z
      .string()
      .trim()
      .min(1, { message: 'must not be empty' })
      .max(200, { message: 'must be at most 200 characters' })
      .optional(),
    type: z.enum(PENDING_TRANSACTION_TYPES).optional(),
    typeSource: z.enum(PENDING_TRANSACTION_TYPE_SOURCES).optional(),
    applicationStatus: z.enum(ACCOUNT_APPLICATION_STATUSES).optional(),
    /** An application naming a person younger than this many whole years today (UTC). */
    applicantYoungerThan: z
      .number()
      .int({ message: 'must be a whole number of years from 1 to 150' })
      .min(1, { message: 'must be a whole number of years from 1 to 150' })
      .max(150, { message: 'must be a whole number of years from 1 to 150' })
      .optional(),
    /** An application naming a person older than this many whole years today (UTC). */
    applicantOlderThan: z
      .number()
      .int({ message: 'must be a whole number of years from 1 to 150' })
      .min(1, { message: 'must be a whole number of years from 1 to 150' })
      .max(150, { message: 'must be a whole number of years from 1 to 150' })
      .optional(),
    /** An application naming a person whose citizenship is none of these two-letter codes ("US, CA"). */
    citizenshipOutside: z
      .string()
      .trim()
      .max(300, { message: 'must be at most 300 characters' })
      .regex(/^[A-Za-z]{2}([\s,]+[A-Za-z]{2})*$/, {
        message: 'must be two-letter country codes separated by commas, like US, CA',
      })
      .optional(),
    sendStatus: z.enum(WEBHOOK_SEND_STATUSES).optional(),
    attemptAtLeast: z
      .number()
      .int({ message: 'must be a whole number from 1 to 1000' })
      .min(1, { message: 'must be a whole number from 1 to 1000' })
      .max(1000, { message: 'must be a whole number from 1 to 1000' })
      .optional(),
  })
  .superRefine((rule, context) => {
    const allowed = RULE_CONDITIONS[rule.kind];
    const given = CONDITION_NAMES.filter((name) => (rule as Record<string, unknown>)[name] !== undefined);
    for (const name of given) {
      if (!allowed.includes(name)) {
        context.addIssue({
          code: 'custom',
          path: [name],
          message: `is not a condition of a ${rule.kind} rule (those are ${allowed.join(', ')})`,
        });
      }
    }
    if (given.length === 0) {
      context.addIssue({
        code: 'custom',
        path: ['kind'],
        message: `a rule needs at least one condition (${allowed.join(', ')})`,
      });
    }
  });

export type WatchRule = z.output<typeof watchRule>;
export type WatchRuleInput = z.input<typeof watchRule>;

/** The rule's conditions in words, for lists and the report. */
export function describeRule(rule: WatchRule): string {
  const parts: string[] = [];
  if (rule.amountBeyond !== undefined)
    parts.push(rule.amountBeyond.startsWith('-') ? `amount ≤ ${rule.amountBeyond}` : `amount ≥ ${rule.amountBeyond}`);
  if (rule.descriptionHas !== undefined) parts.push(`description has "${rule.descriptionHas}"`);
  if (rule.type !== undefined) parts.push(`type ${rule.type}`);
  if (rule.typeSource !== undefined) parts.push(`type source ${rule.typeSource}`);
  if (rule.applicationStatus !== undefined) parts.push(`status ${rule.applicationStatus}`);
  if (rule.applicantYoungerThan !== undefined)
    parts.push(`an applicant younger than ${String(rule.applicantYoungerThan)}`);
  if (rule.applicantOlderThan !== undefined) parts.push(`an applicant older than ${String(rule.applicantOlderThan)}`);
  if (rule.citizenshipOutside !== undefined)
    parts.push(`an applicant's citizenship outside ${citizenshipsOf(rule.citizenshipOutside).join(', ')}`);
  if (rule.sendStatus !== undefined) parts.push(`send status ${rule.sendStatus}`);
  if (rule.attemptAtLeast !== undefined) parts.push(`attempt ≥ ${String(rule.attemptAtLeast)}`);
  return `${rule.kind}: ${parts.join(' and ')}`;
}

/** The country codes of a `citizenshipOutside` condition, upper-cased, each once. */
export function citizenshipsOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .filter((code) => code !== '')
        .map((code) => code.toUpperCase()),
    ),
  ];
}
