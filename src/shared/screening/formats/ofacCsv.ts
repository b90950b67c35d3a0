/**
 * OFAC's CSV set (the "SDN data specification" of its delimited files): three files with no
 * header row, "-0-" for an empty value, each record's fields in a fixed order.
 *
 * - sdn.csv / cons_prim.csv: ent_num, SDN_Name, SDN_Type, Program, Title, Call_Sign,
 *   Vess_type, Tonnage, GRT, Vess_flag, Vess_owner, Remarks (12 fields);
 * - add.csv / cons_add.csv: Ent_num, Add_num, Address, City/State/Province/Postal Code,
 *   Country, Add_remarks (6);
 * - alt.csv / cons_alt.csv: ent_num, alt_num, alt_type (aka, fka, nka), alt_name, alt_remarks (5).
 *
 * SDN_Type is "individual" for a person and empty ("-0-") for an entity. Programs are written
 * "[SDGT] [IFSR]" or "SDGT] [IFSR". What the XML files give as fields, the CSV set keeps in
 * Remarks, as "; "-separated phrases: "DOB 01 Jan 1960", "nationality Cuba", "citizen Cuba",
 * "Passport 123456 (Cuba)", and weak aliases ("a.k.a. 'ABU X'"), which alt.csv does not hold.
 * The set carries no publication date: it is given by whoever imports it (or stays unknown).
 */
import { CsvReader, CsvSyntaxError, type CsvRecord } from '../csvReader.ts';
import { ListFileError, listDateOf, type ListEntry } from '../listEntry.ts';

const NULL_VALUE = '-0-';

const MAIN_FIELDS = [
  'ent_num',
  'SDN_Name',
  'SDN_Type',
  'Program',
  'Title',
  'Call_Sign',
  'Vess_type',
  'Tonnage',
  'GRT',
  'Vess_flag',
  'Vess_owner',
  'Remarks',
] as const;
const ADDRESS_FIELDS = [
  'Ent_num',
  'Add_num',
  'Address',
  'City/State/Province/Postal Code',
  'Country',
  'Add_remarks',
] as const;
const ALIAS_FIELDS = ['ent_num', 'alt_num', 'alt_type', 'alt_name', 'alt_remarks'] as const;

/** Identity documents as Remarks names them (the most common; "IMO" is a vessel's number). */
const IDENTIFIER_TYPES = [
  'Passport',
  'National ID No.',
  'Cedula No.',
  'Tax ID No.',
  'Identification Number',
  'Registration Number',
  'Registration ID',
  'Business Registration Number',
  'Public Registration Number',
  'Company Number',
  'Commercial Registry Number',
  'C.U.R.P.',
  'R.F.C.',
  'RFC',
  'NIT #',
  'SSN',
  "Driver's License No.",
  'D-U-N-S Number',
  'V.A.T. Number',
  'Vessel Registration Identification IMO',
  "Aircraft Manufacturer's Serial Number (MSN)",
];

function valueOf(field: string | undefined): string {
  const value = (field ?? '').trim();
  return value === NULL_VALUE || value === '' ? '' : value;
}

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const IDENTIFIER_PATTERN = new RegExp(
  `^(${IDENTIFIER_TYPES.map(escaped).join('|')})\\s+([^()]+?)(?:\\s+\\(([^)]+)\\))?(?:\\s+(?:issued|expires|Expiration).*)?$`,
);

/** The facts a Remarks field holds, as its "; "-separated phrases say them. */
function remarksOf(text: string): {
  datesOfBirth: string[];
  nationalities: string[];
  identifiers: ListEntry['identifiers'];
  weakAliases: string[];
} {
  const found = {
    datesOfBirth: [] as string[],
    nationalities: [] as string[],
    identifiers: [] as ListEntry['identifiers'],
    weakAliases: [] as string[],
  };
  for (const raw of text.replace(/\.$/, '').split(/;\s*/)) {
    const phrase = raw.trim();
    let match = /^DOB\s+(.+)$/.exec(phrase);
    if (match !== null) {
      const date = listDateOf(match[1] ?? '');
      if (date !== null) found.datesOfBirth.push(date);
      continue;
    }
    match = /^(?:nationality|citizen)\s+(.+)$/i.exec(phrase);
    if (match !== null) {
      const country = (match[1] ?? '').trim();
      if (!found.nationalities.includes(country)) found.nationalities.push(country);
      continue;
    }
    match = /^a\.k\.a\.\s+'(.+)'$/.exec(phrase);
    if (match !== null) {
      found.weakAliases.push(match[1] ?? '');
      continue;
    }
    match = IDENTIFIER_PATTERN.exec(phrase);
    if (match !== null)
      found.identifiers.push({ type: match[1] ?? '', number: (match[2] ?? '').trim(), country: match[3] ?? null });
  }
  return found;
}

function programsOf(text: string): string[] {
  return text
    .split(/[[\]]/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

export type CsvPart = 'main' | 'addresses' | 'aliases';

/**
 * Reads the three files of a set, main file first; each `write(part, …)` streams one file.
 * An address or alias of an entry the main file does not hold is an error naming its line.
 */
export class OfacCsvParser {
  readonly #names: Record<CsvPart, string>;
  readonly #byNumber = new Map<string, ListEntry>();
  readonly entries: ListEntry[] = [];
  readonly #readers: Record<CsvPart, CsvReader>;
  #current: CsvPart = 'main';

  constructor(fileNames: Record<CsvPart, string>) {
    this.#names = fileNames;
    this.#readers = {
      main: new CsvReader((record) => {
        this.#main(record);
      }),
      addresses: new CsvReader((record) => {
        this.#address(record);
      }),
      aliases: new CsvReader((record) => {
        this.#alias(record);
      }),
    };
  }

  write(part: CsvPart, chunk: string): void {
    this.#current = part;
    this.#guard(part, () => {
      this.#readers[part].write(chunk);
    });
  }

  end(part: CsvPart): void {
    this.#current = part;
    this.#guard(part, () => {
      this.#readers[part].end();
    });
    if (part === 'main' && this.entries.length === 0) this.#fail({}, 'the file holds no entry');
  }

  #guard(part: CsvPart, work: () => void): void {
    try {
      work();
    } catch (error) {
      if (error instanceof CsvSyntaxError)
        throw new ListFileError(this.#names[part], { line: error.line }, error.message.replace(/^line \d+: /, ''));
      throw error;
    }
  }

  #fields(record: CsvRecord, names: readonly string[]): string[] {
    if (record.fields.length !== names.length)
      this.#fail(
        { line: record.line },
        `${String(record.fields.length)} fields where ${String(names.length)} are expected (${names.join(', ')}) — a partial or different file?`,
      );
    return record.fields;
  }

  #number(record: CsvRecord, value: string | undefined, field: string): string {
    const number = (value ?? '').trim();
    if (!/^\d+$/.test(number)) this.#fail({ line: record.line, field }, `"${number}" is not an entry number`);
    return number;
  }

  #main(record: CsvRecord): void {
    const fields = this.#fields(record, MAIN_FIELDS);
    const uid = this.#number(record, fields[0], 'ent_num');
    if (this.#byNumber.has(uid)) this.#fail({ line: record.line, field: 'ent_num' }, `entry ${uid} appears twice`);
    const name = valueOf(fields[1]);
    if (name === '') this.#fail({ line: record.line, field: 'SDN_Name' }, `entry ${uid} has no name`);
    const type = valueOf(fields[2]).toLowerCase();
    const kind =
      type === 'individual' ? 'person' : type === 'vessel' ? 'vessel' : type === 'aircraft' ? 'aircraft' : 'business';
    if (type !== '' && !['individual', 'vessel', 'aircraft', 'entity'].includes(type))
      this.#fail(
        { line: record.line, field: 'SDN_Type' },
        `"${valueOf(fields[2])}" is not an SDN_Type (individual, vessel, aircraft or -0-)`,
      );
    const remarks = remarksOf(valueOf(fields[11]));
    const entry: ListEntry = {
      uid,
      kind,
      names: [
        { full: name, type: 'primary', weak: false },
        ...remarks.weakAliases.map((full) => ({ full, type: 'aka' as const, weak: true })),
      ],
      datesOfBirth: remarks.datesOfBirth,
      nationalities: remarks.nationalities,
      addresses: [],
      identifiers: remarks.identifiers,
      programs: programsOf(valueOf(fields[3])),
    };
    this.#byNumber.set(uid, entry);
    this.entries.push(entry);
  }

  #entryFor(record: CsvRecord, value: string | undefined, field: string): ListEntry {
    const uid = this.#number(record, value, field);
    const entry = this.#byNumber.get(uid);
    if (entry === undefined) this.#fail({ line: record.line, field }, `entry ${uid} is not in ${this.#names.main}`);
    return entry;
  }

  #address(record: CsvRecord): void {
    const fields = this.#fields(record, ADDRESS_FIELDS);
    const entry = this.#entryFor(record, fields[0], 'Ent_num');
    const parts = [valueOf(fields[2]), valueOf(fields[3]), valueOf(fields[4])].filter((part) => part !== '');
    if (parts.length > 0) entry.addresses.push({ full: parts.join(', '), country: valueOf(fields[4]) || null });
  }

  #alias(record: CsvRecord): void {
    const fields = this.#fields(record, ALIAS_FIELDS);
    const entry = this.#entryFor(record, fields[0], 'ent_num');
    const full = valueOf(fields[3]);
    if (full === '')
      this.#fail({ line: record.line, field: 'alt_name' }, `an alias of entry ${entry.uid} without a name`);
    const type = valueOf(fields[2]).toLowerCase();
    entry.names.push({ full, type: type === 'fka' ? 'fka' : type === 'nka' ? 'nka' : 'aka', weak: false });
  }

  #fail(where: { line?: number; field?: string }, problem: string): never {
    throw new ListFileError(this.#names[this.#current], where, problem);
  }
}
