/**
 * OFAC's classic XML (SDN.XML, and consolidated.xml in the same schema, sdnList.xsd): a
 * `publshInformation` (sic) with `Publish_Date` (MM/DD/YYYY) and `Record_Count`, then one
 * `sdnEntry` per listed party: `uid`, `firstName`, `lastName`, `sdnType` (Individual, Entity,
 * Vessel, Aircraft), `programList/program`, `idList/id` (idType, idNumber, idCountry),
 * `akaList/aka` (type a.k.a./f.k.a./n.k.a., category strong/weak, firstName, lastName),
 * `addressList/address` (address1-3, city, stateOrProvince, postalCode, country),
 * `nationalityList/nationality/country`, `citizenshipList/citizenship/country` and
 * `dateOfBirthList/dateOfBirthItem/dateOfBirth`. Read as a stream: one entry is held at a time.
 */
import { ListFileError, listDateOf, type EntryKind, type ListEntry, type EntryName } from '../listEntry.ts';
import { XmlSyntaxError, XmlTokenizer } from '../xmlTokenizer.ts';

const KINDS: Readonly<Record<string, EntryKind>> = {
  individual: 'person',
  entity: 'business',
  vessel: 'vessel',
  aircraft: 'aircraft',
};

const ALIAS_TYPES: Readonly<Record<string, EntryName['type']>> = {
  'a.k.a.': 'aka',
  'f.k.a.': 'fka',
  'n.k.a.': 'nka',
};

/** "LAST, First" as the lists write a person; the last name alone for others. */
function fullNameOf(first: string, last: string): string {
  return first.trim() === '' ? last.trim() : `${last.trim()}, ${first.trim()}`;
}

type Fields = Record<string, string>;

export class SdnXmlParser {
  readonly file: string;
  readonly entries: ListEntry[] = [];
  publishedAt: string | null = null;
  declaredCount: number | null = null;
  readonly #tokenizer: XmlTokenizer;
  readonly #path: string[] = [];
  #text = '';
  #root: string | null = null;
  #entry: { fields: Fields; line: number } | null = null;
  #current: ListEntry | null = null;
  /** The fields of the aka, id, address, nationality or date being read. */
  #part: Fields | null = null;
  /** The line each of the part's fields was read on, for an error about one of them. */
  #partLines: Record<string, number> = {};

  constructor(file: string) {
    this.file = file;
    this.#tokenizer = new XmlTokenizer({
      open: (name) => {
        this.#open(name);
      },
      text: (text) => {
        this.#text += text;
      },
      close: (name) => {
        this.#close(name);
      },
    });
  }

  write(chunk: string): void {
    this.#guard(() => {
      this.#tokenizer.write(chunk);
    });
  }

  end(): void {
    this.#guard(() => {
      this.#tokenizer.end();
    });
    if (this.#root !== 'sdnList') this.#fail({}, `the root element is <${this.#root ?? '?'}>, not <sdnList>`);
    if (this.declaredCount !== null && this.declaredCount !== this.entries.length)
      this.#fail(
        {},
        `Record_Count says ${String(this.declaredCount)} entries but the file holds ${String(this.entries.length)} (a partial file?)`,
      );
  }

  #guard(work: () => void): void {
    try {
      work();
    } catch (error) {
      if (error instanceof XmlSyntaxError)
        throw new ListFileError(
          this.file,
          { line: error.line, column: error.column },
          error.message.replace(/^line \d+, column \d+: /, ''),
        );
      throw error;
    }
  }

  #open(name: string): void {
    if (this.#root === null) {
      this.#root = name;
      if (name !== 'sdnList')
        this.#fail(this.#tokenizer.position, `the root element is <${name}>, not <sdnList> (is this OFAC's SDN.XML?)`);
    }
    this.#path.push(name);
    this.#text = '';
    const parent = this.#path.at(-2);
    if (name === 'sdnEntry') {
      const { line } = this.#tokenizer.position;
      this.#entry = { fields: {}, line };
      this.#current = {
        uid: '',
        kind: 'business',
        names: [],
        datesOfBirth: [],
        nationalities: [],
        addresses: [],
        identifiers: [],
        programs: [],
      };
    } else if (
      this.#current !== null &&
      ((parent === 'akaList' && name === 'aka') ||
        (parent === 'idList' && name === 'id') ||
        (parent === 'addressList' && name === 'address') ||
        (parent === 'nationalityList' && name === 'nationality') ||
        (parent === 'citizenshipList' && name === 'citizenship') ||
        (parent === 'dateOfBirthList' && name === 'dateOfBirthItem'))
    ) {
      this.#part = {};
      this.#partLines = {};
    }
  }

  #close(name: string): void {
    const text = this.#text.trim();
    this.#text = '';
    this.#path.pop();
    const parent = this.#path.at(-1) ?? '';
    const entry = this.#current;
    if (parent === 'publshInformation') {
      if (name === 'Publish_Date') {
        const date = listDateOf(text);
        if (date === null) this.#fail(this.#tokenizer.position, `Publish_Date "${text}" is not a date (MM/DD/YYYY)`);
        this.publishedAt = date;
      } else if (name === 'Record_Count') {
        if (!/^\d+$/.test(text)) this.#fail(this.#tokenizer.position, `Record_Count "${text}" is not a number`);
        this.declaredCount = Number(text);
      }
      return;
    }
    if (entry === null) return;
    const part = this.#part;
    if (part !== null && parent !== 'sdnEntry' && !name.endsWith('List')) {
      if (['aka', 'id', 'address', 'nationality', 'citizenship', 'dateOfBirthItem'].includes(name)) {
        this.#endPart(name, part, entry);
        this.#part = null;
      } else {
        part[name] = text;
        this.#partLines[name] = this.#tokenizer.position.line;
      }
      return;
    }
    if (parent === 'programList' && name === 'program') {
      if (text !== '') entry.programs.push(text);
      return;
    }
    if (parent === 'sdnEntry') {
      if (this.#entry !== null) this.#entry.fields[name] = text;
      return;
    }
    if (name === 'sdnEntry') this.#endEntry(entry);
  }

  #endPart(name: string, part: Fields, entry: ListEntry): void {
    const where = this.#tokenizer.position;
    if (name === 'aka') {
      const full = fullNameOf(part['firstName'] ?? '', part['lastName'] ?? '');
      if (full === '') this.#fail(where, 'an aka without a name');
      const category = (part['category'] ?? 'strong').toLowerCase();
      entry.names.push({
        full,
        type: ALIAS_TYPES[(part['type'] ?? '').toLowerCase()] ?? 'aka',
        weak: category === 'weak',
      });
    } else if (name === 'id') {
      const number = part['idNumber'] ?? '';
      if (number !== '')
        entry.identifiers.push({ type: part['idType'] ?? 'Identifier', number, country: part['idCountry'] ?? null });
    } else if (name === 'address') {
      const full = ['address1', 'address2', 'address3', 'city', 'stateOrProvince', 'postalCode', 'country']
        .map((field) => part[field] ?? '')
        .filter((value) => value !== '')
        .join(', ');
      if (full !== '') entry.addresses.push({ full, country: part['country'] ?? null });
    } else if (name === 'nationality' || name === 'citizenship') {
      const country = part['country'] ?? '';
      if (country !== '' && !entry.nationalities.includes(country)) entry.nationalities.push(country);
    } else {
      const said = part['dateOfBirth'] ?? '';
      const date = listDateOf(said);
      if (date === null)
        this.#fail(
          { line: this.#partLines['dateOfBirth'] ?? where.line, field: 'dateOfBirth' },
          `"${said}" is not a date of birth OFAC writes`,
        );
      entry.datesOfBirth.push(date);
    }
  }

  #endEntry(entry: ListEntry): void {
    const fields = this.#entry?.fields ?? {};
    const line = this.#entry?.line ?? 0;
    const uid = fields['uid'] ?? '';
    if (!/^\d+$/.test(uid)) this.#fail({ line, field: 'uid' }, `an sdnEntry whose uid is "${uid}", not a number`);
    const kind = KINDS[(fields['sdnType'] ?? '').toLowerCase()];
    if (kind === undefined)
      this.#fail(
        { line, field: 'sdnType' },
        `entry ${uid} has sdnType "${fields['sdnType'] ?? ''}" (Individual, Entity, Vessel or Aircraft expected)`,
      );
    const primary = fullNameOf(fields['firstName'] ?? '', fields['lastName'] ?? '');
    if (primary === '') this.#fail({ line, field: 'lastName' }, `entry ${uid} has no name`);
    entry.uid = uid;
    entry.kind = kind;
    entry.names.unshift({ full: primary, type: 'primary', weak: false });
    this.entries.push(entry);
    this.#current = null;
    this.#entry = null;
  }

  #fail(where: { line?: number; column?: number; field?: string }, problem: string): never {
    throw new ListFileError(this.file, where, problem);
  }
}
