/**
 * Free-text search on encrypted data. The words of a transaction's description and summary
 * are indexed as keyed hashes (HMAC-SHA-256 under a key derived from the data key), in an
 * FTS5 table that stores no text at all. A search hashes its words the same way and asks
 * FTS5 for rows holding every one, so it stays as fast as plain FTS5.
 *
 * The privacy trade-off, said plainly: someone holding the database file but not the key
 * cannot read a word or test a guess, but can see which rows share a word and how often a
 * hashed word occurs (frequency analysis). We accept that to keep search fast; the
 * alternative, decrypting every row per search, costs seconds at a million rows. Matching is
 * on whole words (case and accents ignored); prefixes are not indexed.
 */
const MAX_WORDS_PER_RECORD = 64;
const MAX_WORD_LENGTH = 64;
const HASH_MEMO_LIMIT = 50_000;

/** Lower-cased, accent-free words of letters and digits. */
export function wordsOf(text: string): string[] {
  // Most bank descriptions are ASCII: skip Unicode normalisation for them (same result).
  const ascii = /^[\t\n\r -~]*$/.test(text);
  const words = (
    ascii
      ? text.toLowerCase().split(/[^a-z0-9]+/)
      : text
          .normalize('NFKD')
          .replace(/\p{M}+/gu, '')
          .toLowerCase()
          .split(/[^\p{L}\p{N}]+/u)
  ).filter((word) => word.length > 0 && word.length <= MAX_WORD_LENGTH);
  return [...new Set(words)].slice(0, MAX_WORDS_PER_RECORD);
}

export class SearchTokens {
  readonly #hash: (text: string) => string;
  /** Descriptions repeat the same words (merchants, "card", "payment"): hash each once. */
  readonly #memo = new Map<string, string>();

  constructor(keyedHash: (text: string, bytes?: number) => string) {
    this.#hash = (word) => keyedHash(`search word: ${word}`, 10);
  }

  /** FTS5 tokens (ascii letters and digits only) for a record's text. */
  tokensOf(text: string): string {
    return wordsOf(text)
      .map((word) => this.#token(word))
      .join(' ');
  }

  /** An FTS5 MATCH expression requiring every word of the query; null when it has none. */
  matchOf(query: string): string | null {
    const words = wordsOf(query);
    if (words.length === 0) return null;
    return words.map((word) => `"${this.#token(word)}"`).join(' AND ');
  }

  #token(word: string): string {
    let token = this.#memo.get(word);
    if (token === undefined) {
      // base64url may hold '-' and '_', which FTS5's ascii tokenizer would split on.
      token = 'w' + Buffer.from(this.#hash(word), 'base64url').toString('hex');
      if (this.#memo.size >= HASH_MEMO_LIMIT) this.#memo.clear();
      this.#memo.set(word, token);
    }
    return token;
  }
}
