/**
 * OFAC's advanced XML (sdn_advanced.xml, cons_advanced.xml), the UN-designed Sanctions Data
 * Model (OFAC's "SDN Advanced Sanctions Data Model XML Explanatory Notes" and its XSD). Its
 * top-level elements reference each other by ID:
 *
 * - `DateOfIssue` (Year, Month, Day): the publication date;
 * - `ReferenceValueSets`: the vocabularies every ID points into (AliasType A.K.A./F.K.A./N.K.A./
 *   Name, FeatureType Birthdate/Nationality Country/Citizenship Country/Location, NamePartType
 *   Last Name/First Name/…, PartySubType with its PartyType Individual/Entity, Country with
 *   ISO2, IDRegDocType, LocPartType, SanctionsProgram). Names are resolved through them, never
 *   by numbers written here, since OFAC may renumber;
 * - `Locations`: addresses, each with its LocationParts and LocationCountry;
 * - `IDRegDocuments`: identity documents, tied to a party's Identity by IdentityID;
 * - `DistinctParties`: one per listed party (FixedRef: the same uid as SDN.XML), its Profile
 *   with Identity/Alias/DocumentedName/DocumentedNamePart/NamePartValue (each part typed
 *   through the Identity's NamePartGroups; LowQuality="true" marks a weak alias) and Features
 *   (FeatureVersion with a DatePeriod for a birth date, a VersionLocation for a nationality or
 *   an address);
 * - `SanctionsEntries`: which programs list which profile (SanctionsMeasure/Comment).
 *
 * Read as one stream, in the file's order (references come before parties, sanctions after),
 * holding the vocabularies, locations and documents, and the entries being built.
 */
import { ListFileError, type EntryKind, type EntryName, type ListEntry } from '../listEntry.ts';
import { XmlSyntaxError, XmlTokenizer } from '../xmlTokenizer.ts';

type Attributes = Readonly<Record<string, string>>;

interface DateParts {
  year?: string;
  month?: string;
  day?: string;
}

interface LocationInProgress {
  parts: { type: string; value: string }[];
  countryId: string | null;
}

interface PartyInProgress {
  uid: string;
  line: number;
  profileId: string;
  subTypeId: string;
  /** NamePartGroup ID → NamePartType ID, from the identities' NamePartGroups. */
  groups: Map<string, string>;
  identities: string[];
  aliases: { typeId: string; primary: boolean; weak: boolean; names: { groupId: string; value: string }[][] }[];
  features: { typeId: string; dates: { start: DateParts; end: DateParts }[]; locations: string[]; details: string[] }[];
}

/** Reads the vocabularies the parser needs, by the element that holds each value. */
const VOCABULARY_ELEMENTS = new Set([
  'AliasType',
  'Country',
  'FeatureType',
  'IDRegDocType',
  'LocPartType',
  'NamePartType',
  'PartySubType',
  'PartyType',
  'SanctionsProgram',
  'List',
]);

const ALIAS_TYPES: Readonly<Record<string, EntryName['type']>> = {
  'a.k.a.': 'aka',
  'f.k.a.': 'fka',
  'n.k.a.': 'nka',
  name: 'primary',
};

const ADDRESS_PARTS = ['ADDRESS1', 'ADDRESS2', 'ADDRESS3', 'CITY', 'STATE/PROVINCE', 'POSTAL CODE', 'REGION'];

function dateOf(period: { start: DateParts; end: DateParts }): string | null {
  const from = period.start;
  const to = period.end.year === undefined ? period.start : period.end;
  if (from.year === undefined || !/^\d{4}$/.test(from.year)) return null;
  const month = (from.month ?? '').padStart(2, '0');
  const day = (from.day ?? '').padStart(2, '0');
  // A period over a whole year or month is a year or a month of birth.
  if (to.year !== from.year) return from.year;
  if (from.month === undefined || to.month !== from.month) return from.year;
  if (from.day === undefined || to.day !== from.day) return `${from.year}-${month}`;
  return `${from.year}-${month}-${day}`;
}

export class SdnAdvancedXmlParser {
  readonly file: string;
  readonly entries: ListEntry[] = [];
  publishedAt: string | null = null;
  readonly declaredCount = null;
  readonly #tokenizer: XmlTokenizer;
  readonly #path: string[] = [];
  #text = '';
  #root: string | null = null;
  /** Vocabulary element → ID → its text (and ISO2 for a country). */
  readonly #vocabulary = new Map<string, Map<string, string>>();
  readonly #countryIso2 = new Map<string, string>();
  readonly #partyTypeOfSubType = new Map<string, string>();
  #vocabularyId: { element: string; id: string } | null = null;
  readonly #locations = new Map<string, LocationInProgress>();
  #location: { id: string; value: LocationInProgress; partType: string | null } | null = null;
  readonly #documents = new Map<string, { type: string; number: string; country: string | null }[]>();
  #document: { identityId: string; typeId: string; countryId: string | null; number: string } | null = null;
  #issue: DateParts | null = null;
  #party: PartyInProgress | null = null;
  #alias: PartyInProgress['aliases'][number] | null = null;
  #documentedName: { groupId: string; value: string }[] | null = null;
  #namePartGroup: string | null = null;
  #feature: PartyInProgress['features'][number] | null = null;
  #period: { start: DateParts; end: DateParts } | null = null;
  #periodSide: 'start' | 'end' | null = null;
  #dateEdge: 'From' | 'To' | null = null;
  readonly #entryOfProfile = new Map<string, ListEntry>();
  #sanction: { profileId: string } | null = null;

  constructor(file: string) {
    this.file = file;
    this.#tokenizer = new XmlTokenizer({
      open: (name, attributes) => {
        this.#open(name, attributes);
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
    if (this.#root !== 'Sanctions') this.#fail({}, `the root element is <${this.#root ?? '?'}>, not <Sanctions>`);
    if (this.publishedAt === null) this.#fail({}, 'the file has no DateOfIssue');
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

  #where(): { line: number; column: number } {
    return this.#tokenizer.position;
  }

  #need(attributes: Attributes, name: string, element: string): string {
    const value = attributes[name];
    if (value === undefined || value === '') this.#fail(this.#where(), `<${element}> has no ${name}`);
    return value;
  }

  #open(name: string, attributes: Attributes): void {
    if (this.#root === null) {
      this.#root = name;
      if (name !== 'Sanctions')
        this.#fail(this.#where(), `the root element is <${name}>, not <Sanctions> (is this OFAC's sdn_advanced.xml?)`);
    }
    const parent = this.#path.at(-1);
    this.#path.push(name);
    this.#text = '';
    if (name === 'DateOfIssue' && parent === 'Sanctions') this.#issue = {};
    else if (this.#path[1] === 'ReferenceValueSets' && this.#path.length === 4 && VOCABULARY_ELEMENTS.has(name)) {
      const id = this.#need(attributes, 'ID', name);
      this.#vocabularyId = { element: name, id };
      if (name === 'Country' && attributes['ISO2'] !== undefined) this.#countryIso2.set(id, attributes['ISO2']);
      if (name === 'PartySubType' && attributes['PartyTypeID'] !== undefined)
        this.#partyTypeOfSubType.set(id, attributes['PartyTypeID']);
    } else if (name === 'Location' && parent === 'Locations') {
      this.#location = {
        id: this.#need(attributes, 'ID', name),
        value: { parts: [], countryId: null },
        partType: null,
      };
    } else if (this.#location !== null) {
      if (name === 'LocationCountry') this.#location.value.countryId = attributes['CountryID'] ?? null;
      else if (name === 'LocationPart') this.#location.partType = attributes['LocPartTypeID'] ?? null;
    } else if (name === 'IDRegDocument') {
      this.#document = {
        identityId: this.#need(attributes, 'IdentityID', name),
        typeId: attributes['IDRegDocTypeID'] ?? '',
        countryId: attributes['IssuedBy-CountryID'] ?? null,
        number: '',
      };
    } else if (name === 'DistinctParty') {
      this.#party = {
        uid: this.#need(attributes, 'FixedRef', name),
        line: this.#where().line,
        profileId: '',
        subTypeId: '',
        groups: new Map(),
        identities: [],
        aliases: [],
        features: [],
      };
    } else if (this.#party !== null) {
      this.#openInParty(name, attributes, this.#party);
    } else if (name === 'SanctionsEntry') {
      this.#sanction = { profileId: this.#need(attributes, 'ProfileID', name) };
    }
  }

  #openInParty(name: string, attributes: Attributes, party: PartyInProgress): void {
    if (name === 'Profile') {
      party.profileId = this.#need(attributes, 'ID', name);
      party.subTypeId = attributes['PartySubTypeID'] ?? '';
    } else if (name === 'Identity') {
      party.identities.push(this.#need(attributes, 'ID', name));
    } else if (name === 'Alias') {
      this.#alias = {
        typeId: attributes['AliasTypeID'] ?? '',
        primary: attributes['Primary'] === 'true',
        weak: attributes['LowQuality'] === 'true',
        names: [],
      };
      party.aliases.push(this.#alias);
    } else if (name === 'DocumentedName' && this.#alias !== null) {
      this.#documentedName = [];
      this.#alias.names.push(this.#documentedName);
    } else if (name === 'NamePartValue') {
      this.#namePartGroup = attributes['NamePartGroupID'] ?? '';
    } else if (name === 'NamePartGroup') {
      party.groups.set(this.#need(attributes, 'ID', name), attributes['NamePartTypeID'] ?? '');
    } else if (name === 'Feature') {
      this.#feature = { typeId: attributes['FeatureTypeID'] ?? '', dates: [], locations: [], details: [] };
      party.features.push(this.#feature);
    } else if (name === 'DatePeriod' && this.#feature !== null) {
      this.#period = { start: {}, end: {} };
      this.#feature.dates.push(this.#period);
    } else if ((name === 'Start' || name === 'End') && this.#period !== null) {
      this.#periodSide = name === 'Start' ? 'start' : 'end';
    } else if ((name === 'From' || name === 'To') && this.#periodSide !== null) {
      this.#dateEdge = name;
    } else if (name === 'VersionLocation' && this.#feature !== null) {
      const location = attributes['LocationID'];
      if (location !== undefined) this.#feature.locations.push(location);
    }
  }

  #close(name: string): void {
    const text = this.#text.trim();
    this.#text = '';
    this.#path.pop();
    const parent = this.#path.at(-1);
    if (this.#issue !== null) {
      if (name === 'Year' || name === 'Month' || name === 'Day') {
        this.#issue[name === 'Year' ? 'year' : name === 'Month' ? 'month' : 'day'] = text;
      } else if (name === 'DateOfIssue') {
        const { year, month, day } = this.#issue;
        if (year === undefined || month === undefined || day === undefined || !/^\d{4}$/.test(year))
          this.#fail(this.#where(), 'DateOfIssue is not a whole date (Year, Month, Day)');
        this.publishedAt = `${year}-${month.padStart(2, '0')}-${day.padStart(2, '0')}`;
        this.#issue = null;
      }
      return;
    }
    if (this.#vocabularyId !== null && name === this.#vocabularyId.element) {
      let map = this.#vocabulary.get(name);
      if (map === undefined) this.#vocabulary.set(name, (map = new Map<string, string>()));
      map.set(this.#vocabularyId.id, text);
      this.#vocabularyId = null;
      return;
    }
    if (this.#location !== null) {
      if (name === 'Value' && this.#location.partType !== null) {
        const type = this.#term('LocPartType', this.#location.partType);
        if (text !== '') this.#location.value.parts.push({ type, value: text });
      } else if (name === 'Location') {
        this.#locations.set(this.#location.id, this.#location.value);
        this.#location = null;
      }
      return;
    }
    if (this.#document !== null) {
      if (name === 'IDRegistrationNo') this.#document.number = text;
      else if (name === 'IDRegDocument') {
        const document = this.#document;
        if (document.number !== '') {
          let list = this.#documents.get(document.identityId);
          if (list === undefined) this.#documents.set(document.identityId, (list = []));
          list.push({
            type: this.#term('IDRegDocType', document.typeId),
            number: document.number,
            country: document.countryId === null ? null : this.#countryName(document.countryId),
          });
        }
        this.#document = null;
      }
      return;
    }
    if (this.#party !== null) {
      this.#closeInParty(name, text, this.#party);
      return;
    }
    if (this.#sanction !== null) {
      if (name === 'Comment' && parent === 'SanctionsMeasure') {
        const entry = this.#entryOfProfile.get(this.#sanction.profileId);
        if (entry !== undefined && text !== '' && !entry.programs.includes(text)) entry.programs.push(text);
      } else if (name === 'SanctionsEntry') {
        this.#sanction = null;
      }
    }
  }

  #closeInParty(name: string, text: string, party: PartyInProgress): void {
    if (name === 'NamePartValue' && this.#documentedName !== null) {
      if (text !== '') this.#documentedName.push({ groupId: this.#namePartGroup ?? '', value: text });
    } else if (name === 'DocumentedName') {
      this.#documentedName = null;
    } else if (name === 'Alias') {
      this.#alias = null;
    } else if ((name === 'Year' || name === 'Month' || name === 'Day') && this.#period !== null) {
      // The period runs from its Start's From to its End's To (a year of birth: 1 Jan to 31 Dec).
      const part = name === 'Year' ? 'year' : name === 'Month' ? 'month' : 'day';
      if (this.#periodSide === 'start' && this.#dateEdge === 'From') this.#period.start[part] = text;
      else if (this.#periodSide === 'end' && this.#dateEdge === 'To') this.#period.end[part] = text;
    } else if (name === 'From' || name === 'To') {
      this.#dateEdge = null;
    } else if (name === 'Start' || name === 'End') {
      this.#periodSide = null;
    } else if (name === 'DatePeriod') {
      this.#period = null;
    } else if (name === 'VersionDetail' && this.#feature !== null && text !== '') {
      this.#feature.details.push(text);
    } else if (name === 'Feature') {
      this.#feature = null;
    } else if (name === 'DistinctParty') {
      this.#endParty(party);
      this.#party = null;
    }
  }

  #term(vocabulary: string, id: string): string {
    return this.#vocabulary.get(vocabulary)?.get(id) ?? '';
  }

  #countryName(id: string): string {
    return this.#term('Country', id) || (this.#countryIso2.get(id) ?? id);
  }

  #nameOf(parts: { groupId: string; value: string }[], groups: Map<string, string>): string {
    const typed = parts.map((part) => ({
      type: this.#term('NamePartType', groups.get(part.groupId) ?? ''),
      value: part.value,
    }));
    const last = typed.filter((part) => part.type === 'Last Name').map((part) => part.value);
    const others = typed.filter((part) => part.type !== 'Last Name').map((part) => part.value);
    if (last.length === 0 || others.length === 0) return typed.map((part) => part.value).join(' ');
    return `${last.join(' ')}, ${others.join(' ')}`;
  }

  #endParty(party: PartyInProgress): void {
    const where = { line: party.line };
    if (party.profileId === '') this.#fail(where, `DistinctParty ${party.uid} has no Profile`);
    const subType = this.#term('PartySubType', party.subTypeId);
    const partyType = this.#term('PartyType', this.#partyTypeOfSubType.get(party.subTypeId) ?? '');
    let kind: EntryKind;
    if (subType === 'Vessel') kind = 'vessel';
    else if (subType === 'Aircraft') kind = 'aircraft';
    else if (partyType === 'Individual') kind = 'person';
    else if (partyType === 'Entity') kind = 'business';
    else
      this.#fail(
        where,
        `DistinctParty ${party.uid} has PartySubTypeID "${party.subTypeId}", which ReferenceValueSets does not define`,
      );
    const names: EntryName[] = [];
    for (const alias of party.aliases) {
      const aliasType = this.#term('AliasType', alias.typeId).toLowerCase();
      for (const parts of alias.names) {
        const full = this.#nameOf(parts, party.groups);
        if (full === '') continue;
        const type = alias.primary ? 'primary' : (ALIAS_TYPES[aliasType] ?? 'aka');
        if (names.some((name) => name.full === full)) continue;
        names.push({
          full,
          type: type === 'primary' && names.some((name) => name.type === 'primary') ? 'aka' : type,
          weak: alias.weak,
        });
      }
    }
    if (!names.some((name) => name.type === 'primary'))
      this.#fail(where, `DistinctParty ${party.uid} has no primary name (an Alias with Primary="true")`);
    names.sort((a, b) => (a.type === 'primary' ? -1 : 0) - (b.type === 'primary' ? -1 : 0));
    const entry: ListEntry = {
      uid: party.uid,
      kind,
      names,
      datesOfBirth: [],
      nationalities: [],
      addresses: [],
      identifiers: party.identities.flatMap((identity) => this.#documents.get(identity) ?? []),
      programs: [],
    };
    for (const feature of party.features) {
      const type = this.#term('FeatureType', feature.typeId);
      if (type === 'Birthdate') {
        for (const period of feature.dates) {
          const date = dateOf(period);
          if (date === null)
            this.#fail({ ...where, field: 'Birthdate' }, `DistinctParty ${party.uid} has a birth date without a year`);
          if (!entry.datesOfBirth.includes(date)) entry.datesOfBirth.push(date);
        }
      } else if (type === 'Nationality Country' || type === 'Citizenship Country') {
        for (const id of feature.locations) {
          const countryId = this.#locations.get(id)?.countryId;
          const country = countryId === null || countryId === undefined ? null : this.#countryName(countryId);
          if (country !== null && !entry.nationalities.includes(country)) entry.nationalities.push(country);
        }
      } else if (type === 'Location') {
        for (const id of feature.locations) {
          const location = this.#locations.get(id);
          if (location === undefined) continue;
          const country = location.countryId === null ? null : this.#countryName(location.countryId);
          const parts = ADDRESS_PARTS.flatMap((part) =>
            location.parts.filter((p) => p.type === part).map((p) => p.value),
          );
          const full = [...parts, ...(country === null ? [] : [country])].join(', ');
          if (full !== '') entry.addresses.push({ full, country });
        }
      }
    }
    this.entries.push(entry);
    this.#entryOfProfile.set(party.profileId, entry);
  }

  #fail(where: { line?: number; column?: number; field?: string }, problem: string): never {
    throw new ListFileError(this.file, where, problem);
  }
}
