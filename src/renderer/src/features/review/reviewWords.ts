/**
 * How reviews read on screen: the kinds and states in the officer's words, the tone of each
 * state, and what a review looks like in one line ("flagged by rule Large debits").
 */
import type { Disposition, ReviewFilter, ReviewKind, ReviewState } from '../../../../shared/review/reviewTerms.ts';
import type { ReviewSummary } from '../../../../shared/ipc/domains/reviews.ts';
import type { Tone } from '../../components/Badge.tsx';
import { itemColumnsOf, itemLine } from '../../../../shared/review/itemColumns.ts';
import type { ItemNames } from '../../../../shared/review/itemNames.ts';

export type { ReviewSummary };

export const KIND_LABELS: Record<ReviewKind, { one: string; many: string }> = {
  'pending-transaction': { one: 'pending transaction', many: 'pending transactions' },
  application: { one: 'account application', many: 'account applications' },
  'webhook-send': { one: 'webhook send', many: 'webhook sends' },
  'screening-hit': { one: 'screening hit', many: 'screening hits' },
};

const FILTER_LABELS: Record<ReviewFilter, string> = {
  unreviewed: 'Unreviewed',
  cleared: 'Cleared',
  flagged: 'Flagged',
  escalated: 'Escalated',
  changed: 'Changed since review',
};

/** The same, short enough for a toolbar's select with a count beside each. */
export const SHORT_LABELS: Record<ReviewFilter, string> = { ...FILTER_LABELS, changed: 'Changed' };

export const STATE_TONES: Record<ReviewState, Tone> = {
  cleared: 'positive',
  flagged: 'warning',
  escalated: 'negative',
  changed: 'info',
};

/** The verb on buttons and keys, and the past tense in messages. */
export const DISPOSITION_WORDS: Record<Disposition, { verb: string; done: string; key: string }> = {
  cleared: { verb: 'Clear', done: 'Cleared', key: 'c' },
  flagged: { verb: 'Flag', done: 'Flagged', key: 'f' },
  escalated: { verb: 'Escalate', done: 'Escalated', key: 'e' },
};

export function countOf(count: number, kind: ReviewKind): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? KIND_LABELS[kind].one : KIND_LABELS[kind].many}`;
}

/** True while no person's disposition stands: never reviewed, flagged only by a rule, or changed since. */
export function needsPerson(review: ReviewSummary | null | undefined): boolean {
  return review === null || review === undefined || review.byRule !== null || review.state === 'changed';
}

/** A review in one line, for titles and screen readers. */
export function reviewSentence(review: ReviewSummary | null | undefined): string {
  if (review === null || review === undefined) return 'unreviewed';
  if (review.byRule !== null) return `flagged by rule ${review.byRule}`;
  if (review.state === 'changed') return `changed since it was ${review.disposition ?? 'reviewed'}`;
  return `${review.state}${review.reviewer === null ? '' : ` by ${review.reviewer}`}`;
}

/**
 * How an item is named when it is said: a transaction's description, an application's
 * applicant and state, a send's event; what it is in words when the record says nothing, never
 * its ref (issue 38).
 */
export function itemName(kind: ReviewKind, ref: string, record: unknown, names?: ItemNames): string {
  const columns = itemColumnsOf(kind, ref, record, names);
  const name = kind === 'pending-transaction' ? columns.description : itemLine(kind, columns);
  return name === null || name === '' ? `a ${KIND_LABELS[kind].one} the cache does not describe` : name;
}

/** The disposition a person gave (not a rule's flag), preset in the note dialog; null when none. */
export function personsDisposition(review: ReviewSummary | null | undefined): Disposition | null {
  if (review === null || review === undefined || review.byRule !== null) return null;
  return review.disposition;
}
