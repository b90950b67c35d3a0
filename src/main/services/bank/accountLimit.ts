/**
 * A 429 is usually "slow down": the client waits as long as Retry-After says and tries again.
 * The real service also answers 429 when an account limit is exceeded (a daily ACH limit, a
 * transfer limit), which no wait within this session fixes: such a 429, whose `{error}`
 * sentence names a limit and is not about the rate of requests, is reported as that limit, in
 * the bank's own words, and never retried.
 */

/** Words of a rate limit, which waiting does fix. */
const ABOUT_THE_RATE =
  /\b(rate[ -]?limit|too many requests|requests? (per|a|each) (second|minute)|slow down|try again in)\b/i;
/** Words of a limit that is exceeded. */
const NAMES_A_LIMIT = /\blimits?\b/i;

export function accountLimitOf(serverMessage: string | null): { message: string; remedy: string } | null {
  if (serverMessage === null || !NAMES_A_LIMIT.test(serverMessage) || ABOUT_THE_RATE.test(serverMessage)) return null;
  const sentence = serverMessage.trim().replace(/[.\s]+$/, '');
  return {
    message: `The bank refused: ${sentence}.`,
    remedy:
      'This is a limit of the account, not of the rate of requests: trying again soon will not help. Wait until the limit resets, or ask the bank to raise it.',
  };
}
