/** The send history (spec §4.5): every delivery attempt, newest first. */
import { listQuery, webhookSendFilters } from '../../shared/bank/index.ts';
import { json, jsonText } from '../http/answer.ts';
import { listBody, pageNextOf } from '../http/listPage.ts';
import { listQueryOf, originOf, pathParameter, queryRecord } from '../http/requestInput.ts';
import type { Router } from '../http/router.ts';
import { RequestProblem } from '../requestProblem.ts';
import type { SandboxContext } from '../sandboxContext.ts';

const FILTERS = ['object_id', 'webhook_id', 'status'] as const;

export function registerWebhookSendRoutes(router: Router, context: SandboxContext): void {
  router.get('/webhook_send', (request) => {
    const { filters, paging: query } = listQueryOf(queryRecord(request), FILTERS, webhookSendFilters, listQuery);
    let beforeSeq: number | undefined;
    if (query.page_cursor !== undefined) {
      beforeSeq = context.sends.seqOf(query.page_cursor);
      if (beforeSeq === undefined) {
        throw new RequestProblem(
          400,
          `Invalid query: page_cursor ${JSON.stringify(query.page_cursor)} names no webhook send.`,
        );
      }
    }
    const page = context.sends.list({
      objectId: filters.object_id,
      webhookId: filters.webhook_id,
      status: filters.status,
      fromDate: query.from_date,
      toDate: query.to_date,
      beforeSeq,
      pageSize: query.page_size,
    });
    const pageNext = pageNextOf(
      originOf(request, context.baseUrl()),
      '/webhook_send',
      { ...filters, page_size: query.page_size, from_date: query.from_date, to_date: query.to_date },
      page.nextCursor,
    );
    return jsonText(
      200,
      listBody(
        page.sends.map((send) => JSON.stringify(send)),
        pageNext,
        page.totalEstimated,
      ),
    );
  });

  router.get('/webhook_send/:webhook_send_id', (request) => {
    const id = pathParameter(request, 'webhook_send_id');
    const send = context.sends.get(id);
    if (send === undefined) throw new RequestProblem(404, `No webhook send with id ${id}.`);
    return json(200, send);
  });
}
