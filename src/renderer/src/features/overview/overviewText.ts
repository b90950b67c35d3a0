/**
 * The Overview's numbers in words: money from whole cents, rates, and each chart's text
 * alternative (what a person who cannot see the chart is told it shows). Pure functions, so
 * the sentences are tested without a window.
 */
import type { Deliveries, PendingAccount, ReviewDay, ReviewProgress } from '../../../../shared/ipc/domains/overview.ts';
import { KIND_LABELS } from '../review/reviewWords.ts';

/** Whole cents as the bank writes money: "-1,234.05". Exact (integers only, no float division). */
export function centsText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(cents);
  const whole = Math.floor(absolute / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${whole}.${String(absolute % 100).padStart(2, '0')}`;
}

function countText(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

/** Reviewed: every item a person or a rule has a standing review of (changed ones wait again, but were reviewed). */
export function reviewedOf(progress: ReviewProgress): number {
  return progress.cleared + progress.flaggedByPerson + progress.escalated;
}

/** "42%" of reviewed; "—" with nothing cached. */
export function shareText(part: number, whole: number): string {
  if (whole === 0) return '—';
  const share = (part / whole) * 100;
  return `${share < 10 && share > 0 ? share.toFixed(1) : Math.round(share).toString()}%`;
}

export function progressSentence(rows: readonly ReviewProgress[]): string {
  return rows
    .map((row) => {
      const many = KIND_LABELS[row.kind].many;
      const label = many.charAt(0).toUpperCase() + many.slice(1);
      const waiting = row.unreviewed + row.changed + row.flaggedByRule;
      return `${label}: ${reviewedOf(row).toLocaleString('en-US')} of ${row.total.toLocaleString('en-US')} reviewed (${shareText(reviewedOf(row), row.total)}), ${waiting.toLocaleString('en-US')} waiting for a person`;
    })
    .join('; ')
    .concat('.');
}

export function reviewDaysSentence(days: readonly ReviewDay[]): string {
  const total = days.reduce((sum, day) => sum + day.cleared + day.flagged + day.escalated, 0);
  if (total === 0) return `No dispositions in the last ${String(days.length)} days.`;
  const busiest = days.reduce((best, day) =>
    day.cleared + day.flagged + day.escalated > best.cleared + best.flagged + best.escalated ? day : best,
  );
  const sum = (pick: (day: ReviewDay) => number) => days.reduce((total_, day) => total_ + pick(day), 0);
  return `${countText(total, 'disposition', 'dispositions')} in the last ${String(days.length)} days: ${sum((day) => day.cleared).toLocaleString('en-US')} cleared, ${sum((day) => day.flagged).toLocaleString('en-US')} flagged, ${sum((day) => day.escalated).toLocaleString('en-US')} escalated; the busiest day was ${busiest.date} with ${(busiest.cleared + busiest.flagged + busiest.escalated).toLocaleString('en-US')}.`;
}

export function pendingSentence(account: PendingAccount): string {
  const sum = (flow: 'credits' | 'debits' | 'holds', field: 'count' | 'cents') =>
    account.days.reduce((total, day) => total + day[flow][field], 0);
  const first = account.days[0]?.date ?? '';
  const last = account.days.at(-1)?.date ?? '';
  return `Account ${account.accountId}, ${first} to ${last}: ${countText(sum('credits', 'count'), 'credit', 'credits')} of ${centsText(sum('credits', 'cents'))}, ${countText(sum('debits', 'count'), 'debit', 'debits')} of ${centsText(sum('debits', 'cents'))}, ${countText(sum('holds', 'count'), 'hold', 'holds')} of ${centsText(sum('holds', 'cents'))}.`;
}

/** Delivered of attempted (skipped sends were never attempted: a disabled webhook). */
export function successRate(window: Deliveries): string {
  return shareText(window.sent, window.sent + window.failed);
}

export function deliverySentence(webhookId: string, day: Deliveries, week: Deliveries): string {
  return `Webhook ${webhookId}: ${successRate(day)} delivered in the last 24 hours (${countText(day.sent, 'send', 'sends')} delivered, ${countText(day.failed, 'failure', 'failures')}, ${countText(day.retries, 'retry', 'retries')}); ${successRate(week)} over 7 days (${countText(week.sent, 'send', 'sends')} delivered, ${countText(week.failed, 'failure', 'failures')}, ${countText(week.retries, 'retry', 'retries')}).`;
}
