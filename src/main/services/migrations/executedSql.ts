/**
 * What a migration executes, as one canonical text: its SQL with comments dropped and
 * whitespace reduced, string literals and quoted names kept byte for byte. A migration's
 * checksum is taken over this text (migrationRunner.ts), so fixing a comment or re-indenting a
 * shipped migration leaves existing databases openable, while any change to what SQLite runs
 * (a name, a type, a literal, a statement) changes the checksum.
 */

/** Characters that make up one bare word: keywords, names, numbers. */
const WORD = /[A-Za-z0-9_$]/;

/** A quoted token ends at its closing quote; a doubled quote inside is an escaped one. */
function quotedEnd(sql: string, start: number, close: string): number {
  let index = start + 1;
  while (index < sql.length) {
    if (sql[index] === close) {
      if (close !== ']' && sql[index + 1] === close) {
        index += 2;
        continue;
      }
      return index + 1;
    }
    index += 1;
  }
  // An unterminated quote runs to the end, as SQLite would read it (and then refuse it).
  return sql.length;
}

/**
 * The SQL's tokens joined canonically: words are separated by one space, punctuation and
 * quoted tokens stand next to their neighbours without one. Bare words keep their case:
 * SQLite keeps a name's case in the schema, so `Reviews` and `reviews` are different texts.
 */
export function executedSql(sql: string): string {
  const tokens: string[] = [];
  let index = 0;
  while (index < sql.length) {
    const char = sql[index] as string;
    if (/\s/.test(char)) {
      index += 1;
    } else if (char === '-' && sql[index + 1] === '-') {
      const end = sql.indexOf('\n', index);
      index = end === -1 ? sql.length : end + 1;
    } else if (char === '/' && sql[index + 1] === '*') {
      const end = sql.indexOf('*/', index + 2);
      index = end === -1 ? sql.length : end + 2;
    } else if (char === "'" || char === '"' || char === '`' || char === '[') {
      const end = quotedEnd(sql, index, char === '[' ? ']' : char);
      tokens.push(sql.slice(index, end));
      index = end;
    } else if (WORD.test(char)) {
      let end = index + 1;
      while (end < sql.length && WORD.test(sql[end] as string)) end += 1;
      tokens.push(sql.slice(index, end));
      index = end;
    } else {
      tokens.push(char);
      index += 1;
    }
  }
  let text = '';
  let previousIsWord = false;
  for (const token of tokens) {
    const isWord = WORD.test(token[0] as string);
    if (isWord && previousIsWord) text += ' ';
    text += token;
    previousIsWord = isWord;
  }
  return text;
}
