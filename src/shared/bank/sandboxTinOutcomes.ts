/**
 * How the real service's sandbox decides an account application (docs.treasuryprime.com,
 * "Account Application Testing"): by the first digit of the `tin` of every person application
 * (and, for a business account, of the business application), all the same digit, set before
 * the account application is submitted. `1` approved, `2` manual review, `3` processing,
 * `4` rejected, `5` submitted. The sandbox bank decides the same way, so the scenarios written
 * for the real sandbox run against it too.
 */
export const TIN_OUTCOMES = ['approved', 'manual_review', 'processing', 'rejected', 'submitted'] as const;
export type TinOutcome = (typeof TIN_OUTCOMES)[number];

const DIGIT_OF: Readonly<Record<TinOutcome, string>> = {
  approved: '1',
  manual_review: '2',
  processing: '3',
  rejected: '4',
  submitted: '5',
};

/** A TIN that asks for `outcome`: an SSN (`1xx-xx-xxxx`) for a person, an EIN (`1x-xxxxxxx`) for a business. */
export function tinFor(outcome: TinOutcome, kind: 'person' | 'business', random: () => number = Math.random): string {
  const digits = (count: number): string =>
    Array.from({ length: count }, () => String(Math.floor(random() * 10))).join('');
  const first = DIGIT_OF[outcome];
  return kind === 'person' ? `${first}${digits(2)}-${digits(2)}-${digits(4)}` : `${first}${digits(1)}-${digits(7)}`;
}

/** The outcome the TINs ask for: all present and of the same first digit 1 to 5; null otherwise (left submitted). */
export function outcomeOfTins(tins: readonly (string | null | undefined)[]): TinOutcome | null {
  if (tins.length === 0) return null;
  const firsts = new Set(tins.map((tin) => (tin ?? '').trim().charAt(0)));
  if (firsts.size !== 1) return null;
  const [first] = firsts;
  return TIN_OUTCOMES.find((outcome) => DIGIT_OF[outcome] === first) ?? null;
}
