/**
 * A sanctions list as Ledgerdesk keeps it, whatever file it came from (OFAC's SDN.XML, its
 * advanced XML, its CSV set, or an OpenSanctions FollowTheMoney export): entries with their
 * names and the facts that tell two people of one name apart, and the version's publication
 * date and digest. Every value is as the list published it (the list is public data); only
 * dates are put in one form (YYYY, YYYY-MM or YYYY-MM-DD, as precise as the list was).
 */

export type ListSource = 'ofac-sdn' | 'ofac-consolidated' | 'opensanctions';
export type ListFormat = 'ofac-xml' | 'ofac-advanced-xml' | 'ofac-csv' | 'ftm-json';

/** What a listed party is. OFAC's "Individual" is a person; "Entity" a business or other body. */
export type EntryKind = 'person' | 'business' | 'vessel' | 'aircraft';

/**
 * One name of an entry. The list's own name is `primary`; others are a.k.a. (also known as),
 * f.k.a. (formerly) or n.k.a. (now). OFAC marks each alias strong or weak: a weak one ("low
 * quality": a nickname, a short or common form) alone is not enough to find someone by.
 */
export interface EntryName {
  full: string;
  type: 'primary' | 'aka' | 'fka' | 'nka';
  weak: boolean;
}

interface EntryAddress {
  /** The address as one line, as the list gives its parts. */
  full: string;
  country: string | null;
}

interface EntryIdentifier {
  /** As the list names it: "Passport", "National ID No.", "Tax ID No.", "Registration Number"… */
  type: string;
  number: string;
  country: string | null;
}

export interface ListEntry {
  /** The list's own id of the entry (OFAC's uid / ent_num / FixedRef, an FtM entity id). */
  uid: string;
  kind: EntryKind;
  names: EntryName[];
  /** YYYY, YYYY-MM or YYYY-MM-DD. */
  datesOfBirth: string[];
  /** Countries of nationality or citizenship, as named by the list (a name or an ISO code). */
  nationalities: string[];
  addresses: EntryAddress[];
  identifiers: EntryIdentifier[];
  programs: string[];
}

export interface ParsedList {
  source: ListSource;
  format: ListFormat;
  /** YYYY-MM-DD; null when the file does not say (the CSV set has no date in it). */
  publishedAt: string | null;
  /** SHA-256 of the file's bytes (of each file of a CSV set, in a fixed order), hex. */
  digest: string;
  /** The number of entries the file says it holds, where it says (SDN.XML's Record_Count). */
  declaredCount: number | null;
  entries: ListEntry[];
}

/** A problem with a list file: where (file, line, column or field) and what. Nothing is imported. */
export class ListFileError extends Error {
  readonly file: string;
  readonly line: number | null;
  readonly column: number | null;
  readonly field: string | null;
  constructor(file: string, where: { line?: number; column?: number; field?: string }, problem: string) {
    const parts = [
      where.line === undefined ? null : `line ${String(where.line)}`,
      where.column === undefined ? null : `column ${String(where.column)}`,
      where.field === undefined ? null : `field ${where.field}`,
    ].filter((part): part is string => part !== null);
    super(`${file}${parts.length === 0 ? '' : `, ${parts.join(', ')}`}: ${problem}. Nothing was imported.`);
    this.name = 'ListFileError';
    this.file = file;
    this.line = where.line ?? null;
    this.column = where.column ?? null;
    this.field = where.field ?? null;
  }
}

const MONTHS: Readonly<Record<string, string>> = {
  jan: '01',
  feb: '02',
  mar: '03',
  apr: '04',
  may: '05',
  jun: '06',
  jul: '07',
  aug: '08',
  sep: '09',
  oct: '10',
  nov: '11',
  dec: '12',
};

/**
 * A date as OFAC writes it ("01 Jan 1960", "Jan 1960", "1960", "circa 1960", "1960 to 1962",
 * "12/31/2024") in the form YYYY[-MM[-DD]]; a range gives its first year. null when unreadable.
 */
export function listDateOf(text: string): string | null {
  const value = text.trim().replace(/^circa\s+/i, '');
  let match = /^(\d{1,2}) ([A-Za-z]{3})[a-z]* (\d{4})$/.exec(value);
  if (match !== null) {
    const month = MONTHS[(match[2] ?? '').toLowerCase()];
    return month === undefined ? null : `${match[3] ?? ''}-${month}-${(match[1] ?? '').padStart(2, '0')}`;
  }
  match = /^([A-Za-z]{3})[a-z]* (\d{4})$/.exec(value);
  if (match !== null) {
    const month = MONTHS[(match[1] ?? '').toLowerCase()];
    return month === undefined ? null : `${match[2] ?? ''}-${month}`;
  }
  match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(value);
  if (match !== null) return `${match[3] ?? ''}-${match[1] ?? ''}-${match[2] ?? ''}`;
  match = /^(\d{4})(-\d{2}(-\d{2})?)?(\s+to\s+\d{4})?$/.exec(value);
  if (match !== null) return `${match[1] ?? ''}${match[2] ?? ''}`;
  return null;
}
