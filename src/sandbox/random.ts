/**
 * Randomness of two kinds: a seeded generator, so the same --seed always gives the same
 * bank, and fresh ids for objects created at run time.
 */
import { randomBytes } from 'node:crypto';
import { ID_PREFIX, type IdKind } from '../shared/bank/index.ts';

const ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const ID_LENGTH = 14;
const BASE36_7 = 36 ** 7;

/** A small, fast, seeded generator (sfc32); good enough for realistic data, not for secrets. */
export interface SeededRandom {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [low, high]. */
  integer(low: number, high: number): number;
  pick<Item>(items: readonly Item[]): Item;
  chance(probability: number): boolean;
  id(kind: IdKind): string;
}

export function seededRandom(seed: number): SeededRandom {
  let a = 0x9e3779b9 ^ seed;
  let b = 0x243f6a88 + seed;
  let c = 0xb7e15162 ^ (seed * 31);
  let d = 1;
  function next(): number {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    const t = (a + b + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t / 4294967296;
  }
  // Warm up: the first outputs of sfc32 track the seed too closely.
  for (let index = 0; index < 15; index += 1) next();
  const random: SeededRandom = {
    next,
    integer(low, high) {
      return low + Math.floor(next() * (high - low + 1));
    },
    pick(items) {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new Error('pick from an empty list');
      return item;
    },
    chance(probability) {
      return next() < probability;
    },
    id(kind) {
      // Two base-36 halves of 7 characters: the seed makes millions of ids, one char at a time is slow.
      const half = () =>
        Math.floor(next() * BASE36_7)
          .toString(36)
          .padStart(7, '0');
      return ID_PREFIX[kind] + half() + half();
    },
  };
  return random;
}

/** A fresh id for an object created at run time, in the real service's form (acct_11gp75rgzexq6m). */
export function freshId(kind: IdKind): string {
  const bytes = randomBytes(ID_LENGTH);
  let text: string = ID_PREFIX[kind];
  for (const byte of bytes) text += ID_ALPHABET.charAt(byte % 36);
  return text;
}
