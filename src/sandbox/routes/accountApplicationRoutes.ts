/**
 * Account applications (spec §2.4, §4.4), their list with the filterable fields, and their
 * creation (`POST /apply/account_application`: the real service's, real-wire
 * create_account_application_*; the interface leaves it out). A new application is
 * `submitted`, for a primary person application that exists.
 */
import {
  accountApplicationCreateWithNickname,
  accountApplicationFilters,
  timestampOf,
  type AccountApplication,
} from '../../shared/bank/index.ts';
import { accountProductIdOf } from '../accountProducts.ts';
import { json, jsonText } from '../http/answer.ts';
import { idempotent } from '../http/idempotency.ts';
import { listRecords, recordOr404 } from '../http/recordList.ts';
import { bodyOf, pathParameter } from '../http/requestInput.ts';
import type { Router } from '../http/router.ts';
import { freshId } from '../random.ts';
import { RequestProblem } from '../requestProblem.ts';
import type { SandboxContext } from '../sandboxContext.ts';
import { accountApplicationPath } from '../simulations/accountApplicationLifecycle.ts';
import { inTransaction } from '../store/database.ts';
import { applyTinOutcome, outcomeOfApplicants } from '../simulations/tinOutcome.ts';

const FILTERS = Object.keys(accountApplicationFilters.shape);

function requireApplicant(context: SandboxContext, field: string, id: string): void {
  if (context.records.text('person_application', id) === undefined) {
    // The real service's own sentence (real-wire create_account_application_failure).
    throw new RequestProblem(400, `Invalid id ${field}: ${id}`);
  }
}

export function registerAccountApplicationRoutes(router: Router, context: SandboxContext): void {
  router.post('/apply/account_application', (request) =>
    idempotent(context, request, 'POST /apply/account_application', () => {
      const create = bodyOf(request, accountApplicationCreateWithNickname);
      if (context.lean && create.product !== undefined) {
        throw new RequestProblem(400, 'Invalid request body: product: is no longer accepted: send account_product_id.');
      }
      requireApplicant(context, 'primary_person_application_id', create.primary_person_application_id);
      for (const [index, person] of (create.person_applications ?? []).entries()) {
        requireApplicant(context, `person_applications[${String(index)}].id`, person.id);
      }
      const business = create.business_application_id !== undefined && create.business_application_id !== null;
      const primary = create.primary_person_application_id;
      const now = timestampOf(new Date());
      const application: AccountApplication = {
        id: freshId('accountApplication'),
        account_id: null,
        account_number: null,
        account_number_reservation_id: create.account_number_reservation_id ?? null,
        account_product_id: create.account_product_id ?? accountProductIdOf(create.product ?? 'personal_checking'),
        bankdata: create.bankdata ?? null,
        business_application_id: create.business_application_id ?? null,
        deposit_id: create.deposit_id ?? freshId('deposit'),
        ownership_type: business ? 'business' : 'personal',
        // Always null for business accounts (spec §2.4).
        person_applications: business
          ? null
          : (create.person_applications ?? [{ id: primary, roles: ['owner', 'signer'] }]),
        primary_person_application_id: primary,
        product: create.product ?? null,
        status: 'submitted',
        userdata: create.userdata ?? null,
        created_at: now,
        updated_at: now,
      };
      const people = [
        ...new Set([primary, ...(business ? [] : (create.person_applications ?? []).map((person) => person.id))]),
      ];
      inTransaction(context.database, () => {
        context.records.insert('account_application', application.id, application.created_at, application);
        context.events.publish({
          event: 'account_application.create',
          objectId: application.id,
          objectPath: accountApplicationPath(application.id),
        });
        // As the real sandbox decides: by the first digit of the applicants' TINs (answered submitted first).
        applyTinOutcome(
          context,
          application.id,
          outcomeOfApplicants(context, people, application.business_application_id),
        );
      });
      return json(200, application);
    }),
  );

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
