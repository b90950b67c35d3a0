/**
 * `ledger review list`: reviewed items (most recently moved first), or with
 * `--status unreviewed --kind K` the items of a kind no one has reviewed yet. Same
 * `{asOf, source, rows, nextCursor}` answer as `ledger list`; each row is
 * `{kind, ref, review, record}`.
 */
import type { ReviewKind } from '../../../../shared/review/reviewTerms.ts';
import type { CacheRead } from '../../cache/cacheRead.ts';
import type { LedgerServices } from '../../ledgerServices.ts';
import type { Review } from '../../review/reviewsTable.ts';
import { defined, read, UsageProblem } from '../cliArguments.ts';
import { ago, table } from '../cliOutput.ts';
import type { CommandContext } from '../triggerCommand.ts';

interface ReviewListRow {
  kind: ReviewKind;
  ref: string;
  review: Review | null;
  record: unknown;
}

function unreviewed(
  services: LedgerServices,
  profileId: string,
  kind: ReviewKind,
  accountId: string | undefined,
  paging: { limit: number; cursor: string | null },
): CacheRead<ReviewListRow> {
  const cache = services.cache;
  if (kind === 'pending-transaction') {
    if (accountId === undefined)
      throw new UsageProblem('Unreviewed pending transactions are listed per account: add --account ID.');
    const page = cache.pendingTransactions.list({ profileId, accountId, review: 'unreviewed', ...paging });
    return { ...page, rows: page.rows.map((row) => ({ kind, ref: row.row_key, review: null, record: row })) };
  }
  if (kind === 'application') {
    const page = cache.accountApplications.list({ profileId, review: 'unreviewed', ...paging });
    return { ...page, rows: page.rows.map((row) => ({ kind, ref: row.id, review: null, record: row })) };
  }
  const page = cache.webhookSends.list({ profileId, review: 'unreviewed', ...paging });
  return { ...page, rows: page.rows.map((row) => ({ kind, ref: row.id, review: null, record: row })) };
}

export async function reviewList(context: CommandContext): Promise<number> {
  const { options } = context.arguments;
  const kind = read.reviewKind(options);
  const status = read.reviewFilter(options, 'status');
  const accountId = read.text(options, 'account');
  const paging = { limit: read.limit(options) ?? 50, cursor: read.text(options, 'cursor') ?? null };
  const services = await context.open();
  const profile = await context.profile(services, false);
  let result: CacheRead<ReviewListRow>;
  if (status === 'unreviewed') {
    if (kind === undefined) throw new UsageProblem('`review list --status unreviewed` needs --kind.');
    result = unreviewed(services, profile.id, kind, accountId, paging);
  } else {
    if (accountId !== undefined)
      throw new UsageProblem('--account is for `--status unreviewed --kind pending-transaction`.');
    const page = services.reviews.list({ profileId: profile.id, ...defined({ kind, state: status }), ...paging });
    result = {
      ...page,
      rows: page.rows.map(({ record, accountId: _accountId, ...review }) => ({
        kind: review.kind,
        ref: review.ref,
        review,
        record,
      })),
    };
  }
  if (context.arguments.json) {
    context.printJson({ asOf: result.asOf, source: result.source, rows: result.rows, nextCursor: result.nextCursor });
    return 0;
  }
  const where = status === 'unreviewed' ? `from the offline cache, ${ago(result.asOf)}` : 'reviewed';
  context.print(`${String(result.rows.length)} ${result.rows.length === 1 ? 'item' : 'items'} ${where}.`);
  if (result.rows.length > 0) {
    context.print(
      table(
        ['KIND', 'REF', 'STATE', 'BY', 'AT', 'NOTE'],
        result.rows.map((row) => [
          row.kind,
          row.ref,
          row.review?.state ?? 'unreviewed',
          row.review === null
            ? ''
            : row.review.byRule === null
              ? (row.review.reviewer ?? '')
              : `rule ${row.review.byRule}`,
          row.review?.updatedAt ?? '',
          (row.review?.note ?? '').replace(/\s+/g, ' ').slice(0, 60),
        ]),
      ),
    );
  }
  if (result.nextCursor !== null) context.print(`More: add --cursor ${result.nextCursor}`);
  return 0;
}
