/**
 * `npm run bench -- review`: the officer's review over a large cache of pending transactions
 * (1,000,000 by default; LEDGERDESK_BENCH_REVIEW_ROWS=N for another size), with reviews in
 * every state (about 1% cleared, 0.3% flagged by a person, 2% flagged by a watch rule, 0.1%
 * escalated, 0.05% changed since review):
 *   1. a page of 100 behind each review filter, as the list handler reads it (the cache's
 *      keyset page, decrypted, with the review column of the page), against the same page
 *      with no review filter and no review column;
 *   2. the count behind each review filter, against the count with no filter;
 *   3. one disposition on 1,000 selected rows (what Shift+J… then f sends), against reading
 *      and opening the same 1,000 records, which any disposition must do.
 * No figure here is asserted by a test: targets are reported, met or not.
 */
import type { PendingTransaction } from '../../src/shared/bank/index.ts';
import { REVIEW_FILTERS, type ReviewFilter } from '../../src/shared/review/reviewTerms.ts';
import { OfflineCache } from '../../src/main/services/cache/offlineCache.ts';
import { RecordStore } from '../../src/main/services/record/recordStore.ts';
import { pendingColumnsCheckOffForBenchmark } from '../../src/main/services/cache/pendingColumns.ts';
import { Credentials } from '../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { withReviews } from '../../src/main/services/review/reviewColumn.ts';
import { ReviewService } from '../../src/main/services/review/reviewService.ts';
import { percentile, type BenchFigure, type Benchmark } from './benchmark.ts';
import { temporaryFolder } from './sandboxChild.ts';
import { benchTransaction } from './benchTransaction.ts';

const ROWS = Number(process.env['LEDGERDESK_BENCH_REVIEW_ROWS'] ?? 1_000_000);
const PROFILE = 'bench';
const ACCOUNT = 'acct_bench';
const ROUNDS = 40;
const SELECTION = 1000;

function transactionOf(n: number): PendingTransaction {
  const moment = new Date(Date.UTC(2025, 11, 31) - n * 20_000).toISOString();
  const cents = (n * 7919) % 500_000;
  return benchTransaction(ACCOUNT, n, moment, cents);
}

function timed(samples: number[], work: () => unknown): void {
  const started = performance.now();
  work();
  samples.push(performance.now() - started);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/** Every row key of the account, newest first, read in pages (keys only: what a selection is made of). */
function allRefs(cache: OfflineCache): string[] {
  const refs: string[] = [];
  let cursor: string | null = null;
  do {
    const page = cache.pendingTransactions.list({ profileId: PROFILE, accountId: ACCOUNT, limit: 1000, cursor });
    for (const row of page.rows) refs.push(row.row_key);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return refs;
}

/** Gives `disposition` to every `every`-th row from `offset`, in selections of at most 1,000. */
function reviewEvery(
  reviews: ReviewService,
  refs: readonly string[],
  every: number,
  offset: number,
  disposition: 'cleared' | 'flagged' | 'escalated',
): string[] {
  const chosen = refs.filter((_, index) => index % every === offset);
  for (let start = 0; start < chosen.length; start += SELECTION) {
    reviews.give({
      profileId: PROFILE,
      kind: 'pending-transaction',
      refs: chosen.slice(start, start + SELECTION),
      disposition,
      note: disposition === 'cleared' ? null : 'Seen twice the same day.',
    });
  }
  return chosen;
}

const benchmark: Benchmark = {
  title: `Review filter and dispositions over ${ROWS.toLocaleString('en-US')} cached pending transactions`,
  async run(): Promise<BenchFigure[]> {
    const temp = temporaryFolder('ledgerdesk-bench-review-');
    const credentials = new Credentials(new InMemorySecretStore());
    // As the app opens it (issue 34): the officer's record attached, the reviews in record.sqlite.
    const record = await RecordStore.open({ folder: temp.folder, credentials });
    const cache = await OfflineCache.open({ folder: temp.folder, credentials, writer: 'inline', record });
    const reviews = new ReviewService({ cache, profileName: () => 'Bench' });
    try {
      const { checkpoint } = cache.checkpoints.begin(
        PROFILE,
        'pending-transactions',
        'bench',
        '{}',
        new Date().toISOString(),
      );
      const fillStarted = performance.now();
      for (let start = 0; start < ROWS; start += 10_000) {
        const batch = Array.from({ length: Math.min(10_000, ROWS - start) }, (_, index) =>
          transactionOf(start + index),
        );
        cache.transaction(() => cache.pendingTransactions.writePage(PROFILE, ACCOUNT, batch, checkpoint.generation));
      }
      const fillSeconds = (performance.now() - fillStarted) / 1000;

      // Reviews in every state, spread through the list.
      const reviewStarted = performance.now();
      const refs = allRefs(cache);
      reviewEvery(reviews, refs, 100, 1, 'cleared');
      reviewEvery(reviews, refs, 333, 7, 'flagged');
      reviewEvery(reviews, refs, 1000, 11, 'escalated');
      const toChange = reviewEvery(reviews, refs, 2000, 13, 'cleared');
      cache.transaction(() => {
        for (const ref of toChange) {
          reviews.markChanged(
            PROFILE,
            'pending-transaction',
            ref,
            [{ field: 'amount', before: '"-1.00"', after: '"-2.00"' }],
            new Date().toISOString(),
          );
        }
      });
      // A watch rule flags the largest debits (about 2%) after "a sync".
      reviews.saveRule(PROFILE, { name: 'Large debits', kind: 'pending-transaction', amountBeyond: '-4900.00' });
      const afterSync = reviews.afterSync(PROFILE, 'pending-transactions');
      const reviewSeconds = (performance.now() - reviewStarted) / 1000;
      const counts = reviews.counts(PROFILE, 'pending-transaction');
      process.stdout.write(
        `  (${ROWS.toLocaleString('en-US')} rows filled in ${fillSeconds.toFixed(1)} s; reviews ${JSON.stringify(counts)} made in ${reviewSeconds.toFixed(1)} s, ${String(afterSync.flaggedByRule['Large debits'] ?? 0)} by the rule)\n`,
      );

      const base = { profileId: PROFILE, accountId: ACCOUNT };
      /** The list handler's read: a page, then its review column. */
      const page = (review: ReviewFilter | undefined, cursor: string | null) => {
        const read = cache.pendingTransactions.list({
          ...base,
          ...(review === undefined ? {} : { review }),
          limit: 100,
          cursor,
        });
        withReviews(reviews, PROFILE, 'pending-transaction', read.rows, (row) => row.row_key);
        return read.nextCursor;
      };
      // Rounds alternate with the baseline; each walks three pages deep.
      const pageSamples = new Map<ReviewFilter, number[]>(REVIEW_FILTERS.map((filter) => [filter, []]));
      const plainPages: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        let plainCursor: string | null = null;
        for (let depth = 0; depth < 3; depth += 1) {
          const started = performance.now();
          plainCursor = cache.pendingTransactions.list({ ...base, limit: 100, cursor: plainCursor }).nextCursor;
          plainPages.push(performance.now() - started);
        }
        for (const filter of REVIEW_FILTERS) {
          const samples = pageSamples.get(filter) ?? [];
          let cursor: string | null = null;
          for (let depth = 0; depth < 3; depth += 1) {
            const started = performance.now();
            cursor = page(filter, cursor);
            samples.push(performance.now() - started);
            if (cursor === null) break;
          }
        }
      }
      // What authenticating the review columns costs (row MACs, N2): each page read twice in a
      // row, once with the MACs checked and once not (RowMacs.offForBenchmark), the order
      // swapped every round, so both series meet the same load of this shared machine at the
      // same moment (rounds of whole sweeps, one on and one off, let a burst of another
      // process land on one series only).
      const authenticated: number[] = [];
      const unauthenticated: number[] = [];
      for (let round = 0; round < ROUNDS * 2; round += 1) {
        for (const filter of REVIEW_FILTERS) {
          let cursor: string | null = null;
          for (let depth = 0; depth < 3; depth += 1) {
            let next: string | null = null;
            for (const off of round % 2 === 0 ? [false, true] : [true, false]) {
              cache.rowMacs.offForBenchmark(off);
              const started = performance.now();
              next = page(filter, cursor);
              (off ? unauthenticated : authenticated).push(performance.now() - started);
            }
            cursor = next;
            if (cursor === null) break;
          }
        }
      }
      cache.rowMacs.offForBenchmark(false);
      // What checking pending transactions' clear columns against their records costs
      // (pendingColumns.ts, issue 23 item 2): the plain list page (newest first, and largest
      // first, which reads by the clear amount) and the page with every review filter, each
      // read twice in a row, checked and not, the order swapped every round.
      const pendingChecked: number[] = [];
      const pendingUnchecked: number[] = [];
      const pendingReads: ((cursor: string | null) => string | null)[] = [
        (cursor) => cache.pendingTransactions.list({ ...base, limit: 100, cursor }).nextCursor,
        (cursor) => cache.pendingTransactions.list({ ...base, sort: 'largest', limit: 100, cursor }).nextCursor,
        ...REVIEW_FILTERS.map((filter) => (cursor: string | null) => page(filter, cursor)),
      ];
      for (let round = 0; round < ROUNDS * 2; round += 1) {
        for (const read of pendingReads) {
          let cursor: string | null = null;
          for (let depth = 0; depth < 3; depth += 1) {
            let next: string | null = null;
            for (const off of round % 2 === 0 ? [false, true] : [true, false]) {
              pendingColumnsCheckOffForBenchmark(off);
              const started = performance.now();
              next = read(cursor);
              (off ? pendingUnchecked : pendingChecked).push(performance.now() - started);
            }
            cursor = next;
            if (cursor === null) break;
          }
        }
      }
      pendingColumnsCheckOffForBenchmark(false);
      // The check alone, on the pages' reviews: what the ratio above is made of.
      const checkMs: number[] = [];
      for (const filter of REVIEW_FILTERS) {
        const read = cache.pendingTransactions.list({ ...base, review: filter, limit: 100 });
        const refsOfPage = read.rows.map((row) => row.row_key);
        const rows = cache.database
          .prepare(
            `SELECT * FROM reviews WHERE profile_id = ? AND kind = 'pending-transaction' AND ref IN (SELECT value FROM json_each(?))`,
          )
          .all(PROFILE, JSON.stringify(refsOfPage));
        for (let round = 0; round < ROUNDS; round += 1) {
          timed(checkMs, () => {
            for (const row of rows) cache.rowMacs.holds('reviews', row);
          });
        }
      }
      const countSamples = new Map<ReviewFilter, number[]>(REVIEW_FILTERS.map((filter) => [filter, []]));
      const plainCounts: number[] = [];
      for (let round = 0; round < Math.ceil(ROUNDS / 4); round += 1) {
        timed(plainCounts, () => cache.pendingTransactions.count(base));
        for (const filter of REVIEW_FILTERS) {
          timed(countSamples.get(filter) ?? [], () => cache.pendingTransactions.count({ ...base, review: filter }));
        }
      }

      // One disposition on 1,000 selected rows, five selections of rows no one has reviewed,
      // alternating with reading and opening the same records.
      const unreviewed = refs.filter((_, index) => index % 100 !== 1 && index % 333 !== 7 && index % 1000 !== 11);
      const giveMs: number[] = [];
      const readMs: number[] = [];
      for (let round = 0; round < 5; round += 1) {
        const start = Math.floor((unreviewed.length / 6) * (round + 1));
        const selection = unreviewed.slice(start, start + SELECTION);
        timed(readMs, () => reviews.records.find(PROFILE, 'pending-transaction', selection));
        timed(giveMs, () =>
          reviews.give({
            profileId: PROFILE,
            kind: 'pending-transaction',
            refs: selection,
            disposition: 'flagged',
            note: 'Card testing: many small charges.',
          }),
        );
      }

      // The same, for a disposition: fresh selections, alternating (rows given with the MACs off
      // are never read again).
      const macGive: number[] = [];
      const noMacGive: number[] = [];
      for (let round = 0; round < 10; round += 1) {
        const start = Math.floor((unreviewed.length / 12) * (round + 1)) + SELECTION * 2;
        const selection = unreviewed.slice(start, start + SELECTION);
        const off = round % 2 === 1;
        cache.rowMacs.offForBenchmark(off);
        timed(off ? noMacGive : macGive, () =>
          reviews.give({
            profileId: PROFILE,
            kind: 'pending-transaction',
            refs: selection,
            disposition: 'escalated',
            note: 'Authenticated or not.',
          }),
        );
      }
      cache.rowMacs.offForBenchmark(false);

      const plainPage95 = percentile(plainPages, 95);
      const plainCount95 = percentile(plainCounts, 95);
      const figures: BenchFigure[] = [];
      for (const filter of REVIEW_FILTERS) {
        const p95 = percentile(pageSamples.get(filter) ?? [], 95);
        figures.push({
          name: `page of 100 with its review column, review filter "${filter}": p95`,
          value: p95,
          unit: 'ms',
          baseline: { name: 'the same page, no review filter and no review column: p95', value: plainPage95 },
          target: 'p95 ≤ 5 ms',
          met: p95 <= 5,
        });
      }
      for (const filter of REVIEW_FILTERS) {
        const p95 = percentile(countSamples.get(filter) ?? [], 95);
        figures.push({
          name: `count behind review filter "${filter}": p95`,
          value: p95,
          unit: 'ms',
          baseline: { name: 'the count with no filter: p95', value: plainCount95 },
          target: '≤ 50 ms',
          met: p95 <= 50,
        });
      }
      const give = median(giveMs);
      figures.push({
        name: `one disposition (with a note) on ${SELECTION.toLocaleString('en-US')} selected rows, audited (median of 5)`,
        value: give,
        unit: 'ms',
        baseline: {
          name: `finding and opening the same ${SELECTION.toLocaleString('en-US')} records (median)`,
          value: median(readMs),
        },
        target: '≤ 1 s',
        met: give <= 1000,
      });
      const authenticated95 = percentile(authenticated, 95);
      const unauthenticated95 = percentile(unauthenticated, 95);
      figures.push({
        name: 'page of 100 with its review column, every review filter, row MACs checked: p95',
        value: authenticated95,
        unit: 'ms',
        baseline: { name: 'the same pages, row MACs not checked (benchmark switch): p95', value: unauthenticated95 },
        target: '≤ 1.10× unchecked',
        met: authenticated95 <= unauthenticated95 * 1.1,
      });
      figures.push({
        name: 'checking the row MACs of a page of 100 alone (every review filter): p95',
        value: percentile(checkMs, 95),
        unit: 'ms',
        baseline: { name: 'the page with its review column, MACs not checked: p95', value: unauthenticated95 },
      });
      const pendingChecked95 = percentile(pendingChecked, 95);
      const pendingUnchecked95 = percentile(pendingUnchecked, 95);
      figures.push({
        name: 'pending list page of 100 (newest, largest, every review filter), clear columns checked against the records: p95',
        value: pendingChecked95,
        unit: 'ms',
        baseline: { name: 'the same pages, columns not checked (benchmark switch): p95', value: pendingUnchecked95 },
        target: '≤ 1.10× unchecked',
        met: pendingChecked95 <= pendingUnchecked95 * 1.1,
      });
      const macGiveMedian = median(macGive);
      const noMacGiveMedian = median(noMacGive);
      figures.push({
        name: `one disposition on ${SELECTION.toLocaleString('en-US')} rows, row MACs made and checked (median of 5)`,
        value: macGiveMedian,
        unit: 'ms',
        baseline: { name: 'the same, row MACs neither made nor checked (median of 5)', value: noMacGiveMedian },
        target: '≤ 1.10× without',
        met: macGiveMedian <= noMacGiveMedian * 1.1,
      });
      figures.push({
        name: `filling the cache with ${ROWS.toLocaleString('en-US')} sealed, indexed transactions`,
        value: ROWS / fillSeconds,
        unit: 'rows/s',
      });
      return figures;
    } finally {
      await cache.close();
      record.close();
      temp.remove();
    }
  },
};

export default benchmark;
