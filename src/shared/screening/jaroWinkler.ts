/**
 * Jaro and Jaro-Winkler similarity (Winkler 1990): 1 for equal strings, 0 for strings with
 * nothing in common. Jaro counts the characters two strings share within a window of half the
 * longer length, and the transpositions among them; Winkler adds a bonus for a common prefix
 * (up to 4 characters, scale 0.1), given only when Jaro is already above 0.7, as in his paper.
 * Written for ASCII tokens of names (normalise.ts), so it compares UTF-16 code units.
 */

const PREFIX_SCALE = 0.1;
const PREFIX_MAX = 4;
const BOOST_THRESHOLD = 0.7;

/** Reused between calls: names are short, so one buffer of flags serves every comparison. */
let flagsA = new Uint8Array(64);
let flagsB = new Uint8Array(64);

export function jaro(a: string, b: string): number {
  if (a === b) return a.length === 0 ? 1 : 1;
  const lengthA = a.length;
  const lengthB = b.length;
  if (lengthA === 0 || lengthB === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(lengthA, lengthB) / 2) - 1);
  if (flagsA.length < lengthA) flagsA = new Uint8Array(lengthA * 2);
  if (flagsB.length < lengthB) flagsB = new Uint8Array(lengthB * 2);
  flagsA.fill(0, 0, lengthA);
  flagsB.fill(0, 0, lengthB);
  let matches = 0;
  for (let i = 0; i < lengthA; i += 1) {
    const from = Math.max(0, i - window);
    const to = Math.min(lengthB - 1, i + window);
    const code = a.charCodeAt(i);
    for (let j = from; j <= to; j += 1) {
      if (flagsB[j] === 0 && b.charCodeAt(j) === code) {
        flagsA[i] = 1;
        flagsB[j] = 1;
        matches += 1;
        break;
      }
    }
  }
  if (matches === 0) return 0;
  let transpositions = 0;
  let k = 0;
  for (let i = 0; i < lengthA; i += 1) {
    if (flagsA[i] === 0) continue;
    while (flagsB[k] === 0) k += 1;
    if (a.charCodeAt(i) !== b.charCodeAt(k)) transpositions += 1;
    k += 1;
  }
  const m = matches;
  return (m / lengthA + m / lengthB + (m - transpositions / 2) / m) / 3;
}

export function jaroWinkler(a: string, b: string): number {
  const similarity = jaro(a, b);
  if (similarity <= BOOST_THRESHOLD) return similarity;
  let prefix = 0;
  const limit = Math.min(PREFIX_MAX, a.length, b.length);
  while (prefix < limit && a.charCodeAt(prefix) === b.charCodeAt(prefix)) prefix += 1;
  return similarity + prefix * PREFIX_SCALE * (1 - similarity);
}
