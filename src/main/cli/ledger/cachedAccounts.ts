/**
 * An `--account` must be one the cache holds pending transactions of: an unknown id is a typo
 * or an account never synced, and saying so (with the accounts that are cached) helps a person
 * more than an empty list or an empty CSV that reads as "nothing pending" (exit 1).
 */

/** The account named on the command line is not one the cache holds. */
export class UnknownAccountProblem extends Error {
  override readonly name = 'UnknownAccountProblem';
}

export function checkCachedAccount(
  cached: readonly string[],
  profileName: string,
  accountId: string | undefined,
): void {
  if (accountId === undefined || cached.includes(accountId)) return;
  throw new UnknownAccountProblem(
    cached.length === 0
      ? `No account of ${profileName} has cached pending transactions, so none is ${accountId}: sync an account first (ledger sync pending-transactions --profile "${profileName}" --account ID).`
      : `No pending transactions of account ${accountId} are cached for ${profileName}. Cached accounts: ${cached.join(', ')}.`,
  );
}
