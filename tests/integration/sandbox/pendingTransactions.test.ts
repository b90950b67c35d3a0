/** Spec §4.1 over real HTTP: paging with the opaque cursor, date filters, bad input, the page cache. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pendingTransaction, parseWith, type PendingTransaction } from '../../../src/shared/bank/index.ts';
import { startClient, type SandboxClient } from './sandboxClient.ts';

interface Page {
  data: PendingTransaction[];
  page_next: string | null;
}

describe('sandbox: pending transactions', () => {
  let client: SandboxClient;
  let account = '';
  let other = '';
  const base = () => `/account/${account}/pending_transaction`;
  const pathOf = (url: string) => url.slice(client.sandbox.baseUrl.length);
  const error = (body: unknown) => (body as { error: string }).error;

  beforeAll(async () => {
    client = await startClient({ pendingTransactionsPerAccount: 230, seed: 7 });
    account = client.sandbox.demo.accounts[0] ?? '';
    other = client.sandbox.demo.accounts[1] ?? '';
  });
  afterAll(async () => {
    await client.sandbox.close();
  });

  it('pages through every row, newest first, with page_next until it is null', async () => {
    const seen: PendingTransaction[] = [];
    let path: string | null = `${base()}?page_size=100`;
    for (let pages = 0; path !== null && pages < 10; pages += 1) {
      const reply = await client.get(path);
      expect(reply.status).toBe(200);
      expect(reply.headers.get('content-type')).toBe('application/json;charset=utf-8');
      expect(reply.headers.get('cache-control')).toBe('no-cache, no-store, must-revalidate');
      const page = reply.body as Page;
      seen.push(...page.data);
      path = page.page_next === null ? null : pathOf(page.page_next);
    }
    expect(seen).toHaveLength(230);
    for (const row of seen) expect(parseWith(pendingTransaction, row).ok).toBe(true);
    for (let index = 1; index < seen.length; index += 1) {
      expect(
        seen[index - 1]?.extended_timestamp_precise.localeCompare(seen[index]?.extended_timestamp_precise ?? ''),
      ).toBe(1);
    }
    expect(new Set(seen.map((row) => row.account_id))).toEqual(new Set([account]));
  });

  it('defaults page_size to 100 and keeps page_size in page_next as an absolute URL', async () => {
    const page = (await client.get(base())).body as Page;
    expect(page.data).toHaveLength(100);
    expect(page.page_next).toMatch(new RegExp(`^${client.sandbox.baseUrl}/account/${account}/pending_transaction\\?`));
    expect(new URL(page.page_next ?? '').searchParams.get('page_size')).toBe('100');
  });

  it('answers an exhausted list as {data: [], page_next: null} with the total_estimated the real service adds', async () => {
    const page = (await client.get(`${base()}?to_date=2000-01-01`)).body as Page;
    expect(page).toEqual({ data: [], page_next: null, total_estimated: expect.any(Number) as number });
    const full = (await client.get(base())).body as Page & { total_estimated: number };
    expect(full.total_estimated).toBeGreaterThanOrEqual(full.data.length);
  });

  it('filters by created date: from_date inclusive, to_date exclusive, and keeps them in page_next', async () => {
    const all = (await client.get(`${base()}?page_size=1000`)).body as Page;
    const days = [...new Set(all.data.map((row) => row.extended_timestamp.slice(0, 10)))].sort();
    const from = days[1] ?? '';
    const to = days[3] ?? '';
    const expected = all.data.filter((row) => {
      const day = row.extended_timestamp.slice(0, 10);
      return day >= from && day < to;
    });
    expect(expected.length).toBeGreaterThan(2);
    const first = (await client.get(`${base()}?from_date=${from}&to_date=${to}&page_size=2`)).body as Page;
    expect(first.data).toEqual(expected.slice(0, 2));
    const next = new URL(first.page_next ?? '');
    expect(next.searchParams.get('from_date')).toBe(from);
    expect(next.searchParams.get('to_date')).toBe(to);
    const rest = (await client.get(`${base()}?from_date=${from}&to_date=${to}&page_size=1000`)).body as Page;
    expect(rest.data).toEqual(expected);
  });

  it('keeps a cursor valid while new rows arrive, and a write shows on the first page at once', async () => {
    const first = (await client.get(`${base()}?page_size=5`)).body as Page;
    const secondBefore = (await client.get(pathOf(first.page_next ?? ''))).body as Page;
    const posted = await client.call('POST', '/simulation', {
      body: {
        type: 'account.pending_transaction',
        simulation: { account_id: account, amount: '-4.20', desc: 'NEW ROW' },
      },
    });
    expect(posted.status).toBe(202);
    const secondAfter = (await client.get(pathOf(first.page_next ?? ''))).body as Page;
    expect(secondAfter.data).toEqual(secondBefore.data);
    const firstAfter = (await client.get(`${base()}?page_size=5`)).body as Page;
    expect(firstAfter.data[0]?.desc).toBe('NEW ROW');
    expect(firstAfter.data[1]).toEqual(first.data[0]);
  });

  const badQueries: [string, string, RegExp][] = [
    ['page_size 0', 'page_size=0', /page_size: must be a whole number from 1 to 1000/],
    ['a huge page_size', 'page_size=1000000', /page_size: must be a whole number from 1 to 1000/],
    ['page_size 1001', 'page_size=1001', /page_size/],
    ['page_size abc', 'page_size=abc', /page_size/],
    ['a negative page_size', 'page_size=-5', /page_size/],
    ['a fractional page_size', 'page_size=2.5', /page_size/],
    ['an unknown cursor', 'page_cursor=not-a-cursor', /page_cursor .* is not a cursor this list issued/],
    ['an empty cursor', 'page_cursor=', /page_cursor: must not be empty/],
    ['a webhook_send id as cursor', 'page_cursor=whsend_abcdefghijklmn', /not a cursor this list issued/],
    ['a from_date in the wrong format', 'from_date=2025/01/01', /from_date: must be a date in the form YYYY-MM-DD/],
    ['an impossible to_date', 'to_date=2025-02-30', /to_date: must be a real calendar date/],
    ['a timestamp as from_date', 'from_date=2025-01-01T00:00:00Z', /from_date/],
    ['from_date after to_date', 'from_date=2025-06-02&to_date=2025-06-01', /from_date: must not be after to_date/],
    ['an unknown parameter', 'sort=asc', /unknown query parameter: "sort"/],
    ['a repeated parameter', 'page_size=1&page_size=2', /page_size/],
  ];
  for (const [what, query, message] of badQueries) {
    it(`answers 400 naming the problem for ${what}`, async () => {
      const reply = await client.get(`${base()}?${query}`);
      expect(reply.status).toBe(400);
      expect(reply.headers.get('content-type')).toBe('application/json;charset=utf-8');
      expect(error(reply.body)).toMatch(message);
    });
  }

  it('refuses a cursor issued for another account', async () => {
    const page = (await client.get(`/account/${other}/pending_transaction?page_size=1`)).body as Page;
    const cursor = new URL(page.page_next ?? '').searchParams.get('page_cursor') ?? '';
    const reply = await client.get(`${base()}?page_cursor=${encodeURIComponent(cursor)}`);
    expect(reply.status).toBe(400);
    expect(error(reply.body)).toMatch(/another account/);
  });

  it('refuses a tampered cursor', async () => {
    const page = (await client.get(`${base()}?page_size=1`)).body as Page;
    const cursor = new URL(page.page_next ?? '').searchParams.get('page_cursor') ?? '';
    const [payload = '', signature = ''] = cursor.split('.');
    const decoded = Buffer.from(payload, 'base64url')
      .toString('utf8')
      .replace(/[0-9]+$/, '5');
    const forged = `${Buffer.from(decoded).toString('base64url')}.${signature}`;
    const reply = await client.get(`${base()}?page_cursor=${encodeURIComponent(forged)}`);
    expect(reply.status).toBe(400);
  });

  it('answers 404 for an unknown account', async () => {
    const reply = await client.get('/account/acct_doesnotexist00/pending_transaction');
    expect(reply.status).toBe(404);
    expect(error(reply.body)).toBe('No account with id acct_doesnotexist00.');
  });
});
