/**
 * Account applications move along these transitions (the interface lists the states but not
 * the moves, spec §3.1; the table is ACCOUNT_APPLICATION_TRANSITIONS in src/shared/bank/lifecycles.ts,
 * which the trigger plans with too):
 *
 *   unsubmitted -> submitted | canceled
 *   submitted -> kyc | canceled
 *   kyc -> processing | manual_review | rejected | canceled
 *   processing -> approved | rejected | manual_review
 *   manual_review -> approved | rejected | canceled
 *   approved, rejected, canceled: final
 *
 * Approval opens the account (account_id and account_number set). Every move emits
 * account_application.update; a submission (the simulation standing in for the customer's
 * application flow) emits account_application.create.
 */
import type { Account, AccountApplication, AccountApplicationStatus, OwnershipType } from '../../shared/bank/index.ts';
import { ACCOUNT_APPLICATION_TRANSITIONS, timestampOf } from '../../shared/bank/index.ts';
import { freshId } from '../random.ts';
import { RequestProblem } from '../requestProblem.ts';
import type { SandboxContext } from '../sandboxContext.ts';
import { inTransaction } from '../store/database.ts';
import { accountPath } from './postPendingTransaction.ts';

export function accountApplicationPath(id: string): string {
  return `/apply/account_application/${id}`;
}

function accountNumber(): string {
  return String(100_000_000 + Math.floor(Math.random() * 900_000_000));
}

/** A new application as a customer submits it: `submitted`, no account yet. */
export function submitAccountApplication(context: SandboxContext, ownership: OwnershipType): AccountApplication {
  return inTransaction(context.database, () => {
    const now = timestampOf(new Date());
    const primary = freshId('personApplication');
    const application: AccountApplication = {
      id: freshId('accountApplication'),
      account_id: null,
      account_number: null,
      account_number_reservation_id: null,
      account_product_id: freshId('accountProduct'),
      bankdata: null,
      business_application_id: ownership === 'business' ? freshId('businessApplication') : null,
      deposit_id: freshId('deposit'),
      ownership_type: ownership,
      // Always null for business accounts (spec §2.4).
      person_applications: ownership === 'business' ? null : [{ id: primary, roles: ['owner', 'signer'] }],
      primary_person_application_id: primary,
      product: null,
      status: 'submitted',
      userdata: { submitted_by: 'sandbox simulation' },
      created_at: now,
      updated_at: now,
    };
    context.records.insert('account_application', application.id, application.created_at, application);
    context.events.publish({
      event: 'account_application.create',
      objectId: application.id,
      objectPath: accountApplicationPath(application.id),
    });
    return application;
  });
}

export function moveAccountApplication(
  context: SandboxContext,
  applicationId: string,
  status: AccountApplicationStatus,
): AccountApplication {
  return inTransaction(context.database, () => {
    const application = context.records.read('account_application', applicationId) as AccountApplication | undefined;
    if (application === undefined) throw new RequestProblem(404, `No account application with id ${applicationId}.`);
    const allowed = ACCOUNT_APPLICATION_TRANSITIONS[application.status];
    if (!allowed.includes(status)) {
      throw new RequestProblem(
        409,
        `Account application ${applicationId} is ${application.status} and cannot move to ${status}` +
          (allowed.length === 0 ? ': that status is final.' : `: it can move to ${allowed.join(', ')}.`),
      );
    }
    const now = timestampOf(new Date());
    const moved: AccountApplication = { ...application, status, updated_at: now };
    if (status === 'approved') {
      const account: Account = {
        id: freshId('account'),
        name: application.ownership_type === 'business' ? 'Business checking' : 'Personal checking',
        account_number: accountNumber(),
        status: 'open',
        balance: '0.00',
        available_balance: '0.00',
        currency: 'USD',
        created_at: now,
        updated_at: now,
      };
      context.records.insert('account', account.id, account.created_at, account);
      context.events.publish({ event: 'account.create', objectId: account.id, objectPath: accountPath(account.id) });
      moved.account_id = account.id;
      moved.account_number = account.account_number;
    }
    context.records.replace('account_application', applicationId, moved);
    context.events.publish({
      event: 'account_application.update',
      objectId: applicationId,
      objectPath: accountApplicationPath(applicationId),
    });
    return moved;
  });
}
