/**
 * The real sandbox's rule for an account application's outcome (shared/bank/sandboxTinOutcomes.ts):
 * the first digit of every person application's `tin` (and the business application's, for a
 * business account), all the same, decides it. Right after the create is answered (`submitted`,
 * as the real service answers it) the application moves to that outcome through the
 * lifecycle's own steps, each emitting account_application.update (and account.create on
 * approval), as an evaluation would. TINs that disagree, or none, leave it submitted.
 */
import { outcomeOfTins, type AccountApplicationStatus, type TinOutcome } from '../../shared/bank/index.ts';
import type { SandboxContext } from '../sandboxContext.ts';
import { readMeta } from '../store/database.ts';
import { moveAccountApplication } from './accountApplicationLifecycle.ts';

export function tinDigitKey(personApplicationId: string): string {
  return `tin_digit:${personApplicationId}`;
}

/** The moves from submitted to each outcome, along ACCOUNT_APPLICATION_TRANSITIONS. */
const PATHS: Readonly<Record<TinOutcome, readonly AccountApplicationStatus[]>> = {
  approved: ['kyc', 'processing', 'approved'],
  manual_review: ['kyc', 'manual_review'],
  processing: ['kyc', 'processing'],
  rejected: ['kyc', 'rejected'],
  submitted: [],
};

/** The outcome the applicants' TINs ask for, or null. */
export function outcomeOfApplicants(
  context: SandboxContext,
  personApplicationIds: readonly string[],
  businessApplicationId: string | null,
): TinOutcome | null {
  const tins: (string | undefined)[] = personApplicationIds.map((id) => readMeta(context.database, tinDigitKey(id)));
  if (businessApplicationId !== null) {
    const business = context.records.read('business_application', businessApplicationId);
    const tin = business?.['tin'];
    tins.push(typeof tin === 'string' ? tin : undefined);
    const people = business?.['person_applications'];
    if (Array.isArray(people)) {
      for (const person of people) {
        const id = (person as { id?: unknown }).id;
        if (typeof id === 'string') tins.push(readMeta(context.database, tinDigitKey(id)));
      }
    }
  }
  return outcomeOfTins(tins);
}

/** Moves a just-submitted application to the outcome its applicants' TINs ask for. */
export function applyTinOutcome(context: SandboxContext, applicationId: string, outcome: TinOutcome | null): void {
  for (const status of outcome === null ? [] : PATHS[outcome]) moveAccountApplication(context, applicationId, status);
}
