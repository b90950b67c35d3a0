/** Status badges: a tone per meaning, the same everywhere (green ok, red failed, amber waiting). */
import type { ReactNode } from 'react';
import { BankValue } from './BankValue.tsx';

export type Tone = 'positive' | 'negative' | 'warning' | 'info' | 'neutral' | 'accent';

export function Badge({ tone, children, title }: { tone: Tone; children: ReactNode; title?: string }) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      <span className="badge-dot" aria-hidden="true" />
      {children}
    </span>
  );
}

const TONES: Record<string, Tone> = {
  // webhooks
  enabled: 'positive',
  error: 'negative',
  disabled: 'neutral',
  // webhook sends
  sent: 'positive',
  skipped: 'neutral',
  // account applications
  unsubmitted: 'neutral',
  submitted: 'info',
  canceled: 'neutral',
  kyc: 'info',
  processing: 'info',
  manual_review: 'warning',
  rejected: 'negative',
  approved: 'positive',
  // listener verdicts
  ok: 'positive',
  missing_header: 'warning',
  malformed_header: 'negative',
  wrong_user: 'negative',
  wrong_secret: 'negative',
  not_configured: 'warning',
  // sync
  running: 'info',
  done: 'positive',
  cancelled: 'neutral',
  failed: 'negative',
  // connectivity and credentials
  online: 'positive',
  offline: 'negative',
  unknown: 'neutral',
  set: 'positive',
  missing: 'warning',
  unavailable: 'negative',
};

const LABELS: Record<string, string> = {
  manual_review: 'manual review',
  missing_header: 'no auth header',
  malformed_header: 'malformed auth',
  wrong_user: 'wrong user',
  wrong_secret: 'wrong secret',
  not_configured: 'unverified',
};

/** A status the bank may leave out or send as null: then it reads as BankValue says. */
export function StatusBadge({ status, title }: { status: string | null | undefined; title?: string | undefined }) {
  if (status === null || status === undefined) return <BankValue value={status} />;
  return (
    <Badge tone={TONES[status] ?? 'neutral'} title={title}>
      {LABELS[status] ?? status}
    </Badge>
  );
}

/** An HTTP status as a badge: 2xx green, 4xx amber, 5xx red, none grey. */
export function HttpStatusBadge({ status }: { status: number | null }) {
  if (status === null) return <Badge tone="neutral">no answer</Badge>;
  const tone: Tone = status < 300 ? 'positive' : status < 500 ? 'warning' : 'negative';
  return <Badge tone={tone}>{status}</Badge>;
}
