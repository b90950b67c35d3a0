/**
 * Names first, ids second (issue 38): what a person reads of an item is who or what it is, not
 * the bank's id. The names come from the offline cache beside the bank's record: an account's
 * name and the last four digits of its number (the bank's account list), an application's
 * applicants (the application book: a business's name, a person's name; masked as personal data
 * is masked elsewhere: names are not, the rest never reaches these lines), and an account
 * product's name (the record's product nickname, where the bank still sends one). Where a name
 * is not known, the words say so plainly; an id is never the heading. Shared by the screens,
 * the announcements, the Overview, the report and the command line, so an item reads the same
 * everywhere.
 */

/** An account as the bank lists it, reduced to what names it. */
export interface AccountNaming {
  id: string;
  /** The bank's name of the account ("Card settlement"); null when the bank sent none. */
  name: string | null;
  /** The last four digits of its number; null when it has none. */
  lastFour: string | null;
}

/** An applicant as an application names it: its kind, its roles there, its name if fetched. */
export interface ApplicantNaming {
  kind: 'person' | 'business';
  roles: string[];
  /** A person's first, middle and last name, a business's name or DBA; null until fetched. */
  name: string | null;
}

/** What the cache knows of an item's names, beside its record. */
export interface ItemNames {
  account?: AccountNaming | null;
  /** An application's applicants: the business first, then the people, the primary first. */
  applicants?: ApplicantNaming[] | null;
}

/** How much of an account number a person sees: its last four digits, after two bullets. */
export function lastFourOf(number: string | null | undefined): string | null {
  if (typeof number !== 'string') return null;
  const digits = number.replace(/[^0-9]/g, '');
  return digits.length === 0 ? null : digits.slice(-4);
}

/** "Card settlement ••0880"; "Account ••0880" without a name; plainly unknown when not cached. */
export function accountLabel(account: AccountNaming | null | undefined): string {
  if (account === null || account === undefined) return 'Account not in the cache';
  const four = account.lastFour === null ? '' : ` ••${account.lastFour}`;
  const name = account.name?.trim() ?? '';
  if (name !== '') return `${name}${four}`;
  return four === '' ? 'Unnamed account' : `Account${four}`;
}

/** A role as read: "signer", "primary", "owner". */
function roleWords(roles: readonly string[]): string {
  return roles.map((role) => role.replace(/_/g, ' ')).join(', ');
}

/** "Frances Knuth, signer": an applicant and its roles (as a search says who matched). */
export function applicantWithRoles(applicant: ApplicantNaming): string {
  const name =
    applicant.name ?? (applicant.kind === 'business' ? 'business not fetched yet' : 'person not fetched yet');
  const roles = applicant.kind === 'business' ? '' : roleWords(applicant.roles);
  return roles === '' ? name : `${name}, ${roles}`;
}

/**
 * Who an application is, in a few words: the business's name, else the primary person's (then
 * "and 2 more"); said plainly when the book has not fetched them, or names nobody.
 */
export function applicantsHeading(applicants: readonly ApplicantNaming[] | null | undefined): string {
  if (applicants === null || applicants === undefined) return 'Applicants not synced yet';
  if (applicants.length === 0) return 'No applicant named';
  const business = applicants.find((applicant) => applicant.kind === 'business');
  const people = applicants.filter((applicant) => applicant.kind === 'person');
  const primary = people.find((person) => person.roles.includes('primary')) ?? people[0];
  const lead = business ?? primary;
  if (lead === undefined) return 'No applicant named';
  const leadName = lead.name ?? (lead.kind === 'business' ? 'Business not fetched yet' : 'Applicant not fetched yet');
  const others = applicants.length - 1;
  return others === 0 ? leadName : `${leadName} and ${String(others)} more`;
}

/** `personal_checking` → "Personal checking"; an account product the bank does not name, said so. */
export function productLabel(nickname: string | null | undefined): string {
  if (typeof nickname !== 'string' || nickname.trim() === '') return 'Product not named by the bank';
  const words = nickname.trim().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A code as words: `manual_review` → "manual review", `hold_release` → "hold release". */
export function codeWords(code: string | null | undefined): string {
  return typeof code === 'string' ? code.replace(/_/g, ' ') : '';
}
