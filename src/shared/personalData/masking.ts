/**
 * Personal data of applicants, masked until revealed (issue 24): date of birth, tax ids, phone,
 * email and street lines. One implementation for every surface (screen, CLI, exports,
 * reports), so a field masked in one place is masked the same way in all of them.
 *
 * What stays visible is what an officer needs to tell two records apart without reading
 * them: the year of birth, the last four digits of a number, the first letter and the domain
 * of an email. Street lines show nothing. Names, cities, states and citizenship are not masked:
 * they are how an applicant is found and reviewed.
 */

const MASK = '•';

/** The fields masked by default, as paths into a person or business application record. */
export const PERSONAL_FIELDS = [
  'date_of_birth',
  'tin',
  'ssn',
  'identification_number',
  'phone_number',
  'email_address',
  'physical_address.street_line_1',
  'physical_address.street_line_2',
  'mailing_address.street_line_1',
  'mailing_address.street_line_2',
] as const;
export type PersonalField = (typeof PERSONAL_FIELDS)[number];

/** `1997-05-18` → `•••• 1997`: the year only. */
export function maskDateOfBirth(value: string): string {
  const year = /^([0-9]{4})-/.exec(value)?.[1];
  return year === undefined ? MASK.repeat(4) : `${MASK.repeat(4)} ${year}`;
}

/** Every digit but the last four hidden, separators kept: `123-45-6789` → `•••-••-6789`. */
export function maskDigits(value: string): string {
  // Tax ids and phone numbers are ASCII: code points are the characters.
  const characters = Array.from(value);
  const digits = characters.filter((character) => /[0-9]/.test(character)).length;
  let seen = 0;
  return characters
    .map((character) => {
      if (!/[0-9]/.test(character)) return /[A-Za-z]/.test(character) ? MASK : character;
      seen += 1;
      return seen > digits - 4 ? character : MASK;
    })
    .join('');
}

/** `ada.lovelace@example.com` → `a•••@example.com`. */
export function maskEmail(value: string): string {
  const at = value.lastIndexOf('@');
  if (at <= 0) return MASK.repeat(6);
  return `${value.slice(0, 1)}${MASK.repeat(3)}${value.slice(at)}`;
}

/** A street line shows nothing of itself. */
function maskStreet(): string {
  return MASK.repeat(6);
}

/** The masked form of one personal field's value (non-text values are hidden whole). */
function maskValue(field: PersonalField, value: unknown): string {
  if (typeof value !== 'string') return MASK.repeat(6);
  switch (field) {
    case 'date_of_birth':
      return maskDateOfBirth(value);
    case 'email_address':
      return maskEmail(value);
    case 'tin':
    case 'ssn':
    case 'identification_number':
    case 'phone_number':
      return maskDigits(value);
    default:
      return maskStreet();
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A copy of an applicant record with every personal field masked, except those revealed.
 * Fields the record does not carry (or carries as null) stay as they are: there is nothing to hide.
 */
export function maskApplicantRecord(
  record: Readonly<Record<string, unknown>>,
  revealed: ReadonlySet<string> = new Set(),
): Record<string, unknown> {
  const masked: Record<string, unknown> = { ...record };
  for (const field of PERSONAL_FIELDS) {
    if (revealed.has(field)) continue;
    const [head, tail] = field.split('.') as [string, string | undefined];
    if (tail === undefined) {
      const value = masked[head];
      if (value !== undefined && value !== null) masked[head] = maskValue(field, value);
      continue;
    }
    const parent = masked[head];
    if (!isObject(parent)) continue;
    const value = parent[tail];
    if (value === undefined || value === null) continue;
    masked[head] = { ...parent, [tail]: maskValue(field, value) };
  }
  return masked;
}

/** Age in whole years on `today` (YYYY-MM-DD) of someone born on `dateOfBirth`; null if either is not a date. */
export function ageOn(dateOfBirth: string, today: string): number | null {
  const born = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(dateOfBirth);
  const now = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(today);
  if (born === null || now === null) return null;
  const [, by, bm, bd] = born.map(Number) as [number, number, number, number];
  const [, ny, nm, nd] = now.map(Number) as [number, number, number, number];
  let age = ny - by;
  if (nm < bm || (nm === bm && nd < bd)) age -= 1;
  return age;
}
