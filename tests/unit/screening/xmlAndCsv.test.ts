import { describe, expect, it } from 'vitest';
import { CsvReader, CsvSyntaxError, type CsvRecord } from '../../../src/shared/screening/csvReader.ts';
import { XmlSyntaxError, XmlTokenizer } from '../../../src/shared/screening/xmlTokenizer.ts';

function eventsOf(text: string, chunk = text.length): string[] {
  const events: string[] = [];
  const tokenizer = new XmlTokenizer({
    open: (name, attributes) =>
      events.push(
        `<${name}${Object.entries(attributes)
          .map(([k, v]) => ` ${k}=${v}`)
          .join('')}>`,
      ),
    text: (value) => {
      if (value.trim() !== '') events.push(`text:${value}`);
    },
    close: (name) => events.push(`</${name}>`),
  });
  for (let at = 0; at < text.length; at += chunk) tokenizer.write(text.slice(at, at + chunk));
  tokenizer.end();
  // Text split across chunks comes in pieces: join neighbouring text events.
  return events.reduce<string[]>((joined, event) => {
    const last = joined.at(-1);
    if (last?.startsWith('text:') === true && event.startsWith('text:'))
      joined[joined.length - 1] = last + event.slice(5);
    else joined.push(event);
    return joined;
  }, []);
}

function xmlError(text: string): XmlSyntaxError {
  try {
    eventsOf(text);
  } catch (error) {
    if (error instanceof XmlSyntaxError) return error;
    throw error;
  }
  throw new Error('no error');
}

describe('the streaming XML tokenizer', () => {
  const document = `<?xml version="1.0"?>\n<!-- a list -->\n<a:list xmlns:a="urn:x" kind='sdn'>\n  <entry id="1">Sana&apos;a &amp; &#x41;&#66; <![CDATA[<raw>]]></entry>\n  <empty/>\n</a:list>\n`;

  it('gives elements (local names), attributes and decoded text', () => {
    expect(eventsOf(document)).toEqual([
      '<list kind=sdn>',
      '<entry id=1>',
      "text:Sana'a & AB <raw>",
      '</entry>',
      '<empty>',
      '</empty>',
      '</list>',
    ]);
  });

  it('gives the same events whatever the chunks it is fed in', () => {
    const whole = eventsOf(document);
    for (const chunk of [1, 2, 3, 7, 16]) expect(eventsOf(document, chunk)).toEqual(whole);
  });

  it('names the line and column of a mismatched end tag', () => {
    const error = xmlError('<list>\n  <entry>\n  </entr>\n</list>');
    expect(error.line).toBe(3);
    expect(error.column).toBe(3);
    expect(error.message).toContain('</entr> where </entry> was expected');
  });

  it('refuses a file that ends before its root closes (a partial file)', () => {
    const error = xmlError('<list>\n  <entry>1</entry>\n  <entry>2');
    expect(error.message).toContain('before <entry> is closed');
  });

  it('refuses a DOCTYPE, an unknown entity and text outside the root', () => {
    expect(xmlError('<!DOCTYPE x [<!ENTITY a "b">]><x/>').message).toContain('DOCTYPE');
    expect(xmlError('<x>&nbsp;</x>').message).toContain('not an entity XML defines');
    expect(xmlError('<x/>tail').message).toContain('text after the root element');
  });
});

function recordsOf(text: string, chunk = text.length): CsvRecord[] {
  const records: CsvRecord[] = [];
  const reader = new CsvReader((record) => records.push(record));
  for (let at = 0; at < text.length; at += chunk) reader.write(text.slice(at, at + chunk));
  reader.end();
  return records;
}

describe('the streaming CSV reader', () => {
  const text = '1,"KARIMOV, Timur","-0- "\r\n2,"a ""quoted"" word","multi\r\nline"\r\n3,plain,x\r\n\u001a';

  it('reads quoted fields, doubled quotes, a field over two lines and the end-of-file mark, with line numbers', () => {
    expect(recordsOf(text)).toEqual([
      { line: 1, fields: ['1', 'KARIMOV, Timur', '-0- '] },
      { line: 2, fields: ['2', 'a "quoted" word', 'multi\r\nline'] },
      { line: 4, fields: ['3', 'plain', 'x'] },
    ]);
    for (const chunk of [1, 2, 5]) expect(recordsOf(text, chunk)).toEqual(recordsOf(text));
  });

  it('names the line of a file cut inside a quoted field', () => {
    expect(() => recordsOf('1,"a"\r\n2,"cut short')).toThrow(CsvSyntaxError);
    expect(() => recordsOf('1,"a"\r\n2,"cut short')).toThrow('line 2: the file ends inside a quoted field');
  });

  it('names the line of a stray character after a closing quote', () => {
    expect(() => recordsOf('1,"a"\n2,"b"x,3')).toThrow('line 2:');
  });
});
