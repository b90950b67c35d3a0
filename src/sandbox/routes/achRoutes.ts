/** ACH transfers: the objects ach.* notifications point at (fetching by id gives the latest, spec §6.8). */
import { jsonText } from '../http/answer.ts';
import { listRecords, recordOr404 } from '../http/recordList.ts';
import { pathParameter } from '../http/requestInput.ts';
import type { Router } from '../http/router.ts';
import type { SandboxContext } from '../sandboxContext.ts';

export function registerAchRoutes(router: Router, context: SandboxContext): void {
  router.get('/ach', (request) => listRecords(context, request, { kind: 'ach', path: '/ach' }));
  router.get('/ach/:ach_id', (request) =>
    jsonText(200, recordOr404(context, 'ach', pathParameter(request, 'ach_id'), 'ACH')),
  );
}
