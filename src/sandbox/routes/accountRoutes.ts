/**
 * Accounts (so clients can discover them), their pending transactions (spec §4.1) and their
 * posted transactions (the real service's `GET /account/{id}/transaction`). A page of pending
 * transactions is served from the page cache when it was built before and no write has
 * touched the account since.
 */
import { listQuery, type PendingTransaction } from '../../shared/bank/index.ts';
import { jsonText } from '../http/answer.ts';
import { listBody, pageNextOf } from '../http/listPage.ts';
import { recordOr404, listRecords } from '../http/recordList.ts';
import { originOf, pathParameter, queryOf, queryRecord } from '../http/requestInput.ts';
import type { Router } from '../http/router.ts';
import { decodeCursor, encodeCursor } from '../pendingTransactions/cursor.ts';
import { RequestProblem } from '../requestProblem.ts';
import type { SandboxContext } from '../sandboxContext.ts';
import { microsOfDate } from '../seed/clock.ts';
import { TOTAL_ESTIMATE_MAX } from '../store/records.ts';
import { positionOfTransactionId, transactionIdOf, transactionOf } from '../transactions/transactionRecord.ts';

export function registerAccountRoutes(router: Router, context: SandboxContext): void {
  router.get('/account', (request) => listRecords(context, request, { kind: 'account', path: '/account' }));

  router.get('/account/:account_id', (request) =>
    jsonText(200, recordOr404(context, 'account', pathParameter(request, 'account_id'), 'account')),
  );

  router.get('/account/:account_id/pending_transaction', (request) => {
    const accountId = pathParameter(request, 'account_id');
    // The raw URL names the page exactly (path, query, and the host page_next is built on).
    const cacheKey = `${request.headers.host ?? ''} ${request.url}`;
    const cached = context.pageCache.get(cacheKey);
    if (cached !== undefined) return jsonText(200, cached);

    const query = queryOf(queryRecord(request), listQuery);
    let beforePosition: number | undefined;
    if (query.page_cursor !== undefined) {
      const cursor = decodeCursor(query.page_cursor, accountId, context.cursorKey);
      if (!cursor.ok) throw new RequestProblem(400, `Invalid query: ${cursor.reason}.`);
      beforePosition = cursor.position;
    }
    const page = context.pendingTransactions.page({
      accountId,
      beforePosition,
      pageSize: query.page_size,
      fromMicros: query.from_date === undefined ? undefined : microsOfDate(query.from_date),
      toMicros: query.to_date === undefined ? undefined : microsOfDate(query.to_date),
    });
    // Rows exist only for accounts that exist: look the account up only when the page is empty.
    if (page.bodies.length === 0 && context.records.text('account', accountId) === undefined) {
      throw new RequestProblem(404, `No account with id ${accountId}.`);
    }
    const path = `/account/${encodeURIComponent(accountId)}/pending_transaction`;
    const pageNext = pageNextOf(
      originOf(request, context.baseUrl()),
      path,
      { page_size: query.page_size, from_date: query.from_date, to_date: query.to_date },
      page.nextPosition === null ? null : encodeCursor(accountId, page.nextPosition, context.cursorKey),
    );
    const bytes = Buffer.from(
      listBody(page.bodies, pageNext, Math.min(context.pendingTransactions.count(accountId), TOTAL_ESTIMATE_MAX)),
    );
    context.pageCache.set(accountId, cacheKey, bytes);
    return jsonText(200, bytes);
  });

  router.get('/account/:account_id/transaction', (request) => {
    const accountId = pathParameter(request, 'account_id');
    const query = queryOf(queryRecord(request), listQuery);
    let beforePosition: number | undefined;
    if (query.page_cursor !== undefined) {
      const position = positionOfTransactionId(query.page_cursor, accountId);
      if (position === null) {
        throw new RequestProblem(
          400,
          `Invalid query: page_cursor ${JSON.stringify(query.page_cursor)} names no transaction of account ${accountId}.`,
        );
      }
      beforePosition = position;
    }
    const page = context.pendingTransactions.postedPage({
      accountId,
      beforePosition,
      pageSize: query.page_size,
      fromMicros: query.from_date === undefined ? undefined : microsOfDate(query.from_date),
      toMicros: query.to_date === undefined ? undefined : microsOfDate(query.to_date),
    });
    if (page.rows.length === 0 && context.records.text('account', accountId) === undefined) {
      throw new RequestProblem(404, `No account with id ${accountId}.`);
    }
    const bodies = page.rows.map((row) =>
      JSON.stringify(
        transactionOf(transactionIdOf(accountId, row.position), JSON.parse(row.body) as PendingTransaction),
      ),
    );
    const last = page.rows.at(-1);
    const pageNext = pageNextOf(
      originOf(request, context.baseUrl()),
      `/account/${encodeURIComponent(accountId)}/transaction`,
      { page_size: query.page_size, from_date: query.from_date, to_date: query.to_date },
      page.more && last !== undefined ? transactionIdOf(accountId, last.position) : null,
    );
    // An estimate, as the real service's is: holds are counted too.
    return jsonText(
      200,
      listBody(bodies, pageNext, Math.min(context.pendingTransactions.count(accountId), TOTAL_ESTIMATE_MAX)),
    );
  });
}
