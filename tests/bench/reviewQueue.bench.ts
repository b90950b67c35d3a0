/**
 * `npm run bench -- reviewQueue`: the officer's one queue over 1,000,000 cached pending
 * transactions in 20 accounts (LEDGERDESK_BENCH_QUEUE_ROWS=N for another size), with reviews
 * in every state spread through them (about 1% cleared, 0.3% flagged by a person, 0.1%
 * escalated, 0.05% changed, and a watch rule's flags):
 *   1. a page of 100 of the queue's unreviewed part across the 20 accounts (three pages deep,
 *      opened and ready to show), and of its flagged part, against one account's plain page
 *      of 100 (the list screen's read, which is per account);
 *   2. the queue's counts (by part, kind and account, every account) with no filter and with an
 *      amount filter, against one account's plain count;
 *   3. the Overview's figures (services/overview/overviewFigures.ts: progress, volume by day
 *      per account, deliveries, freshness), against one account's plain count;
 *   4. the auditor's report of 10,000 items (HTML), with the share of it spent opening sealed
 *      rows (the reviews and the cached records, read again on their own in the same run);
 *   5. what keeping the counts (cache migration 20) costs a sync's writes: 100,000 rows in
 *      pages of 1,000, against the same pages into a cache without the count triggers.
 * No figure here is asserted by a test: targets are reported, met or not.
 */
import type { PendingTransaction } from '../../src/shared/bank/index.ts';
import { OfflineCache } from '../../src/main/services/cache/offlineCache.ts';
import { RecordStore } from '../../src/main/services/record/recordStore.ts';
import { Credentials } from '../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { OverviewFigures } from '../../src/main/services/overview/overviewFigures.ts';
import { reportHtml } from '../../src/main/services/review/reportHtml.ts';
import { REPORTED_STATES, buildReviewReport } from '../../src/main/services/review/reviewReport.ts';
import { ReviewQueue } from '../../src/main/services/review/reviewQueue.ts';
import { ReviewService } from '../../src/main/services/review/reviewService.ts';
import type { QueueState } from '../../src/shared/review/queueTerms.ts';
import { percentile, type BenchFigure, type Benchmark } from './benchmark.ts';
import { temporaryFolder } from './sandboxChild.ts';
import { benchTransaction } from './benchTransaction.ts';

const ROWS = Number(process.env['LEDGERDESK_BENCH_QUEUE_ROWS'] ?? 1_000_000);
const ACCOUNTS = 20;
const PROFILE = 'bench';
const ROUNDS = 40;

const accountOf = (index: number): string => `acct_bench_${String(index).padStart(2, '0')}`;

/** The n-th transaction of an account; accounts interleave in time, as a bank's do. */
function transactionOf(accountId: string, account: number, n: number): PendingTransaction {
  const moment = new Date(Date.UTC(2025, 11, 31) - n * 20_000 * ACCOUNTS - account * 7_000).toISOString();
  const cents = ((n + account) * 7919) % 500_000;
  return benchTransaction(accountId, n, moment, cents, { trace_id: `trace_${account.toString(36)}_${n.toString(36)}` });
}

function timed(samples: number[], work: () => unknown): void {
  const started = performance.now();
  work();
  samples.push(performance.now() - started);
}

const benchmark: Benchmark = {
  title: `The one review queue over ${ROWS.toLocaleString('en-US')} cached pending transactions in ${String(ACCOUNTS)} accounts`,
  async run(): Promise<BenchFigure[]> {
    const temp = temporaryFolder('ledgerdesk-bench-queue-');
    const credentials = new Credentials(new InMemorySecretStore());
    // As the app opens it (issue 34): the officer's record attached, the reviews in record.sqlite.
    const record = await RecordStore.open({ folder: temp.folder, credentials });
    const cache = await OfflineCache.open({ folder: temp.folder, credentials, writer: 'inline', record });
    const reviews = new ReviewService({ cache, profileName: () => 'Bench' });
    const queue = new ReviewQueue(cache, reviews);
    try {
      // 0. What keeping the counts costs a sync: the same pages written into a cache whose
      // count triggers (migrations 20 and 26) are dropped, alternating with the real cache, 5 × 20,000
      // rows each, in accounts of their own (removed afterwards). Since cache migration 31 a new
      // row's figures are added by one statement a page in the writer (keptCounts.ts), which both
      // caches run; the insert triggers are gone, so only the update and delete ones are dropped.
      const bareFolder = temporaryFolder('ledgerdesk-bench-queue-bare-');
      const bare = await OfflineCache.open({
        folder: bareFolder.folder,
        credentials: new Credentials(new InMemorySecretStore()),
        writer: 'inline',
      });
      for (const trigger of [
        'pending_transactions_counted',
        'pending_transactions_uncounted',
        'pending_transactions_counted_by_day',
        'pending_transactions_uncounted_by_day',
        'pending_transactions_recounted',
        'pending_transactions_banded',
        'pending_transactions_unbanded',
        'pending_transactions_rebanded',
      ])
        bare.database.exec(`DROP TRIGGER IF EXISTS ${trigger}`);
      const writeSamples = { kept: [] as number[], bare: [] as number[] };
      for (let round = 0; round < 5; round += 1) {
        for (const [name, target] of round % 2 === 0
          ? ([
              ['kept', cache],
              ['bare', bare],
            ] as const)
          : ([
              ['bare', bare],
              ['kept', cache],
            ] as const)) {
          const accountId = `acct_write_${String(round)}`;
          const batch = Array.from({ length: 20_000 }, (_, n) => transactionOf(accountId, round, n));
          timed(writeSamples[name], () => {
            for (let start = 0; start < batch.length; start += 1000)
              target.transaction(() =>
                target.pendingTransactions.writePage('write-cost', accountId, batch.slice(start, start + 1000), 1),
              );
          });
        }
      }
      cache.pendingTransactions.dropProfile('write-cost');
      await bare.close();
      bareFolder.remove();
      const writeKept = writeSamples.kept.reduce((sum, ms) => sum + ms, 0);
      const writeBare = writeSamples.bare.reduce((sum, ms) => sum + ms, 0);

      const { checkpoint } = cache.checkpoints.begin(
        PROFILE,
        'pending-transactions',
        'bench',
        '{}',
        new Date().toISOString(),
      );
      const perAccount = Math.ceil(ROWS / ACCOUNTS);
      const fillStarted = performance.now();
      for (let account = 0; account < ACCOUNTS; account += 1) {
        const accountId = accountOf(account);
        for (let start = 0; start < perAccount; start += 10_000) {
          const batch = Array.from({ length: Math.min(10_000, perAccount - start) }, (_, index) =>
            transactionOf(accountId, account, start + index),
          );
          cache.transaction(() =>
            cache.pendingTransactions.writePage(PROFILE, accountId, batch, checkpoint.generation),
          );
        }
      }
      const fillSeconds = (performance.now() - fillStarted) / 1000;

      // Reviews in every state: row keys of every account, keys only.
      const refs = (
        cache.database.prepare('SELECT row_key FROM pending_transactions ORDER BY id').all() as { row_key: string }[]
      ).map((row) => row.row_key);
      const give = (every: number, offset: number, disposition: 'cleared' | 'flagged' | 'escalated'): string[] => {
        const chosen = refs.filter((_, index) => index % every === offset);
        for (let start = 0; start < chosen.length; start += 1000) {
          reviews.give({
            profileId: PROFILE,
            kind: 'pending-transaction',
            refs: chosen.slice(start, start + 1000),
            disposition,
          });
        }
        return chosen;
      };
      give(100, 1, 'cleared');
      give(333, 7, 'flagged');
      give(1000, 11, 'escalated');
      const toChange = give(2000, 13, 'cleared');
      cache.transaction(() => {
        for (const ref of toChange)
          reviews.markChanged(PROFILE, 'pending-transaction', ref, [], new Date().toISOString());
      });
      // About 0.2% of the rows (amounts are spread evenly up to 5,000.00), so the report below
      // holds the 10,000 items the issue names, not every rule flag of a looser rule.
      reviews.saveRule(PROFILE, { name: 'Large debits', kind: 'pending-transaction', amountBeyond: '-4990.00' });
      reviews.afterSync(PROFILE, 'pending-transactions');
      const counted = queue.counts({ profileId: PROFILE });
      process.stdout.write(
        `  (${ROWS.toLocaleString('en-US')} rows filled in ${fillSeconds.toFixed(1)} s; queue ${JSON.stringify(counted.states)})\n`,
      );

      const parts: QueueState[] = ['unreviewed', 'flagged-by-person', 'flagged-by-rule', 'changed'];
      const pageSamples = new Map<QueueState, number[]>(parts.map((part) => [part, []]));
      const plainPages: number[] = [];
      for (let round = 0; round < ROUNDS; round += 1) {
        let plainCursor: string | null = null;
        for (let depth = 0; depth < 3; depth += 1) {
          timed(plainPages, () => {
            plainCursor = cache.pendingTransactions.list({
              profileId: PROFILE,
              accountId: accountOf(round % ACCOUNTS),
              limit: 100,
              cursor: plainCursor,
            }).nextCursor;
          });
        }
        for (const part of parts) {
          let cursor: string | null = null;
          for (let depth = 0; depth < 3; depth += 1) {
            const started = performance.now();
            const page = queue.list({
              profileId: PROFILE,
              kind: 'pending-transaction',
              state: part,
              limit: 100,
              cursor,
            });
            pageSamples.get(part)?.push(performance.now() - started);
            cursor = page.nextCursor;
            if (cursor === null) break;
          }
        }
      }
      const countSamples: number[] = [];
      const amountCountSamples: number[] = [];
      const plainCounts: number[] = [];
      for (let round = 0; round < Math.ceil(ROUNDS / 2); round += 1) {
        timed(plainCounts, () =>
          cache.pendingTransactions.count({ profileId: PROFILE, accountId: accountOf(round % ACCOUNTS) }),
        );
        timed(countSamples, () => queue.counts({ profileId: PROFILE }));
        timed(amountCountSamples, () => queue.counts({ profileId: PROFILE, minAmountCents: 100_000 }));
      }

      const plainPage95 = percentile(plainPages, 95);
      const plainCount95 = percentile(plainCounts, 95);
      const figures: BenchFigure[] = parts.map((part) => {
        const p95 = percentile(pageSamples.get(part) ?? [], 95);
        return {
          name: `queue page of 100, part "${part}", across ${String(ACCOUNTS)} accounts (records opened): p95`,
          value: p95,
          unit: 'ms',
          baseline: { name: 'one account’s plain page of 100: p95', value: plainPage95 },
          target: 'p95 ≤ 5 ms',
          met: p95 <= 5,
        };
      });
      const counts95 = percentile(countSamples, 95);
      figures.push({
        name: `queue counts by part, kind and account, ${String(ACCOUNTS)} accounts: p95`,
        value: counts95,
        unit: 'ms',
        baseline: { name: 'one account’s plain count: p95', value: plainCount95 },
        target: 'p95 ≤ 50 ms',
        met: counts95 <= 50,
      });
      const amount95 = percentile(amountCountSamples, 95);
      figures.push({
        name: 'queue counts with an amount filter (≥ 1,000.00): p95',
        value: amount95,
        unit: 'ms',
        baseline: { name: 'one account’s plain count: p95', value: plainCount95 },
      });

      // 3. The Overview's figures, every one, as the screen asks for them.
      const overview = new OverviewFigures(cache.database);
      const overviewSamples: number[] = [];
      for (let round = 0; round < ROUNDS / 2; round += 1) timed(overviewSamples, () => overview.read(PROFILE));
      const overview95 = percentile(overviewSamples, 95);
      figures.push({
        name: `Overview figures (progress, volume by day of ${String(ACCOUNTS)} accounts, deliveries, freshness): p95`,
        value: overview95,
        unit: 'ms',
        baseline: { name: 'one account’s plain count: p95', value: plainCount95 },
        target: 'p95 ≤ 100 ms',
        met: overview95 <= 100,
      });

      // 4. The report of 10,000 items: flag what is missing to reach them, then write it.
      const byState = reviews.counts(PROFILE, 'pending-transaction');
      const missing = Math.max(0, 10_000 - REPORTED_STATES.reduce((sum, state) => sum + byState[state], 0));
      const fresh = refs.filter((_, index) => index % 100 === 50).slice(0, missing);
      for (let start = 0; start < fresh.length; start += 1000) {
        reviews.give({
          profileId: PROFILE,
          kind: 'pending-transaction',
          refs: fresh.slice(start, start + 1000),
          disposition: 'flagged',
        });
      }
      const reportStarted = performance.now();
      const report = await buildReviewReport(cache, reviews, { profileId: PROFILE, profileName: 'Bench' });
      const html = reportHtml(report);
      const reportMs = performance.now() - reportStarted;
      // The same sealed reads on their own: the reviews (listed, bodies opened) and the cached
      // records of the reported items (found and opened).
      const openingStarted = performance.now();
      let cursor: string | null = null;
      const reportedRefs: string[] = [];
      do {
        const page = reviews.list({ profileId: PROFILE, limit: 1000, cursor });
        for (const row of page.rows) if (REPORTED_STATES.includes(row.state)) reportedRefs.push(row.ref);
        cursor = page.nextCursor;
      } while (cursor !== null);
      for (let start = 0; start < reportedRefs.length; start += 1000) {
        reviews.records.findReviewed(PROFILE, 'pending-transaction', reportedRefs.slice(start, start + 1000));
      }
      const openingMs = performance.now() - openingStarted;
      process.stdout.write(
        `  (report: ${report.items.length.toLocaleString('en-US')} items, ${(html.length / 1e6).toFixed(1)} MB of HTML in ${(reportMs / 1000).toFixed(2)} s; opening the sealed rows alone ${(openingMs / 1000).toFixed(2)} s, ${((openingMs / reportMs) * 100).toFixed(0)}% of it)\n`,
      );
      figures.push({
        name: `auditor's report of ${report.items.length.toLocaleString('en-US')} items, HTML (opening sealed rows alone: ${(openingMs / 1000).toFixed(2)} s, ${((openingMs / reportMs) * 100).toFixed(0)}%)`,
        value: reportMs / 1000,
        unit: 's',
        baseline: { name: 'opening the same sealed rows alone', value: openingMs / 1000 },
        target: '≤ 10 s',
        met: reportMs <= 10_000,
      });
      figures.push({
        name: 'writing 100,000 pending transactions in pages of 1,000 with the counts kept (a statement a page, cache migration 31)',
        value: writeKept,
        unit: 'ms',
        baseline: { name: 'the same pages into a cache without the count triggers left', value: writeBare },
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
