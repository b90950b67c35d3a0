/**
 * Person applications (the real service's `POST /apply/person_application`; the interface
 * leaves them out): the applicants account applications name. The bank, not the request's
 * schema, applies the age rule, as the real service does (real-wire
 * create_person_application_failure: a date of birth 130 years ago or more is a 400).
 */
import { personApplicationCreateRequest, timestampOf, type PersonApplication } from '../../shared/bank/index.ts';
import { json, jsonText } from '../http/answer.ts';
import { idempotent } from '../http/idempotency.ts';
import { listRecords, recordOr404 } from '../http/recordList.ts';
import { bodyOf, pathParameter } from '../http/requestInput.ts';
import { requireRecord } from './businessApplicationRoutes.ts';
import type { Router } from '../http/router.ts';
import { freshId } from '../random.ts';
import { RequestProblem } from '../requestProblem.ts';
import type { SandboxContext } from '../sandboxContext.ts';
import { inTransaction } from '../store/database.ts';

/** The real service's limit, in its words. */
const MAX_AGE_YEARS = 130;

export function personApplicationPath(id: string): string {
  return `/apply/person_application/${id}`;
}

/** Whether a person born on `dateOfBirth` (YYYY-MM-DD) is under the age limit on `today`, and born already. */
function ageProblemOf(dateOfBirth: string, today: Date): string | null {
  const limit = new Date(today);
  limit.setUTCFullYear(limit.getUTCFullYear() - MAX_AGE_YEARS);
  if (dateOfBirth <= limit.toISOString().slice(0, 10)) {
    return `Invalid date of birth: must be less than ${String(MAX_AGE_YEARS)} years of age. date_of_birth: ${dateOfBirth}`;
  }
  if (dateOfBirth > today.toISOString().slice(0, 10)) {
    return `Invalid date of birth: must not be in the future. date_of_birth: ${dateOfBirth}`;
  }
  return null;
}

export function registerPersonApplicationRoutes(router: Router, context: SandboxContext): void {
  router.post('/apply/person_application', (request) =>
    idempotent(context, request, 'POST /apply/person_application', () => {
      const create = bodyOf(request, personApplicationCreateRequest);
      const now = new Date();
      const problem = ageProblemOf(create.date_of_birth, now);
      if (problem !== null) throw new RequestProblem(400, problem);
      for (const [index, documentId] of (create.document_ids ?? []).entries()) {
        requireRecord(context, 'document', `document_ids[${String(index)}]`, documentId);
      }
      const created = timestampOf(now);
      const person: PersonApplication = {
        id: freshId('personApplication'),
        first_name: create.first_name,
        middle_name: create.middle_name ?? null,
        last_name: create.last_name,
        date_of_birth: create.date_of_birth,
        email_address: create.email_address,
        phone_number: create.phone_number,
        citizenship: create.citizenship,
        physical_address: create.physical_address,
        mailing_address: create.mailing_address ?? null,
        document_ids: create.document_ids ?? [],
        userdata: create.userdata ?? null,
        bankdata: create.bankdata ?? null,
        created_at: created,
        updated_at: created,
      };
      inTransaction(context.database, () => {
        context.records.insert('person_application', person.id, person.created_at, person);
        context.events.publish({
          event: 'person_application.create',
          objectId: person.id,
          objectPath: personApplicationPath(person.id),
        });
      });
      return json(200, person);
    }),
  );

  router.get('/apply/person_application', (request) =>
    listRecords(context, request, { kind: 'person_application', path: '/apply/person_application' }),
  );

  router.get('/apply/person_application/:person_application_id', (request) =>
    jsonText(
      200,
      recordOr404(context, 'person_application', pathParameter(request, 'person_application_id'), 'person application'),
    ),
  );
}
