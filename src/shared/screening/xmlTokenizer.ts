/**
 * A small streaming XML tokenizer for the sanctions lists (OFAC's SDN.XML is ~10 MB, its
 * advanced XML ~100 MB): text is fed in chunks of any size and elements come out as events
 * (open with attributes, text, close), so no document tree is ever built. It reads the XML
 * the lists are written in: elements, attributes, character and the five predefined entity
 * references, comments, CDATA, processing instructions and the XML declaration. A DOCTYPE
 * is refused (no list has one, and entity declarations are how XML bombs are made).
 *
 * Every problem is an XmlSyntaxError naming the line and column where it was found: a
 * mismatched or unclosed element, a bad character reference, text after the root, or a file
 * that ends before its root element closed (a partial download).
 */

export interface XmlHandler {
  open(name: string, attributes: Readonly<Record<string, string>>): void;
  text(text: string): void;
  close(name: string): void;
}

export class XmlSyntaxError extends Error {
  readonly line: number;
  readonly column: number;
  constructor(message: string, line: number, column: number) {
    super(`line ${String(line)}, column ${String(column)}: ${message}`);
    this.name = 'XmlSyntaxError';
    this.line = line;
    this.column = column;
  }
}

const NAME = /^[A-Za-z_:][-A-Za-z0-9_:.]*$/;
const ATTRIBUTE = /([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*("([^"]*)"|'([^']*)')/y;
const PREDEFINED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The local part of a qualified name: `ns:Entry` → `Entry` (the lists' namespaces are all default ones). */
function localName(name: string): string {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
}

export class XmlTokenizer {
  readonly #handler: XmlHandler;
  /** Unconsumed text: at most one unfinished markup or text run. */
  #buffer = '';
  /** Line and column of the first character of #buffer. */
  #line = 1;
  #column = 1;
  readonly #open: string[] = [];
  #rootSeen = false;
  #rootClosed = false;

  constructor(handler: XmlHandler) {
    this.#handler = handler;
  }

  /** Where the tokenizer is now (the first character not yet consumed). */
  get position(): { line: number; column: number } {
    return { line: this.#line, column: this.#column };
  }

  write(chunk: string): void {
    this.#buffer += chunk;
    this.#drain(false);
  }

  /** The end of the file: throws if anything is left open or unfinished. */
  end(): void {
    this.#drain(true);
    if (this.#buffer.trim() !== '') this.#fail('the file ends inside markup (a partial file?)');
    const open = this.#open.at(-1);
    if (open !== undefined) this.#fail(`the file ends before <${open}> is closed (a partial file?)`);
    if (!this.#rootSeen) this.#fail('the file holds no XML element');
  }

  #drain(final: boolean): void {
    let at = 0;
    const buffer = this.#buffer;
    while (at < buffer.length) {
      const lt = buffer.indexOf('<', at);
      if (lt === -1) {
        // Text up to the end of the chunk: kept unless final, since an entity may be cut.
        if (!final) break;
        this.#textRun(buffer, at, buffer.length);
        at = buffer.length;
        break;
      }
      if (lt > at) {
        this.#textRun(buffer, at, lt);
        at = lt;
      }
      const consumed = this.#markup(buffer, lt);
      if (consumed === -1) break; // unfinished: wait for more
      this.#advance(buffer, at, consumed);
      at = consumed;
    }
    this.#buffer = buffer.slice(at);
  }

  /** Moves the position over buffer[from, to). */
  #advance(buffer: string, from: number, to: number): void {
    for (let index = from; index < to; index += 1) {
      if (buffer.charCodeAt(index) === 10) {
        this.#line += 1;
        this.#column = 1;
      } else {
        this.#column += 1;
      }
    }
  }

  #textRun(buffer: string, from: number, to: number): void {
    const raw = buffer.slice(from, to);
    if (this.#open.length === 0) {
      if (raw.trim() !== '')
        this.#fail(this.#rootClosed ? 'text after the root element' : 'text before the root element');
    } else {
      this.#handler.text(this.#decoded(raw));
    }
    this.#advance(buffer, from, to);
  }

  /** Handles the markup starting at `lt`; returns the index after it, or -1 when it is not all here yet. */
  #markup(buffer: string, lt: number): number {
    if (buffer.startsWith('<!--', lt)) {
      const end = buffer.indexOf('-->', lt + 4);
      return end === -1 ? -1 : end + 3;
    }
    if (buffer.startsWith('<![CDATA[', lt)) {
      const end = buffer.indexOf(']]>', lt + 9);
      if (end === -1) return -1;
      if (this.#open.length === 0) this.#fail('CDATA outside the root element');
      this.#handler.text(buffer.slice(lt + 9, end));
      return end + 3;
    }
    if (buffer.startsWith('<!', lt)) {
      if (buffer.length - lt < 9) return -1;
      this.#fail('a DOCTYPE or declaration is not accepted in a sanctions list');
    }
    if (buffer.startsWith('<?', lt)) {
      const end = buffer.indexOf('?>', lt + 2);
      return end === -1 ? -1 : end + 2;
    }
    const gt = this.#tagEnd(buffer, lt + 1);
    if (gt === -1) return -1;
    const inner = buffer.slice(lt + 1, gt);
    if (inner.startsWith('/')) {
      const name = inner.slice(1).trim();
      const open = this.#open.pop();
      if (open === undefined) this.#fail(`</${name}> closes nothing`);
      if (open !== name) this.#fail(`</${name}> where </${open}> was expected`);
      if (this.#open.length === 0) this.#rootClosed = true;
      this.#handler.close(localName(name));
      return gt + 1;
    }
    const selfClosing = inner.endsWith('/');
    const body = selfClosing ? inner.slice(0, -1) : inner;
    const nameEnd = body.search(/[\s]/);
    const name = nameEnd === -1 ? body : body.slice(0, nameEnd);
    if (!NAME.test(name)) this.#fail(`"<${name}" is not a valid element name`);
    if (this.#open.length === 0) {
      if (this.#rootClosed) this.#fail(`a second root element <${name}>`);
      this.#rootSeen = true;
    }
    const attributes = this.#attributesOf(nameEnd === -1 ? '' : body.slice(nameEnd), name);
    this.#handler.open(localName(name), attributes);
    if (selfClosing) {
      this.#handler.close(localName(name));
      if (this.#open.length === 0) this.#rootClosed = true;
    } else {
      this.#open.push(name);
    }
    return gt + 1;
  }

  /** The index of the `>` ending a tag opened before `from`, skipping quoted attribute values. */
  #tagEnd(buffer: string, from: number): number {
    let quote = '';
    for (let index = from; index < buffer.length; index += 1) {
      const character = buffer[index];
      if (quote !== '') {
        if (character === quote) quote = '';
      } else if (character === '"' || character === "'") {
        quote = character;
      } else if (character === '>') {
        return index;
      } else if (character === '<') {
        this.#fail('"<" inside a tag');
      }
    }
    return -1;
  }

  #attributesOf(text: string, element: string): Record<string, string> {
    const attributes: Record<string, string> = {};
    let at = 0;
    for (;;) {
      while (at < text.length && /\s/.test(text[at] ?? '')) at += 1;
      if (at >= text.length) return attributes;
      ATTRIBUTE.lastIndex = at;
      const match = ATTRIBUTE.exec(text);
      if (match === null) this.#fail(`a malformed attribute in <${element}>: "${text.slice(at, at + 40).trim()}"`);
      const name = localName(match[1] ?? '');
      if (!(match[1] ?? '').startsWith('xmlns')) attributes[name] = this.#decoded(match[3] ?? match[4] ?? '');
      at = ATTRIBUTE.lastIndex;
    }
  }

  /** Text with its entity and character references replaced. */
  #decoded(raw: string): string {
    if (!raw.includes('&')) return raw;
    return raw.replace(/&([^;&\s]{0,12});?/g, (whole, name: string) => {
      if (!whole.endsWith(';')) this.#fail(`an "&" that starts no reference ("${whole}")`);
      if (name.startsWith('#')) {
        const code = name.startsWith('#x') ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
        if (!Number.isInteger(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
          this.#fail(`"&${name};" is not a valid character reference`);
        return String.fromCodePoint(code);
      }
      const value = PREDEFINED[name];
      if (value === undefined) this.#fail(`"&${name};" is not an entity XML defines`);
      return value;
    });
  }

  #fail(message: string): never {
    throw new XmlSyntaxError(message, this.#line, this.#column);
  }
}
