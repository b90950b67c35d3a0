/**
 * The words of an officer's review, shared by the services, the IPC contract, the command
 * line and the screens: what can be reviewed, the dispositions a person gives, and the states
 * a review filter selects.
 */

/**
 * What can be reviewed: a pending transaction, an account application, a webhook send, and a
 * screening hit (an applicant matching a sanctions list entry, issue 40).
 */
export const REVIEW_KINDS = ['pending-transaction', 'application', 'webhook-send', 'screening-hit'] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];

/** What a person decides. */
export const DISPOSITIONS = ['cleared', 'flagged', 'escalated'] as const;
export type Disposition = (typeof DISPOSITIONS)[number];

/**
 * Why a disposition was given, where the reason does something: `no-match` clears a screening
 * hit as not the listed party and whitelists the pair until the applicant or the entry changes.
 */
export const REVIEW_REASONS = ['no-match'] as const;
export type ReviewReason = (typeof REVIEW_REASONS)[number];

/**
 * The state of a review: a disposition, or `changed` when a sync brought a record different
 * from the one reviewed (the item is back in the queue until reviewed again).
 */
export const REVIEW_STATES = ['cleared', 'flagged', 'escalated', 'changed'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

/** What a review filter selects: the states, plus the items no one has reviewed. */
export const REVIEW_FILTERS = ['unreviewed', ...REVIEW_STATES] as const;
export type ReviewFilter = (typeof REVIEW_FILTERS)[number];

/** A note is plain text up to this many characters. */
export const NOTE_MAX = 4_000;

/**
 * A review of a webhook notification (every attempt to deliver one event about one object
 * to one webhook) has a ref of this form; any other webhook-send ref is one send's id.
 */
const NOTIFICATION_REF_PREFIX = 'notification/';

export function notificationRef(webhookId: string, objectId: string, event: string | null): string {
  return `${NOTIFICATION_REF_PREFIX}${webhookId}/${objectId}/${event ?? ''}`;
}

export function isNotificationRef(ref: string): boolean {
  return ref.startsWith(NOTIFICATION_REF_PREFIX);
}

/** The parts of a notification ref; null when it is not one. */
export function notificationOfRef(ref: string): { webhookId: string; objectId: string; event: string | null } | null {
  if (!isNotificationRef(ref)) return null;
  const [webhookId = '', objectId = '', ...eventParts] = ref.slice(NOTIFICATION_REF_PREFIX.length).split('/');
  if (webhookId === '' || objectId === '' || eventParts.length === 0) return null;
  const event = eventParts.join('/');
  return { webhookId, objectId, event: event === '' ? null : event };
}
