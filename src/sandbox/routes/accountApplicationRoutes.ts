/** Account applications (spec §2.4, §4.4) and their list with the filterable fields. */
import { accountApplicationFilters } from '../../shared/bank/index.ts';
import { jsonText } from '../http/answer.ts';
import { listRecords, recordOr404 } from '../http/recordList.ts';
import { pathParameter } from '../http/requestInput.ts';
import type { Router } from '../http/router.ts';
import type { SandboxContext } from '../sandboxContext.ts';

const FILTERS = Object.keys(accountApplicationFilters.shape);

export function registerAccountApplicationRoutes(router: Router, context: SandboxContext): void {
  router.get('/apply/account_application', (request) =>
    listRecords(context, request, {
      kind: 'account_application',
      path: '/apply/account_application',
      filters: { schema: accountApplicationFilters, names: FILTERS },
    }),
  );

  router.get('/apply/account_application/:account_application_id', (request) =>
    jsonText(
      200,
      recordOr404(
        context,
        'account_application',
        pathParameter(request, 'account_application_id'),
        'account application',
      ),
    ),
  );
}
