/**
 * Reading a sanctions list from files the user chose: streamed in 64 KB chunks (the advanced
 * XML is ~100 MB), decoded as UTF-8 (a byte that is not UTF-8 is an error naming its line),
 * hashed with SHA-256 as it is read, and parsed by the format's parser (src/shared/screening/
 * formats). The format is told by the file itself: an XML file by its root element (sdnList:
 * SDN.XML or consolidated.xml; Sanctions: the advanced XML), a file starting with "{" is a
 * FollowTheMoney export; OFAC's CSV set is three files, told apart by their names (sdn.csv,
 * add.csv, alt.csv or cons_prim.csv, cons_add.csv, cons_alt.csv).
 *
 * Any problem is a ListFileError naming the file, the line and the column or field; nothing
 * is returned then, so nothing half-read is ever stored.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { FtmJsonParser } from '../../../shared/screening/formats/ftmJson.ts';
import { OfacCsvParser, type CsvPart } from '../../../shared/screening/formats/ofacCsv.ts';
import { SdnAdvancedXmlParser } from '../../../shared/screening/formats/sdnAdvancedXml.ts';
import { SdnXmlParser } from '../../../shared/screening/formats/sdnXml.ts';
import {
  ListFileError,
  type ListFormat,
  type ListSource,
  type ParsedList,
} from '../../../shared/screening/listEntry.ts';

const CHUNK_BYTES = 64 * 1024;

export interface ListReadOptions {
  /** Which list this is; by default told from the file names (cons… is the Consolidated list). */
  source?: ListSource;
  /** YYYY-MM-DD, for a CSV set (which carries no date); overrides nothing a file says. */
  publishedAt?: string;
}

interface StreamParser {
  write(chunk: string): void;
}

/** Streams a file's text into `parser`; resolves with the SHA-256 of its bytes. */
async function streamFile(path: string, parser: StreamParser): Promise<string> {
  const name = basename(path);
  const hash = createHash('sha256');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let lines = 1;
  const decode = (bytes: Uint8Array | undefined, final: boolean): string => {
    try {
      return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: !final });
    } catch {
      throw new ListFileError(name, { line: lines }, 'the file is not UTF-8 text');
    }
  };
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES })) {
      const bytes = chunk as Buffer;
      hash.update(bytes);
      const text = decode(bytes, false);
      parser.write(text);
      for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines += 1;
    }
  } catch (error) {
    if (error instanceof ListFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new ListFileError(
      name,
      {},
      code === 'ENOENT' ? 'there is no such file' : `the file cannot be read (${code ?? String(error)})`,
    );
  }
  parser.write(decode(undefined, true));
  return hash.digest('hex');
}

async function firstTextOf(path: string): Promise<string> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ListFileError(
      basename(path),
      {},
      code === 'ENOENT' ? 'there is no such file' : `the file cannot be read (${code ?? String(error)})`,
    );
  }
  try {
    const buffer = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer
      .subarray(0, bytesRead)
      .toString('utf8')
      .replace(/^\uFEFF/, '');
  } finally {
    await handle.close();
  }
}

/** The root element of an XML text's start (after its declaration and comments), or null. */
function rootElementOf(text: string): string | null {
  const stripped = text.replace(/<\?[\s\S]*?\?>/g, '').replace(/<!--[\s\S]*?-->/g, '');
  const match = /<([A-Za-z_][-A-Za-z0-9_.:]*)/.exec(stripped);
  return match === null ? null : (match[1] ?? '').replace(/^.*:/, '');
}

function sourceOf(names: readonly string[], format: ListFormat, options: ListReadOptions): ListSource {
  if (options.source !== undefined) return options.source;
  if (format === 'ftm-json') return 'opensanctions';
  return names.some((name) => /cons/i.test(name)) ? 'ofac-consolidated' : 'ofac-sdn';
}

/** One list file: SDN.XML (or consolidated.xml), sdn_advanced.xml, or a FollowTheMoney JSON export. */
async function readListFile(path: string, options: ListReadOptions = {}): Promise<ParsedList> {
  const name = basename(path);
  const start = (await firstTextOf(path)).trimStart();
  let parser: SdnXmlParser | SdnAdvancedXmlParser | FtmJsonParser;
  let format: ListFormat;
  if (start.startsWith('{')) {
    parser = new FtmJsonParser(name);
    format = 'ftm-json';
  } else if (start.startsWith('<')) {
    const root = rootElementOf(start);
    if (root === 'sdnList') {
      parser = new SdnXmlParser(name);
      format = 'ofac-xml';
    } else if (root === 'Sanctions') {
      parser = new SdnAdvancedXmlParser(name);
      format = 'ofac-advanced-xml';
    } else {
      throw new ListFileError(
        name,
        { line: 1 },
        `an XML file whose root is <${root ?? '?'}>: neither OFAC's SDN.XML (<sdnList>) nor its advanced XML (<Sanctions>)`,
      );
    }
  } else if (start === '') {
    throw new ListFileError(name, { line: 1 }, 'the file is empty');
  } else {
    throw new ListFileError(
      name,
      { line: 1 },
      'not a list Ledgerdesk reads (OFAC XML or CSV, or a FollowTheMoney JSON export)',
    );
  }
  const digest = await streamFile(path, parser);
  parser.end();
  return {
    source: sourceOf([name], format, options),
    format,
    publishedAt: parser.publishedAt ?? options.publishedAt ?? null,
    digest,
    declaredCount: parser.declaredCount,
    entries: parser.entries,
  };
}

interface CsvSetPaths {
  /** sdn.csv or cons_prim.csv */
  main: string;
  /** add.csv or cons_add.csv */
  addresses: string;
  /** alt.csv or cons_alt.csv */
  aliases: string;
}

/** OFAC's CSV set: its digest is the SHA-256 of the three files' digests, in the order main, addresses, aliases. */
async function readOfacCsvSet(paths: CsvSetPaths, options: ListReadOptions = {}): Promise<ParsedList> {
  const parts: CsvPart[] = ['main', 'addresses', 'aliases'];
  const parser = new OfacCsvParser({
    main: basename(paths.main),
    addresses: basename(paths.addresses),
    aliases: basename(paths.aliases),
  });
  const digests: string[] = [];
  for (const part of parts) {
    digests.push(
      await streamFile(paths[part], {
        write: (chunk) => {
          parser.write(part, chunk);
        },
      }),
    );
    parser.end(part);
  }
  const digest = createHash('sha256')
    .update(parts.map((part, index) => `${part}:${digests[index] ?? ''}\n`).join(''))
    .digest('hex');
  return {
    source: sourceOf(
      [paths.main, paths.addresses, paths.aliases].map((path) => basename(path)),
      'ofac-csv',
      options,
    ),
    format: 'ofac-csv',
    publishedAt: options.publishedAt ?? null,
    digest,
    declaredCount: null,
    entries: parser.entries,
  };
}

const CSV_ROLES: readonly [RegExp, keyof CsvSetPaths][] = [
  [/^(sdn|cons_prim)\.csv$/i, 'main'],
  [/^(add|cons_add)\.csv$/i, 'addresses'],
  [/^(alt|cons_alt)\.csv$/i, 'aliases'],
];

/**
 * What `ledger screening import FILE…` and Settings → Screening will call: one XML or JSON
 * file, or the three files of a CSV set (in any order, told by their names).
 */
export async function readList(paths: readonly string[], options: ListReadOptions = {}): Promise<ParsedList> {
  if (paths.length === 1 && !/\.csv$/i.test(paths[0] ?? '')) return readListFile(paths[0] ?? '', options);
  const set: Partial<CsvSetPaths> = {};
  for (const path of paths) {
    const role = CSV_ROLES.find(([pattern]) => pattern.test(basename(path)))?.[1];
    if (role === undefined)
      throw new ListFileError(
        basename(path),
        {},
        "not a file of OFAC's CSV set (sdn.csv, add.csv, alt.csv or cons_prim.csv, cons_add.csv, cons_alt.csv)",
      );
    if (set[role] !== undefined) throw new ListFileError(basename(path), {}, `a second ${role} file of the set`);
    set[role] = path;
  }
  if (set.main === undefined || set.addresses === undefined || set.aliases === undefined)
    throw new ListFileError(
      paths.map((path) => basename(path)).join(', '),
      {},
      'a CSV set is three files: the entries (sdn.csv), their addresses (add.csv) and their aliases (alt.csv)',
    );
  return readOfacCsvSet({ main: set.main, addresses: set.addresses, aliases: set.aliases }, options);
}
