/**
 * A pattern rule: a watch rule over sets of items rather than one item (issue 40). Three
 * templates, each with its parameters:
 *
 * - `structuring`: an account's credits, each under `eachUnder`, that within `windowDays`
 *   days number at least `countAtLeast` and sum to at least `sumAtLeast` (deposits split to
 *   stay under a reporting threshold);
 * - `velocity`: an account's credits, debits or both that within `windowDays` days number at
 *   least `countAtLeast` or sum (in absolute value) to at least `sumAtLeast`, or both when both
 *   are given;
 * - `shared-applicant-field`: applicants of at least `applicationsAtLeast` different
 *   applications who share an email, a phone number or an address (synthetic identities),
 *   compared by keyed digests, never in clear.
 *
 * The transaction templates may be narrowed to one type and one type source (the rail).
 */
import { z } from 'zod';
import { PENDING_TRANSACTION_TYPE_SOURCES, PENDING_TRANSACTION_TYPES } from '../bank/index.ts';
import { RULE_NAME_MAX } from './watchRule.ts';

const name = z
  .string()
  .trim()
  .min(1, { message: 'must not be empty' })
  .max(RULE_NAME_MAX, { message: `must be at most ${String(RULE_NAME_MAX)} characters` })
  // eslint-disable-next-line no-control-regex -- a name is one line of plain text
  .regex(/^[^\u0000-\u001f\u007f]+$/, { message: 'must be one line of plain text' });

const positiveAmount = z
  .string()
  .regex(/^[0-9]{1,13}\.[0-9]{2}$/, { message: 'must be a positive amount with two decimals, like 10000.00' })
  .refine((text) => Number(text) > 0, { message: 'must be more than 0.00' });

const windowDays = z
  .number()
  .int({ message: 'must be a whole number of days from 1 to 90' })
  .min(1, { message: 'must be a whole number of days from 1 to 90' })
  .max(90, { message: 'must be a whole number of days from 1 to 90' });

const countAtLeast = z
  .number()
  .int({ message: 'must be a whole number from 2 to 10000' })
  .min(2, { message: 'must be a whole number from 2 to 10000' })
  .max(10_000, { message: 'must be a whole number from 2 to 10000' });

const narrowing = {
  type: z.enum(PENDING_TRANSACTION_TYPES).optional(),
  typeSource: z.enum(PENDING_TRANSACTION_TYPE_SOURCES).optional(),
};

const structuringRule = z.strictObject({
  name,
  template: z.literal('structuring'),
  windowDays,
  eachUnder: positiveAmount,
  sumAtLeast: positiveAmount,
  countAtLeast,
  ...narrowing,
});

const velocityRule = z
  .strictObject({
    name,
    template: z.literal('velocity'),
    windowDays,
    flow: z.enum(['credits', 'debits', 'both'], { message: 'must be credits, debits or both' }),
    countAtLeast: countAtLeast.optional(),
    sumAtLeast: positiveAmount.optional(),
    ...narrowing,
  })
  .refine((rule) => rule.countAtLeast !== undefined || rule.sumAtLeast !== undefined, {
    message: 'a velocity rule needs countAtLeast, sumAtLeast or both',
    path: ['countAtLeast'],
  });

const SHARED_FIELDS = ['email', 'phone', 'address'] as const;
export type SharedField = (typeof SHARED_FIELDS)[number];

const sharedApplicantFieldRule = z.strictObject({
  name,
  template: z.literal('shared-applicant-field'),
  field: z.enum(SHARED_FIELDS, { message: `must be one of ${SHARED_FIELDS.join(', ')}` }),
  applicationsAtLeast: z
    .number()
    .int({ message: 'must be a whole number from 2 to 1000' })
    .min(2, { message: 'must be a whole number from 2 to 1000' })
    .max(1000, { message: 'must be a whole number from 2 to 1000' })
    .default(2),
});

export const patternRule = z.discriminatedUnion('template', [structuringRule, velocityRule, sharedApplicantFieldRule], {
  message: 'template must be structuring, velocity or shared-applicant-field',
});

export type PatternRule = z.output<typeof patternRule>;
export type PatternRuleInput = z.input<typeof patternRule>;
export type StructuringRule = z.output<typeof structuringRule>;
export type VelocityRule = z.output<typeof velocityRule>;
export type SharedApplicantFieldRule = z.output<typeof sharedApplicantFieldRule>;

/** The rule in words, for lists and the report. */
export function describePatternRule(rule: PatternRule): string {
  const narrowed = (r: StructuringRule | VelocityRule): string =>
    [r.type === undefined ? '' : ` of type ${r.type}`, r.typeSource === undefined ? '' : ` by ${r.typeSource}`].join(
      '',
    );
  const days = (n: number): string => (n === 1 ? '1 day' : `${String(n)} days`);
  if (rule.template === 'structuring')
    return `structuring: at least ${String(rule.countAtLeast)} credits${narrowed(rule)}, each under ${rule.eachUnder}, summing to at least ${rule.sumAtLeast} within ${days(rule.windowDays)}`;
  if (rule.template === 'velocity') {
    const what = rule.flow === 'both' ? 'transactions' : rule.flow;
    const bounds = [
      rule.countAtLeast === undefined ? null : `at least ${String(rule.countAtLeast)} ${what}`,
      rule.sumAtLeast === undefined
        ? null
        : `${rule.countAtLeast === undefined ? `${what} ` : ''}summing to at least ${rule.sumAtLeast}`,
    ].filter((part): part is string => part !== null);
    return `velocity: ${bounds.join(' ')}${narrowed(rule)} within ${days(rule.windowDays)}`;
  }
  return `shared ${rule.field}: applicants of at least ${String(rule.applicationsAtLeast)} applications with the same ${rule.field}`;
}
