/**
 * An OpenSanctions export in the FollowTheMoney entity format: one JSON entity a line
 * (`entities.ftm.json`), each `{id, schema, properties}` with every property a list of strings;
 * `targets.nested.json` is the same with adjacent entities nested in place of their ids.
 *
 * The listed parties are the entities of schema Person, Organization, Company, LegalEntity,
 * Vessel and Airplane (only those marked `"target": true` where the export marks targets):
 * `name`, `alias` (strong), `weakAlias`, `previousName` (f.k.a.), `birthDate`,
 * `nationality`/`citizenship` (country codes), `address`, `idNumber`/`passportNumber`/
 * `registrationNumber`/`taxNumber`/`innCode`/`imoNumber`. A Sanction entity names its party in
 * `entity` and its program in `program` (or `programId`); an Address entity gives `full`, joined
 * by the party's `addressEntity`; a Passport or Identification gives `number` and `country`,
 * joined by its `holder`. The publication date is the latest `last_change` of the file.
 */
import { ListFileError, listDateOf, type EntryKind, type ListEntry } from '../listEntry.ts';

const PARTY_SCHEMATA: Readonly<Record<string, EntryKind>> = {
  Person: 'person',
  Organization: 'business',
  Company: 'business',
  LegalEntity: 'business',
  PublicBody: 'business',
  Vessel: 'vessel',
  Airplane: 'aircraft',
};

const IDENTIFIER_PROPERTIES: Readonly<Record<string, string>> = {
  idNumber: 'National ID No.',
  passportNumber: 'Passport',
  registrationNumber: 'Registration Number',
  taxNumber: 'Tax ID No.',
  innCode: 'INN',
  ogrnCode: 'OGRN',
  imoNumber: 'IMO',
  swiftBic: 'SWIFT/BIC',
};

type Properties = Record<string, unknown[]>;

interface FtmEntity {
  id: string;
  schema: string;
  properties: Properties;
  target?: boolean;
  last_change?: string;
}

function strings(properties: Properties, name: string): string[] {
  const values = properties[name];
  if (!Array.isArray(values)) return [];
  return values
    .filter((value): value is string => typeof value === 'string' && value.trim() !== '')
    .map((value) => value.trim());
}

function nested(properties: Properties, name: string): FtmEntity[] {
  const values = properties[name];
  if (!Array.isArray(values)) return [];
  return values.filter(
    (value): value is FtmEntity =>
      typeof value === 'object' && value !== null && typeof (value as FtmEntity).schema === 'string',
  );
}

function referenced(properties: Properties, name: string): string[] {
  return strings(properties, name);
}

export class FtmJsonParser {
  readonly file: string;
  publishedAt: string | null = null;
  readonly declaredCount = null;
  #pending = '';
  #line = 0;
  readonly #parties: { entity: FtmEntity; line: number }[] = [];
  readonly #programs = new Map<string, string[]>();
  readonly #addresses = new Map<string, string>();
  readonly #documents = new Map<string, ListEntry['identifiers']>();
  #entries: ListEntry[] | null = null;

  constructor(file: string) {
    this.file = file;
  }

  get entries(): ListEntry[] {
    if (this.#entries === null) throw new Error('FtmJsonParser: entries are read after end()');
    return this.#entries;
  }

  write(chunk: string): void {
    const text = this.#pending + chunk;
    const lines = text.split('\n');
    this.#pending = lines.pop() ?? '';
    for (const line of lines) this.#lineOf(line);
  }

  end(): void {
    if (this.#pending !== '') this.#lineOf(this.#pending, true);
    this.#pending = '';
    if (this.#parties.length === 0)
      this.#fail({}, 'the file holds no Person, Organization, Company, LegalEntity, Vessel or Airplane entity');
    this.#entries = this.#parties.map(({ entity }) => this.#entryOf(entity));
  }

  #lineOf(raw: string, last = false): void {
    this.#line += 1;
    const text = raw.replace(/\r$/, '');
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const position = /position (\d+)/.exec(message);
      const column = position === null ? undefined : Number(position[1]) + 1;
      this.#fail(
        { line: this.#line, ...(column === undefined ? {} : { column }) },
        `not a JSON entity (${message})${last ? ' — the last line is cut short (a partial file?)' : ''}`,
      );
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      this.#fail({ line: this.#line }, 'a line that is not a JSON object');
    const entity = value as { id?: unknown; schema?: unknown; properties?: unknown };
    if (typeof entity.id !== 'string' || entity.id === '')
      this.#fail({ line: this.#line, field: 'id' }, 'an entity without an id');
    if (typeof entity.schema !== 'string')
      this.#fail({ line: this.#line, field: 'schema' }, `entity ${entity.id} has no schema`);
    if (typeof entity.properties !== 'object' || entity.properties === null || Array.isArray(entity.properties))
      this.#fail({ line: this.#line, field: 'properties' }, `entity ${entity.id} has no properties object`);
    for (const [name, values] of Object.entries(entity.properties as Record<string, unknown>))
      if (!Array.isArray(values))
        this.#fail(
          { line: this.#line, field: `properties.${name}` },
          `entity ${entity.id}: a property that is not a list`,
        );
    const whole = value as FtmEntity;
    if (typeof whole.last_change === 'string') {
      const date = whole.last_change.slice(0, 10);
      if (listDateOf(date) !== null && (this.publishedAt === null || date > this.publishedAt)) this.publishedAt = date;
    }
    this.#take(whole, this.#line);
  }

  #take(entity: FtmEntity, line: number): void {
    const properties = entity.properties;
    if (entity.schema === 'Sanction') {
      const programs = [...strings(properties, 'program'), ...strings(properties, 'programId')].slice(0, 1);
      for (const target of referenced(properties, 'entity')) {
        const list = this.#programs.get(target) ?? [];
        for (const program of programs.length > 0 ? programs : strings(properties, 'authority'))
          if (!list.includes(program)) list.push(program);
        this.#programs.set(target, list);
      }
    } else if (entity.schema === 'Address') {
      const full = strings(properties, 'full')[0];
      if (full !== undefined) this.#addresses.set(entity.id, full);
    } else if (entity.schema === 'Passport' || entity.schema === 'Identification') {
      for (const holder of referenced(properties, 'holder')) {
        const list = this.#documents.get(holder) ?? [];
        for (const number of strings(properties, 'number'))
          list.push({
            type: entity.schema === 'Passport' ? 'Passport' : (strings(properties, 'type')[0] ?? 'Identification'),
            number,
            country: strings(properties, 'country')[0] ?? null,
          });
        this.#documents.set(holder, list);
      }
    } else if (PARTY_SCHEMATA[entity.schema] !== undefined && entity.target !== false) {
      if (strings(properties, 'name').length === 0)
        this.#fail({ line, field: 'properties.name' }, `${entity.schema} ${entity.id} has no name`);
      this.#parties.push({ entity, line });
      // targets.nested.json: the sanctions, addresses and documents inside the party.
      for (const sanction of nested(properties, 'sanctions'))
        this.#take({ ...sanction, properties: { ...sanction.properties, entity: [entity.id] } }, line);
      for (const document of [...nested(properties, 'identification'), ...nested(properties, 'passport')])
        this.#take({ ...document, properties: { ...document.properties, holder: [entity.id] } }, line);
    }
  }

  #entryOf(entity: FtmEntity): ListEntry {
    const properties = entity.properties;
    const names = [
      ...strings(properties, 'name').map((full, index) => ({
        full,
        type: index === 0 ? ('primary' as const) : ('aka' as const),
        weak: false,
      })),
      ...strings(properties, 'alias').map((full) => ({ full, type: 'aka' as const, weak: false })),
      ...strings(properties, 'previousName').map((full) => ({ full, type: 'fka' as const, weak: false })),
      ...strings(properties, 'weakAlias').map((full) => ({ full, type: 'aka' as const, weak: true })),
    ].filter((name, index, all) => all.findIndex((other) => other.full === name.full) === index);
    const addresses = [
      ...strings(properties, 'address'),
      ...referenced(properties, 'addressEntity')
        .map((id) => this.#addresses.get(id))
        .filter((full): full is string => full !== undefined),
      ...nested(properties, 'addressEntity').flatMap((address) => strings(address.properties, 'full')),
    ];
    const identifiers: ListEntry['identifiers'] = [
      ...Object.entries(IDENTIFIER_PROPERTIES).flatMap(([property, type]) =>
        strings(properties, property).map((number) => ({ type, number, country: null })),
      ),
      ...(this.#documents.get(entity.id) ?? []),
    ];
    return {
      uid: entity.id,
      kind: PARTY_SCHEMATA[entity.schema] ?? 'business',
      names,
      datesOfBirth: strings(properties, 'birthDate').map((date) => listDateOf(date.slice(0, 10)) ?? date.slice(0, 4)),
      nationalities: [...new Set([...strings(properties, 'nationality'), ...strings(properties, 'citizenship')])],
      addresses: [...new Set(addresses)].map((full) => ({ full, country: strings(properties, 'country')[0] ?? null })),
      identifiers: identifiers.filter(
        (id, index, all) => all.findIndex((other) => other.number === id.number && other.type === id.type) === index,
      ),
      programs: this.#programs.get(entity.id) ?? [],
    };
  }

  #fail(where: { line?: number; column?: number; field?: string }, problem: string): never {
    throw new ListFileError(this.file, where, problem);
  }
}
