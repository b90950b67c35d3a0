/** The team screens' words for kinds, states and who-did-what-when. */
import type { ReviewKind } from '../../../../shared/review/reviewTerms.ts';
import type { TeamReviewRow } from '../../../../shared/ipc/index.ts';
import type { Tone } from '../../components/Badge.tsx';
import { formatTimestamp } from '../../lib/time.ts';

export const KIND_LABELS: Record<ReviewKind, string> = {
  'pending-transaction': 'Pending transaction',
  application: 'Account application',
  'webhook-send': 'Webhook send',
  'screening-hit': 'Screening hit',
};

export function kindLabel(kind: string): string {
  return kind in KIND_LABELS ? KIND_LABELS[kind as ReviewKind] : kind;
}

export function isReviewKind(kind: string): kind is ReviewKind {
  return kind in KIND_LABELS;
}

export const STATE_TONES: Record<string, Tone> = {
  unreviewed: 'neutral',
  proposed: 'info',
  cleared: 'positive',
  flagged: 'warning',
  escalated: 'negative',
  closed: 'neutral',
};

/** "cleared by alice, 27 Nov 2026 01:02" or null when nobody has. */
export function byWhom(what: string | null, who: string | null, at: string | null): string | null {
  if (who === null) return null;
  return `${what === null ? '' : `${what} `}by ${who}${at === null ? '' : `, ${formatTimestamp(at)}`}`;
}

export function proposalOf(row: TeamReviewRow): string | null {
  return byWhom(row.proposedDisposition, row.proposedBy, row.proposedAt);
}
