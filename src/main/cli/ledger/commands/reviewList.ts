/**
 * `ledger review list`: the officer's queue from the command line, across every account and
 * kind of the profile. `--status` picks a part (unreviewed, changed, flagged — by a person or
 * by a rule —, escalated, cleared); without it, every review, most recently moved first.
 * Filters: --kind, --account, --from/--to and --min-amount/--max-amount (a pending
 * transaction's), --rule (what that watch rule flagged). Each row reads as a person would:
 * account, date and time, amount, what the item is, its review. `--next` continues the list
 * where the last page stopped; `--json` keeps the cursor in its answer.
 */
import type { QueueState } from '../../../../shared/review/queueTerms.ts';
import { centsOfTyped } from '../../../../shared/review/amountInput.ts';
import { formatMoney, itemColumnsOf, itemLine } from '../../../../shared/review/itemColumns.ts';
import { accountLabel, type ItemNames } from '../../../../shared/review/itemNames.ts';
import { ItemNamer } from '../../../services/names/itemNamer.ts';
import type { ReviewKind, ReviewState } from '../../../../shared/review/reviewTerms.ts';
import type { CacheRead } from '../../../services/cache/cacheRead.ts';
import type { LedgerServices } from '../../../services/ledgerServices.ts';
import { ReviewQueue, type QueueFilter, type QueueItem } from '../../../services/review/reviewQueue.ts';
import { checkCachedAccount } from '../cachedAccounts.ts';
import { defined, read, type Values } from '../cliArguments.ts';
import { UsageError } from '../../common/usageError.ts';
import { ago, table } from '../cliOutput.ts';
import { listKey, rememberCursor, rememberedCursor } from '../cursorMemory.ts';
import type { CommandContext } from '../triggerCommand.ts';

const STATUSES = ['unreviewed', 'changed', 'flagged', 'flagged-by-person', 'flagged-by-rule', 'escalated', 'cleared'];

function statusOf(options: Values): QueueState | 'flagged' | undefined {
  const status = read.text(options, 'status');
  if (status === undefined) return undefined;
  if (!STATUSES.includes(status)) throw new UsageError(`--status: must be one of ${STATUSES.join(', ')}`);
  return status as QueueState | 'flagged';
}

/** A money amount typed by a person ("1000", "1,000.50") in whole cents. */
function centsOf(options: Values, option: 'min-amount' | 'max-amount'): number | undefined {
  const text = read.text(options, option);
  if (text === undefined) return undefined;
  const cents = centsOfTyped(text);
  if (cents === null) throw new UsageError(`--${option}: must be an amount such as 1000 or 1,250.00`);
  return cents;
}

/** Every review (or those in one state), most recently moved first, with the queue's filters. */
function everyReview(
  services: LedgerServices,
  filter: QueueFilter,
  state: ReviewState | undefined,
  paging: { limit: number; cursor: string | null },
) {
  const page = services.reviews.list({ ...filter, ...defined({ state }), ...paging });
  return {
    ...page,
    rows: page.rows.map(({ record, accountId, ...review }): QueueItem => ({
      kind: review.kind,
      ref: review.ref,
      accountId,
      state:
        review.state === 'flagged' ? (review.byRule === null ? 'flagged-by-person' : 'flagged-by-rule') : review.state,
      review,
      record,
    })),
  };
}

function whoOf(item: QueueItem): string {
  const review = item.review;
  if (review === null) return '';
  if (review.byRule !== null) return `rule ${review.byRule}`;
  return review.reviewer ?? (review.state === 'changed' ? 'a sync' : '');
}

const STATE_WORDS: Record<QueueState, string> = {
  changed: 'changed',
  'flagged-by-person': 'flagged',
  'flagged-by-rule': 'flagged (rule)',
  escalated: 'escalated',
  unreviewed: 'unreviewed',
  cleared: 'cleared',
};

const KIND_WORDS: Record<ReviewKind, string> = {
  'pending-transaction': 'transaction',
  application: 'application',
  'webhook-send': 'send',
  'screening-hit': 'screening hit',
};

/** The table, names first (issue 38): the account's name, who applied; the ref last. */
function textOf(items: readonly QueueItem[], names: readonly ItemNames[]): string {
  return table(
    ['STATE', 'KIND', 'ACCOUNT', 'DATE', 'TIME (UTC)', 'AMOUNT', 'ITEM', 'BY', 'NOTE', 'REF'],
    items.map((item, index) => {
      const columns = itemColumnsOf(item.kind, item.ref, item.record, names[index]);
      return [
        STATE_WORDS[item.state],
        KIND_WORDS[item.kind],
        // An account the cache has not named yet keeps its id here (a command line copies it).
        (names[index]?.account == null ? null : columns.accountName) ?? item.accountId ?? columns.account ?? '',
        columns.date ?? '',
        columns.at === null ? '' : columns.at.slice(11, 19),
        formatMoney(columns.amount),
        itemLine(item.kind, columns),
        whoOf(item),
        (item.review?.note ?? '').replace(/\s+/g, ' ').slice(0, 40),
        item.ref,
      ];
    }),
  );
}

export async function reviewList(context: CommandContext): Promise<number> {
  const { options } = context.arguments;
  const status = statusOf(options);
  const fromDate = read.date(options, 'from');
  const toDate = read.date(options, 'to');
  if (fromDate !== undefined && toDate !== undefined && toDate <= fromDate) {
    throw new UsageError(`--to (${toDate}) must be after --from (${fromDate}).`);
  }
  const minAmountCents = centsOf(options, 'min-amount');
  const maxAmountCents = centsOf(options, 'max-amount');
  if (minAmountCents !== undefined && maxAmountCents !== undefined && minAmountCents > maxAmountCents) {
    throw new UsageError('--min-amount is larger than --max-amount: swap them.');
  }
  const next = options.next === true;
  if (next && read.text(options, 'cursor') !== undefined) throw new UsageError('--next and --cursor: give one.');
  const services = await context.open();
  const profile = await context.profile(services, false);
  const queue = new ReviewQueue(services.cache, services.reviews);
  const accountId = read.text(options, 'account');
  checkCachedAccount(queue.accounts(profile.id), profile.name, accountId);
  const filter: QueueFilter = {
    profileId: profile.id,
    kind: read.reviewKind(options),
    accountId,
    ruleName: read.text(options, 'rule'),
    itemFrom: fromDate,
    itemTo: toDate,
    minAmountCents,
    maxAmountCents,
  };
  const key = listKey('review list', { profile: profile.id, ...filter, status });
  const cursor = next ? rememberedCursor(context.dataFolder, key) : (read.text(options, 'cursor') ?? null);
  const paging = { limit: read.limit(options) ?? 50, cursor };
  let result: CacheRead<QueueItem>;
  if (status === undefined || status === 'flagged') {
    result = everyReview(services, filter, status, paging);
  } else {
    result = queue.list({ ...filter, state: status, ...paging });
  }
  rememberCursor(context.dataFolder, key, result.nextCursor);
  if (context.arguments.json) {
    context.printJson({ asOf: result.asOf, source: result.source, rows: result.rows, nextCursor: result.nextCursor });
    return 0;
  }
  const accounts = new Set(result.rows.map((row) => row.accountId).filter((id) => id !== null));
  const namer = new ItemNamer(services.cache);
  const part = status === undefined ? 'reviewed' : status === 'flagged' ? 'flagged' : STATE_WORDS[status];
  const where =
    accounts.size > 1
      ? ` across ${String(accounts.size)} accounts`
      : accounts.size === 1
        ? ` of ${accountLabel(namer.accounts(profile.id).get([...accounts][0] ?? ''))}`
        : '';
  const fresh = status === 'unreviewed' ? `, from the offline cache, ${ago(result.asOf)}` : '';
  context.print(
    `${String(result.rows.length)} ${result.rows.length === 1 ? 'item' : 'items'} ${part}${where}${fresh}.`,
  );
  if (result.rows.length > 0) context.print(textOf(result.rows, namer.ofItems(profile.id, result.rows)));
  if (result.nextCursor !== null) context.print('More: run the same command with --next.');
  return 0;
}
