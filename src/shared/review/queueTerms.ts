/**
 * The parts of the officer's one queue, across every account and kind of a profile. A review
 * state splits here where a person would: a flag a person gave and a flag a watch rule raised
 * are read differently (one is a decision, the other a question). `cleared` is work done: it
 * can be browsed, but the queue never opens on it.
 */
export const QUEUE_STATES = [
  'changed',
  'flagged-by-person',
  'flagged-by-rule',
  'escalated',
  'unreviewed',
  'cleared',
] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

/** The parts the queue opens on, most urgent first: what changed and what was flagged. */
const OPENING_ORDER: readonly QueueState[] = [
  'changed',
  'flagged-by-person',
  'flagged-by-rule',
  'escalated',
  'unreviewed',
];

export const QUEUE_STATE_LABELS: Record<QueueState, string> = {
  changed: 'Changed since review',
  'flagged-by-person': 'Flagged by a person',
  'flagged-by-rule': 'Flagged by a rule',
  escalated: 'Escalated',
  unreviewed: 'Unreviewed',
  cleared: 'Cleared',
};

/** The first part of the queue holding items, or null when nothing waits. */
export function firstWaiting(counts: Readonly<Record<QueueState, number>>): QueueState | null {
  return OPENING_ORDER.find((state) => counts[state] > 0) ?? null;
}

export function emptyQueueCounts(): Record<QueueState, number> {
  return { changed: 0, 'flagged-by-person': 0, 'flagged-by-rule': 0, escalated: 0, unreviewed: 0, cleared: 0 };
}
