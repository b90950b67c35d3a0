/** Documents (spec §2.2, §4.2): created against an existing file; description is deprecated. */
import { documentCreateRequest, timestampOf, type Document } from '../../shared/bank/index.ts';
import { json, jsonText } from '../http/answer.ts';
import { idempotent } from '../http/idempotency.ts';
import { listRecords, recordOr404 } from '../http/recordList.ts';
import { bodyOf, pathParameter } from '../http/requestInput.ts';
import type { Router } from '../http/router.ts';
import { SANDBOX_BANK_ID, SANDBOX_ORGANIZATION_ID } from '../bankIdentity.ts';
import { freshId } from '../random.ts';
import { RequestProblem } from '../requestProblem.ts';
import type { SandboxContext } from '../sandboxContext.ts';
import { inTransaction } from '../store/database.ts';

export function registerDocumentRoutes(router: Router, context: SandboxContext): void {
  router.post('/document', (request) =>
    idempotent(context, request, 'POST /document', () => {
      const create = bodyOf(request, documentCreateRequest);
      if (context.records.text('file', create.file_id) === undefined) {
        throw new RequestProblem(400, `Invalid request body: file_id: no file with id ${create.file_id}.`);
      }
      const now = timestampOf(new Date());
      const document: Document = {
        id: freshId('document'),
        type: create.type,
        name: create.name,
        file_id: create.file_id,
        fields: create.fields,
        bankdata: create.bankdata ?? {},
        userdata: create.userdata ?? {},
        bank_id: SANDBOX_BANK_ID,
        organization_id: SANDBOX_ORGANIZATION_ID,
        description: null,
        created_at: now,
        updated_at: now,
      };
      inTransaction(context.database, () => {
        context.records.insert('document', document.id, document.created_at, document);
        context.events.publish({
          event: 'document.create',
          objectId: document.id,
          objectPath: `/document/${document.id}`,
        });
      });
      return json(200, document);
    }),
  );

  router.get('/document', (request) => listRecords(context, request, { kind: 'document', path: '/document' }));

  router.get('/document/:document_id', (request) =>
    jsonText(200, recordOr404(context, 'document', pathParameter(request, 'document_id'), 'document')),
  );
}
