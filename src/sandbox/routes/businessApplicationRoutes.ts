/**
 * Business applications (the real service's `POST /apply/business_application`, its list and
 * fetch; the interface leaves them out): the business a business account application names.
 * The people it names must be person applications of this bank and its documents documents of
 * this bank, else 400 naming the id, in the real service's words
 * (real-wire create_account_application_failure).
 */
import { SANDBOX_BANK_ID } from '../bankIdentity.ts';
import { businessApplicationCreateRequest, timestampOf, type BusinessApplication } from '../../shared/bank/index.ts';
import { json, jsonText } from '../http/answer.ts';
import { idempotent } from '../http/idempotency.ts';
import { listRecords, recordOr404 } from '../http/recordList.ts';
import { bodyOf, pathParameter } from '../http/requestInput.ts';
import type { Router } from '../http/router.ts';
import { freshId } from '../random.ts';
import { RequestProblem } from '../requestProblem.ts';
import type { SandboxContext } from '../sandboxContext.ts';
import type { RecordKind } from '../store/records.ts';
import { inTransaction } from '../store/database.ts';

function businessApplicationPath(id: string): string {
  return `/apply/business_application/${id}`;
}

/** 400 naming the field and id when the bank has no such record (the real service's sentence). */
export function requireRecord(context: SandboxContext, kind: RecordKind, field: string, id: string): void {
  if (context.records.text(kind, id) === undefined) throw new RequestProblem(400, `Invalid id ${field}: ${id}`);
}

export function registerBusinessApplicationRoutes(router: Router, context: SandboxContext): void {
  router.post('/apply/business_application', (request) =>
    idempotent(context, request, 'POST /apply/business_application', () => {
      const create = bodyOf(request, businessApplicationCreateRequest);
      for (const [index, person] of create.person_applications.entries()) {
        requireRecord(context, 'person_application', `person_applications[${String(index)}].id`, person.id);
      }
      for (const [index, documentId] of (create.document_ids ?? []).entries()) {
        requireRecord(context, 'document', `document_ids[${String(index)}]`, documentId);
      }
      const now = timestampOf(new Date());
      const business: BusinessApplication = {
        id: freshId('businessApplication'),
        name: create.name,
        dba: create.dba ?? null,
        description: create.description ?? null,
        established_on: create.established_on,
        incorporation_state: create.incorporation_state,
        legal_structure: create.legal_structure,
        tin: create.tin ?? null,
        identification_number: create.identification_number ?? null,
        identification_number_type: create.identification_number_type ?? null,
        naics: create.naics ?? null,
        naics_description: create.naics_description ?? null,
        phone_number: create.phone_number,
        urls: create.urls ?? [],
        physical_address: create.physical_address,
        mailing_address: create.mailing_address ?? null,
        person_applications: create.person_applications.map((person) => ({
          id: person.id,
          roles: person.roles,
          ownership_percentage: person.ownership_percentage ?? null,
          title: person.title ?? null,
        })),
        document_ids: create.document_ids ?? [],
        bank_id: SANDBOX_BANK_ID,
        bankdata: create.bankdata ?? null,
        userdata: create.userdata ?? null,
        created_at: now,
        updated_at: now,
      };
      inTransaction(context.database, () => {
        context.records.insert('business_application', business.id, business.created_at, business);
        context.events.publish({
          event: 'business_application.create',
          objectId: business.id,
          objectPath: businessApplicationPath(business.id),
        });
      });
      return json(200, business);
    }),
  );

  router.get('/apply/business_application', (request) =>
    listRecords(context, request, { kind: 'business_application', path: '/apply/business_application' }),
  );

  router.get('/apply/business_application/:business_application_id', (request) =>
    jsonText(
      200,
      recordOr404(
        context,
        'business_application',
        pathParameter(request, 'business_application_id'),
        'business application',
      ),
    ),
  );
}
