/**
 * `npm run bench -- ruleFlags`: a sync whose watch rule flags 20,000 items
 * (LEDGERDESK_BENCH_RULE_FLAGS=N for another count), with one chained audit entry per item
 * flagged (ruleFlagAudit.ts, what lets verify find a flag row deleted), against the same sync
 * with the rule's summary entry alone (as before; `ruleFlagEntriesAsBefore`). What is
 * timed is the cache's side of a sync: its pages of transactions written, then `afterSync` (the
 * rule's flags, their history and their audit entries, one transaction). Each round syncs a
 * fresh profile in the same cache, the two ways alternating and the order swapped every round,
 * so the growing log and bursts of other processes land on both series.
 * No figure here is asserted by a test: the cost is reported.
 */
import type { PendingTransaction } from '../../src/shared/bank/index.ts';
import { OfflineCache } from '../../src/main/services/cache/offlineCache.ts';
import { Credentials } from '../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { ReviewService } from '../../src/main/services/review/reviewService.ts';
import { ruleFlagEntriesAsBefore } from '../../src/main/services/review/ruleFlagAudit.ts';
import type { BenchFigure, Benchmark } from './benchmark.ts';
import { temporaryFolder } from './sandboxChild.ts';
import { benchTransaction } from './benchTransaction.ts';

const FLAGS = Number(process.env['LEDGERDESK_BENCH_RULE_FLAGS'] ?? 20_000);
const ROUNDS = 5;
const ACCOUNT = 'acct_bench';
const PAGE = 1000;

/** A debit of at least 1.00, so the rule (amount beyond -0.01) flags every one. */
function transactionOf(n: number): PendingTransaction {
  const moment = new Date(Date.UTC(2025, 11, 31) - n * 20_000).toISOString();
  const cents = 100 + ((n * 7919) % 500_000);
  return benchTransaction(ACCOUNT, n, moment, cents);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

interface Timing {
  sync: number;
  afterSync: number;
}

/** One profile's sync: its pages written, then the rule flags every item. */
function syncOnce(cache: OfflineCache, reviews: ReviewService, profileId: string): Timing {
  reviews.saveRule(profileId, { name: 'Every debit', kind: 'pending-transaction', amountBeyond: '-0.01' });
  const started = performance.now();
  const { checkpoint } = cache.checkpoints.begin(
    profileId,
    'pending-transactions',
    'bench',
    '{}',
    new Date().toISOString(),
  );
  for (let start = 0; start < FLAGS; start += PAGE) {
    const page = Array.from({ length: Math.min(PAGE, FLAGS - start) }, (_, index) => transactionOf(start + index));
    cache.transaction(() => cache.pendingTransactions.writePage(profileId, ACCOUNT, page, checkpoint.generation));
  }
  const flagsStarted = performance.now();
  const result = reviews.afterSync(profileId, 'pending-transactions');
  const ended = performance.now();
  const flagged = result.flaggedByRule['Every debit'] ?? 0;
  if (flagged !== FLAGS) throw new Error(`the rule flagged ${String(flagged)} items, not ${String(FLAGS)}`);
  return { sync: ended - started, afterSync: ended - flagsStarted };
}

const benchmark: Benchmark = {
  title: `A sync whose watch rule flags ${FLAGS.toLocaleString('en-US')} items`,
  async run(): Promise<BenchFigure[]> {
    const temp = temporaryFolder('ledgerdesk-bench-rule-flags-');
    const cache = await OfflineCache.open({
      folder: temp.folder,
      credentials: new Credentials(new InMemorySecretStore()),
      writer: 'inline',
    });
    const reviews = new ReviewService({ cache, profileName: () => 'Bench' });
    const perItem: Timing[] = [];
    const summaryOnly: Timing[] = [];
    try {
      let profile = 0;
      const one = (entriesOff: boolean): void => {
        ruleFlagEntriesAsBefore(entriesOff);
        try {
          profile += 1;
          (entriesOff ? summaryOnly : perItem).push(syncOnce(cache, reviews, `bench-${String(profile)}`));
        } finally {
          ruleFlagEntriesAsBefore(false);
        }
      };
      for (let round = 0; round < ROUNDS; round += 1) {
        const order = round % 2 === 0 ? [false, true] : [true, false];
        for (const entriesOff of order) one(entriesOff);
        process.stdout.write(
          `  round ${String(round + 1)}: per item ${perItem.at(-1)?.afterSync.toFixed(0) ?? '?'} ms, summary only ${summaryOnly.at(-1)?.afterSync.toFixed(0) ?? '?'} ms (afterSync)\n`,
        );
      }
    } finally {
      await cache.close();
      temp.remove();
    }
    const syncWith = median(perItem.map((timing) => timing.sync));
    const syncWithout = median(summaryOnly.map((timing) => timing.sync));
    const flagsWith = median(perItem.map((timing) => timing.afterSync));
    const flagsWithout = median(summaryOnly.map((timing) => timing.afterSync));
    return [
      {
        name: `sync of ${FLAGS.toLocaleString('en-US')} transactions, the rule flagging each, one audit entry per item (median of ${String(ROUNDS)})`,
        value: syncWith,
        unit: 'ms',
        baseline: { name: "the same, the rule's summary entry only", value: syncWithout },
      },
      {
        name: `afterSync alone: the rule's ${FLAGS.toLocaleString('en-US')} flags, history and one audit entry per item (median of ${String(ROUNDS)})`,
        value: flagsWith,
        unit: 'ms',
        baseline: { name: "the same, the rule's summary entry only", value: flagsWithout },
      },
      {
        name: 'what one per-item entry adds (difference of the medians above, per item)',
        value: ((flagsWith - flagsWithout) * 1000) / FLAGS,
        unit: 'µs',
      },
    ];
  },
};

export default benchmark;
