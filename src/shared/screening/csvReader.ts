/**
 * A streaming reader of comma-separated records as OFAC writes them (RFC 4180 quoting, records
 * ended by CR, LF or CR LF, and a last line holding only the DOS end-of-file mark, 0x1A). Text
 * is fed in chunks; each complete record comes out with the line it starts on. A file that
 * ends inside a quoted field is a partial file: CsvSyntaxError names the line.
 */

export class CsvSyntaxError extends Error {
  readonly line: number;
  constructor(message: string, line: number) {
    super(`line ${String(line)}: ${message}`);
    this.name = 'CsvSyntaxError';
    this.line = line;
  }
}

export interface CsvRecord {
  line: number;
  fields: string[];
}

const END_OF_FILE_MARK = '\u001a';

export class CsvReader {
  readonly #onRecord: (record: CsvRecord) => void;
  #fields: string[] = [];
  #field = '';
  #quoted = false;
  /** Inside quotes, and the last character was a quote (an escaped one or the closing one). */
  #quoteSeen = false;
  #fieldStarted = false;
  #line = 1;
  #recordLine = 1;
  #previousCr = false;
  #ended = false;

  constructor(onRecord: (record: CsvRecord) => void) {
    this.#onRecord = onRecord;
  }

  write(chunk: string): void {
    for (let index = 0; index < chunk.length; index += 1) this.#character(chunk[index] ?? '');
  }

  end(): void {
    if (this.#quoted && !this.#quoteSeen)
      throw new CsvSyntaxError('the file ends inside a quoted field (a partial file?)', this.#recordLine);
    if (this.#fieldStarted || this.#fields.length > 0) this.#endRecord();
  }

  #character(character: string): void {
    if (this.#ended) {
      if (character.trim() !== '' && character !== END_OF_FILE_MARK)
        throw new CsvSyntaxError('text after the end-of-file mark', this.#line);
      return;
    }
    const wasCr = this.#previousCr;
    this.#previousCr = character === '\r';
    if (this.#quoted) {
      if (this.#quoteSeen) {
        if (character === '"') {
          this.#field += '"';
          this.#quoteSeen = false;
          return;
        }
        this.#quoted = false;
        this.#quoteSeen = false;
        // falls through: the character after a closing quote
      } else {
        if (character === '"') {
          this.#quoteSeen = true;
          return;
        }
        if (character === '\n' && !wasCr) this.#line += 1;
        if (character === '\r') this.#line += 1;
        this.#field += character;
        return;
      }
      if (character !== ',' && character !== '\r' && character !== '\n')
        throw new CsvSyntaxError(
          `"${character}" after the closing quote of field ${String(this.#fields.length + 1)}`,
          this.#line,
        );
    }
    if (character === ',') {
      this.#fields.push(this.#field);
      this.#field = '';
      this.#fieldStarted = true;
      return;
    }
    if (character === '\n' || character === '\r') {
      if (character === '\n' && wasCr) return; // the LF of a CR LF
      if (this.#fieldStarted || this.#fields.length > 0 || this.#field !== '') this.#endRecord();
      this.#line += 1;
      this.#recordLine = this.#line;
      return;
    }
    if (character === END_OF_FILE_MARK && !this.#fieldStarted && this.#fields.length === 0 && this.#field === '') {
      this.#ended = true;
      return;
    }
    if (character === '"') {
      if (this.#field !== '')
        throw new CsvSyntaxError(`a quote inside unquoted field ${String(this.#fields.length + 1)}`, this.#line);
      this.#quoted = true;
      this.#fieldStarted = true;
      return;
    }
    this.#field += character;
    this.#fieldStarted = true;
  }

  #endRecord(): void {
    this.#fields.push(this.#field);
    const record = { line: this.#recordLine, fields: this.#fields };
    this.#fields = [];
    this.#field = '';
    this.#fieldStarted = false;
    this.#onRecord(record);
  }
}
