/**
 * The `reviews` domain through the real router and bridge, on the real services, cache and
 * sandbox: a selection takes one disposition, list rows carry ref and review and filter by
 * it, the drawer's detail, rules and the reviewer's name, every bad input refused with its
 * field, and the report saved as HTML, CSV and PDF (Chromium's printing is the shell's: here a
 * port that records the page it was given).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';
import { openAppOverIpc, type AppOverIpc } from '../../support/app.ts';
import { refusal } from '../../support/refusal.ts';

let app: AppOverIpc;
let api: LedgerdeskApi;
let profileId: string;
let accountId: string;
const printed: string[] = [];

beforeAll(async () => {
  app = await openAppOverIpc('reviews', {
    sandbox: { pendingTransactionsPerAccount: 60 },
    services: {
      printToPdf: (html) => {
        printed.push(html);
        return Promise.resolve(Buffer.from('%PDF-1.7 printed by the port\n'));
      },
    },
  });
  ({ api, profileId } = app);
  accountId = (await api.accounts.list({ profileId })).rows[0]?.id ?? '';
  await syncPending();
});

/** Syncs the account's pending transactions and waits (bounded) for the job to finish. */
const syncPending = (): Promise<void> => app.syncAndWait({ kind: 'pendingTransactions', accountId });

afterAll(() => app.close());

describe('the reviews domain', () => {
  it('gives one disposition to a selection; list rows carry ref and review and filter by it', async () => {
    const page = await api.pendingTransactions.list({ profileId, accountId, limit: 10 });
    expect(page.rows.every((row) => row.review === null && row.ref === row.rowKey)).toBe(true);
    const selection = page.rows.slice(0, 4).map((row) => row.ref ?? '');
    const given = await api.reviews.give({
      profileId,
      kind: 'pending-transaction',
      refs: selection,
      disposition: 'flagged',
      note: 'Card testing pattern',
    });
    expect(given.rows.map((review) => review.state)).toEqual(['flagged', 'flagged', 'flagged', 'flagged']);
    const flagged = await api.pendingTransactions.list({ profileId, accountId, review: 'flagged', limit: 100 });
    expect(flagged.rows.map((row) => row.ref).sort()).toEqual([...selection].sort());
    expect(flagged.rows[0]?.review).toMatchObject({ state: 'flagged', note: 'Card testing pattern' });
    const counts = await Promise.all(
      (['unreviewed', 'flagged', 'cleared'] as const).map(
        async (review) => (await api.pendingTransactions.count({ profileId, accountId, review })).count,
      ),
    );
    expect(counts).toEqual([56, 4, 0]);
    expect(await api.reviews.counts({ profileId, kind: 'pending-transaction' })).toEqual({
      cleared: 0,
      flagged: 4,
      escalated: 0,
      changed: 0,
    });

    const detail = await api.reviews.detail({ profileId, kind: 'pending-transaction', ref: selection[0] ?? '' });
    expect(detail.history).toHaveLength(1);
    expect(detail.reviewedRecord).toEqual(detail.cachedRecord);
    const queue = await api.reviews.list({ profileId, state: 'flagged' });
    expect(queue.rows).toHaveLength(4);
    expect(queue.asOf).toBeNull();
  });

  it('refuses bad input, naming the field, and writes nothing', async () => {
    const [row] = (await api.pendingTransactions.list({ profileId, accountId, review: 'unreviewed', limit: 1 })).rows;
    const ref = row?.ref ?? '';
    const give = (input: Record<string, unknown>) =>
      refusal(
        api.reviews.give({
          profileId,
          kind: 'pending-transaction',
          refs: [ref],
          disposition: 'cleared',
          ...input,
        } as never),
      );
    expect(await give({ disposition: 'ignored' })).toMatchObject({ code: 'invalid_input', field: 'disposition' });
    expect(await give({ kind: 'card' })).toMatchObject({ code: 'invalid_input', field: 'kind' });
    expect(await give({ refs: [] })).toMatchObject({ code: 'invalid_input', field: 'refs' });
    expect(await give({ note: 'n'.repeat(4001) })).toMatchObject({ code: 'invalid_input', field: 'note' });
    expect(await give({ note: 'tab\tis fine, escape \u001b is not' })).toMatchObject({
      code: 'invalid_input',
      field: 'note',
    });
    expect(await give({ refs: [ref, 'missing-ref'] })).toMatchObject({ code: 'not_found', field: 'refs' });
    expect(
      await refusal(api.pendingTransactions.list({ profileId, accountId, review: 'maybe' as never })),
    ).toMatchObject({
      code: 'invalid_input',
      field: 'review',
    });
    expect(
      await refusal(
        api.reviews.saveRule({ profileId, rule: { name: 'x', kind: 'application', sendStatus: 'error' } as never }),
      ),
    ).toMatchObject({ code: 'invalid_input' });
    expect(await refusal(api.reviews.removeRule({ profileId, name: 'none' }))).toMatchObject({ code: 'not_found' });
    expect(await refusal(api.reviews.setReviewer({ name: '  ' }))).toMatchObject({
      code: 'invalid_input',
      field: 'reviewer',
    });
    const after = await api.reviews.detail({ profileId, kind: 'pending-transaction', ref });
    expect(after.review).toBeNull();
  });

  it('keeps rules and the reviewer’s name, and saves the report as HTML, CSV and PDF', async () => {
    const rule = await api.reviews.saveRule({
      profileId,
      rule: { name: 'Large', kind: 'pending-transaction', amountBeyond: '-250.00' },
    });
    expect((await api.reviews.rules({ profileId })).rows).toEqual([rule]);
    // After a sync the rule flags; the queue shows each flag with the record as cached.
    await syncPending();
    const flaggedByRule = (await api.reviews.list({ profileId, state: 'flagged', limit: 100 })).rows.filter(
      (row) => row.byRule === 'Large',
    );
    expect(flaggedByRule.length).toBeGreaterThan(0);
    for (const row of flaggedByRule) {
      expect(row.disposition).toBeNull();
      expect(Number((row.record as { amount: string }).amount)).toBeLessThanOrEqual(-250);
    }
    // An export of the flagged view holds exactly the flagged rows.
    const flaggedCount = (await api.pendingTransactions.count({ profileId, accountId, review: 'flagged' })).count;
    const exported = await api.exports.pendingTransactions({ profileId, accountId, review: 'flagged', format: 'csv' });
    expect(exported).toMatchObject({ saved: true, rows: flaggedCount });
    expect(flaggedCount).toBe(4 + flaggedByRule.filter((row) => row.kind === 'pending-transaction').length);
    expect(await api.reviews.setReviewer({ name: 'A. Officer' })).toEqual({ name: 'A. Officer', source: 'settings' });
    const html = await api.reviews.saveReport({ profileId, format: 'html' });
    // The four flagged by a person and those the rule flagged.
    expect(html).toMatchObject({ saved: true, rows: 4 + flaggedByRule.length });
    const page = readFileSync(html.path ?? '', 'utf8');
    expect(page).toContain('Card testing pattern');
    expect(page).toContain('by A. Officer');
    const csv = await api.reviews.saveReport({ profileId, format: 'csv' });
    // One row per item: the four a person flagged and those the rule flagged.
    const csvLines = readFileSync(csv.path ?? '', 'utf8')
      .split('\r\n')
      .filter((line) => line !== '');
    expect(
      csvLines.slice(1).filter((line) => /^(Pending transaction|Account application|Webhook send),/.test(line)),
    ).toHaveLength(4 + flaggedByRule.length);
    expect(csvLines.filter((line) => line.includes('Card testing pattern'))).toHaveLength(4);
    const pdf = await api.reviews.saveReport({ profileId, format: 'pdf', fromDate: '2020-01-01' });
    expect(readFileSync(pdf.path ?? '', 'utf8')).toBe('%PDF-1.7 printed by the port\n');
    expect(printed.at(-1)).toContain('Period: 2020-01-01 to now');
    expect(await api.reviews.setReviewer({ name: null })).toMatchObject({ source: 'os' });
    await api.reviews.removeRule({ profileId, name: 'Large' });
    expect((await api.reviews.rules({ profileId })).rows).toEqual([]);
  });
});
