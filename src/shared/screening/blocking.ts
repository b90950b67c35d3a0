/**
 * The blocking index: which listed names are worth scoring for an applicant, found without
 * comparing the applicant with all 20,000 entries. Each token of each listed name is filed
 * under up to three keys: its consonant skeleton (phonetic.ts: the spellings of one name share
 * it), its first three letters (a typo late in a long name keeps them) and, from five letters
 * on, its last three (a typo early keeps those). A query's tokens look up
 * their keys; each listed name found gathers the rarity (inverse document frequency) of every
 * key it shares, so sharing "Mohammed" counts for little and sharing a rare surname for much.
 * The names that gathered at least half of the best one's weight are the candidates, at most
 * `limit` of them, best first. Particles (al, bin, de…) file nothing: they are everywhere.
 */
import { PARTICLES } from './normalise.ts';
import type { PreparedEntry, PreparedName } from './scoring.ts';

const PREFIX_LETTERS = 3;
export const CANDIDATE_LIMIT = 24;
const RELATIVE_FLOOR = 0.5;

export interface Candidate {
  entry: PreparedEntry;
  name: PreparedName;
  /** The weight of shared keys that made it a candidate. */
  weight: number;
}

export function blockingKeysOf(token: string, skeleton: string): string[] {
  if (PARTICLES.has(token) || token.length < 2) return [];
  const keys = [`f:${token.slice(0, PREFIX_LETTERS)}`];
  if (skeleton.length >= 2) keys.push(`s:${skeleton}`);
  if (token.length >= 5) keys.push(`l:${token.slice(-PREFIX_LETTERS)}`);
  return keys;
}

export class BlockingIndex {
  readonly entries: readonly PreparedEntry[];
  /** Every listed name, and the entry it belongs to. */
  readonly #names: PreparedName[] = [];
  readonly #entryOf: number[] = [];
  readonly #postings = new Map<string, Int32Array>();
  readonly #idf = new Map<string, number>();
  /** Accumulators reused between queries (one slot per listed name). */
  readonly #weights: Float64Array;
  readonly #stamp: Int32Array;
  #query = 0;

  constructor(entries: readonly PreparedEntry[]) {
    this.entries = entries;
    const lists = new Map<string, number[]>();
    entries.forEach((entry, entryIndex) => {
      for (const name of entry.names) {
        const nameIndex = this.#names.length;
        this.#names.push(name);
        this.#entryOf.push(entryIndex);
        const keys = new Set<string>();
        name.tokens.forEach((token, index) => {
          for (const key of blockingKeysOf(token, name.skeletons[index] ?? '')) keys.add(key);
        });
        for (const key of keys) {
          let list = lists.get(key);
          if (list === undefined) lists.set(key, (list = []));
          list.push(nameIndex);
        }
      }
    });
    const total = Math.max(1, this.#names.length);
    for (const [key, list] of lists) {
      this.#postings.set(key, Int32Array.from(list));
      this.#idf.set(key, Math.log(1 + total / list.length));
    }
    this.#weights = new Float64Array(this.#names.length);
    this.#stamp = new Int32Array(this.#names.length);
  }

  get nameCount(): number {
    return this.#names.length;
  }

  /** The listed names worth scoring for these query names, best first. */
  candidates(queries: readonly PreparedName[], limit = CANDIDATE_LIMIT): Candidate[] {
    this.#query += 1;
    const stamp = this.#query;
    const weights = this.#weights;
    const stamps = this.#stamp;
    const touched: number[] = [];
    const seenKeys = new Set<string>();
    for (const query of queries) {
      query.tokens.forEach((token, index) => {
        for (const key of blockingKeysOf(token, query.skeletons[index] ?? '')) {
          if (seenKeys.has(key)) continue;
          seenKeys.add(key);
          const list = this.#postings.get(key);
          if (list === undefined) continue;
          const idf = this.#idf.get(key) ?? 0;
          for (let k = 0; k < list.length; k += 1) {
            const name = list[k] ?? 0;
            if (stamps[name] !== stamp) {
              stamps[name] = stamp;
              weights[name] = 0;
              touched.push(name);
            }
            weights[name] = (weights[name] ?? 0) + idf;
          }
        }
      });
    }
    if (touched.length === 0) return [];
    let best = 0;
    for (const name of touched) best = Math.max(best, weights[name] ?? 0);
    const floor = best * RELATIVE_FLOOR;
    const kept = touched.filter((name) => (weights[name] ?? 0) >= floor);
    kept.sort((a, b) => (weights[b] ?? 0) - (weights[a] ?? 0));
    return kept.slice(0, limit).map((name) => ({
      entry: this.entries[this.#entryOf[name] ?? 0] as PreparedEntry,
      name: this.#names[name] as PreparedName,
      weight: weights[name] ?? 0,
    }));
  }
}
