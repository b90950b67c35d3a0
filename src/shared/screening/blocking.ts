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
import { skeletonKey } from './phonetic.ts';
import type { PreparedEntry, PreparedName } from './scoring.ts';

const PREFIX_LETTERS = 3;
export const CANDIDATE_LIMIT = 24;
const RELATIVE_FLOOR = 0.5;
const KEY_COUNT_DAMPING = 0.05;
/** Candidates are made by the rarer keys; past this many names found, commoner keys make none. */
const TOUCHED_LIMIT = 1024;

/** Whether a sorted list holds `value` (binary search). */
function contains(list: Int32Array, value: number): boolean {
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const at = list[middle] ?? 0;
    if (at === value) return true;
    if (at < value) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** The `limit` values of highest weight, best first: one pass keeping a short sorted list. */
function topOf(values: readonly number[], limit: number, weight: (value: number) => number): number[] {
  const top: number[] = [];
  const topWeights: number[] = [];
  for (const value of values) {
    const w = weight(value);
    if (top.length === limit && w <= (topWeights[limit - 1] ?? 0)) continue;
    let at = top.length;
    while (at > 0 && (topWeights[at - 1] ?? 0) < w) at -= 1;
    top.splice(at, 0, value);
    topWeights.splice(at, 0, w);
    if (top.length > limit) {
      top.pop();
      topWeights.pop();
    }
  }
  return top;
}

export interface Candidate {
  entry: PreparedEntry;
  name: PreparedName;
  /** The weight of shared keys that made it a candidate. */
  weight: number;
}

function blockingKeysOf(token: string, skeleton: string): string[] {
  if (PARTICLES.has(token) || token.length < 2) return [];
  const keys = [`f:${token.slice(0, PREFIX_LETTERS)}`];
  if (skeleton.length >= 2) keys.push(`s:${skeleton}`);
  if (token.length >= 5) keys.push(`l:${token.slice(-PREFIX_LETTERS)}`);
  return keys;
}

/**
 * Every key of a name: its tokens' keys, and those of each two neighbouring tokens written as
 * one (a Chinese given name is "Jianqiang" on one side and "Jian Qiang" on the other).
 */
function nameKeysOf(name: Pick<PreparedName, 'tokens' | 'skeletons'>): Set<string> {
  const keys = new Set<string>();
  name.tokens.forEach((token, index) => {
    for (const key of blockingKeysOf(token, name.skeletons[index] ?? '')) keys.add(key);
    const next = name.tokens[index + 1];
    if (next !== undefined && !PARTICLES.has(token) && !PARTICLES.has(next)) {
      const joined = token + next;
      for (const key of blockingKeysOf(joined, skeletonKey(joined))) keys.add(key);
    }
  });
  return keys;
}

export class BlockingIndex {
  readonly entries: readonly PreparedEntry[];
  /** Every listed name, and the entry it belongs to. */
  readonly #names: PreparedName[] = [];
  readonly #entryOf: number[] = [];
  /** How many keys each name has: a name that shares all of a query's keys and has few others ranks first. */
  readonly #keyCounts: number[] = [];
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
        const keys = nameKeysOf(name);
        this.#keyCounts.push(keys.size);
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
    // Rare keys first: they make the candidates. Once 1,024 names are found, a commoner key
    // (Mohammed, Ali) only adds weight to them, looked up in its sorted list when that is shorter
    // than walking all of it.
    const keys = [...new Set(queries.flatMap((query) => [...nameKeysOf(query)]))]
      .map((key) => ({ list: this.#postings.get(key), idf: this.#idf.get(key) ?? 0 }))
      .filter((key): key is { list: Int32Array; idf: number } => key.list !== undefined)
      .sort((a, b) => a.list.length - b.list.length);
    for (const { list, idf } of keys) {
      if (touched.length >= TOUCHED_LIMIT && touched.length * 12 < list.length) {
        for (const name of touched) if (contains(list, name)) weights[name] = (weights[name] ?? 0) + idf;
        continue;
      }
      // Once enough names are found, a common key only adds weight to them.
      const adding = touched.length < TOUCHED_LIMIT;
      for (let k = 0; k < list.length; k += 1) {
        const name = list[k] ?? 0;
        if (stamps[name] !== stamp) {
          if (!adding) continue;
          stamps[name] = stamp;
          weights[name] = 0;
          touched.push(name);
        }
        weights[name] = (weights[name] ?? 0) + idf;
      }
    }
    for (const name of touched)
      weights[name] = (weights[name] ?? 0) / (1 + KEY_COUNT_DAMPING * (this.#keyCounts[name] ?? 0));
    if (touched.length === 0) return [];
    let best = 0;
    for (const name of touched) best = Math.max(best, weights[name] ?? 0);
    const floor = best * RELATIVE_FLOOR;
    const kept = topOf(
      touched.filter((name) => (weights[name] ?? 0) >= floor),
      limit,
      (name) => weights[name] ?? 0,
    );
    return kept.map((name) => ({
      entry: this.entries[this.#entryOf[name] ?? 0] as PreparedEntry,
      name: this.#names[name] as PreparedName,
      weight: weights[name] ?? 0,
    }));
  }
}
