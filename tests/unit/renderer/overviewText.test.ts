/** The Overview's numbers in words: exact money from cents, rates, and the charts' text alternatives. */
import { describe, expect, it } from 'vitest';
import {
  centsText,
  deliverySentence,
  pendingSentence,
  progressSentence,
  reviewDaysSentence,
  shareText,
  successRate,
} from '../../../src/renderer/src/features/overview/overviewText.ts';

describe('overview words', () => {
  it('writes cents as the bank writes money, exactly', () => {
    expect(centsText(0)).toBe('0.00');
    expect(centsText(5)).toBe('0.05');
    expect(centsText(-123_456_789)).toBe('-1,234,567.89');
    expect(centsText(9_007_199_254_740_991)).toBe('90,071,992,547,409.91');
  });

  it('gives shares and success rates, and a dash when there is nothing to rate', () => {
    expect(shareText(0, 0)).toBe('—');
    expect(shareText(1, 3)).toBe('33%');
    expect(shareText(1, 200)).toBe('0.5%');
    expect(successRate({ sent: 3, failed: 1, skipped: 9, retries: 2 })).toBe('75%');
    expect(successRate({ sent: 0, failed: 0, skipped: 4, retries: 0 })).toBe('—');
  });

  it('says what each chart shows', () => {
    expect(
      progressSentence([
        {
          kind: 'pending-transaction',
          total: 10,
          cleared: 2,
          flaggedByPerson: 1,
          escalated: 1,
          changed: 1,
          flaggedByRule: 2,
          unreviewed: 3,
        },
      ]),
    ).toBe('Pending transactions: 4 of 10 reviewed (40%), 6 waiting for a person.');
    expect(reviewDaysSentence([{ date: '2026-01-01', cleared: 0, flagged: 0, escalated: 0 }])).toBe(
      'No dispositions in the last 1 days.',
    );
    expect(
      reviewDaysSentence([
        { date: '2026-01-01', cleared: 1, flagged: 0, escalated: 0 },
        { date: '2026-01-02', cleared: 2, flagged: 1, escalated: 1 },
      ]),
    ).toBe(
      '5 dispositions in the last 2 days: 3 cleared, 1 flagged, 1 escalated; the busiest day was 2026-01-02 with 4.',
    );
    expect(
      pendingSentence({
        accountId: 'acct_1',
        name: { id: 'acct_1', name: 'Card settlement', lastFour: '0880' },
        days: [
          {
            date: '2026-01-01',
            credits: { count: 1, cents: 1050 },
            debits: { count: 2, cents: -300 },
            holds: { count: 0, cents: 0 },
          },
        ],
      }),
    ).toBe('Card settlement ••0880, 2026-01-01 to 2026-01-01: 1 credit of 10.50, 2 debits of -3.00, 0 holds of 0.00.');
    expect(
      deliverySentence(
        'wh_1',
        { sent: 1, failed: 1, skipped: 0, retries: 1 },
        { sent: 3, failed: 1, skipped: 0, retries: 1 },
      ),
    ).toBe(
      'Webhook wh_1: 50% delivered in the last 24 hours (1 send delivered, 1 failure, 1 retry); 75% over 7 days (3 sends delivered, 1 failure, 1 retry).',
    );
  });
});
