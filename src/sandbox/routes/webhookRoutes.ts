/** Webhooks CRUD (conventions.md "Webhooks"); basic_secret is never served. */
import { webhookCreateRequest, webhookUpdateRequest } from '../../shared/bank/index.ts';
import { json, jsonText, noContent } from '../http/answer.ts';
import { idempotent } from '../http/idempotency.ts';
import { listRecords, recordOr404 } from '../http/recordList.ts';
import { bodyOf, pathParameter } from '../http/requestInput.ts';
import type { Router } from '../http/router.ts';
import { RequestProblem } from '../requestProblem.ts';
import type { SandboxContext } from '../sandboxContext.ts';

export function registerWebhookRoutes(router: Router, context: SandboxContext): void {
  router.post('/webhook', (request) =>
    idempotent(context, request, 'POST /webhook', () => {
      const webhook = context.webhooks.create(bodyOf(request, webhookCreateRequest));
      return json(200, webhook);
    }),
  );

  router.get('/webhook', (request) => listRecords(context, request, { kind: 'webhook', path: '/webhook' }));

  router.get('/webhook/:webhook_id', (request) => {
    const id = pathParameter(request, 'webhook_id');
    return jsonText(200, recordOr404(context, 'webhook', id, 'webhook'));
  });

  router.patch('/webhook/:webhook_id', (request) => {
    const id = pathParameter(request, 'webhook_id');
    const update = bodyOf(request, webhookUpdateRequest);
    const webhook = context.webhooks.update(id, update);
    if (webhook === undefined) throw new RequestProblem(404, `No webhook with id ${id}.`);
    return json(200, webhook);
  });

  router.delete('/webhook/:webhook_id', (request) => {
    const id = pathParameter(request, 'webhook_id');
    if (!context.webhooks.remove(id)) throw new RequestProblem(404, `No webhook with id ${id}.`);
    return noContent();
  });
}
