/**
 * Phonetic keys of name tokens, for the blocking index (blocking.ts) and the scorer.
 *
 * `soundex`: American Soundex (the letter, then three digits of consonant classes; H and W do
 * not separate letters of one class), as OFAC's own search uses it beside Jaro-Winkler.
 *
 * `skeletonKey`: a Soundex variant written for romanised names, where the same name reaches
 * the lists in many spellings (Mohammed, Muhammad, Mohamad; Yevgeny, Evgeniy; Hussein,
 * Husayn). Spelling pairs that stand for one sound become one letter first (kh, gh, ph, th,
 * dh, sh, ch, zh, ts, ck, dj), then consonants fall into classes (b p; f v w; c k q; g j; s z x;
 * d t; l; m; n; r; h), a leading y before a vowel goes (Yevgeny → Evgeny), vowels go except a
 * leading one (which becomes A), and repeats collapse. "mohammed", "muhammad" and the romanised Arabic "mhmd"
 * all give MHMT. Keys are at most 6 letters long.
 */

const SOUNDEX_CLASS: Readonly<Record<string, string>> = {
  b: '1',
  f: '1',
  p: '1',
  v: '1',
  c: '2',
  g: '2',
  j: '2',
  k: '2',
  q: '2',
  s: '2',
  x: '2',
  z: '2',
  d: '3',
  t: '3',
  l: '4',
  m: '5',
  n: '5',
  r: '6',
};

export function soundex(token: string): string {
  const letters = token.toLowerCase().replace(/[^a-z]/g, '');
  const first = letters[0];
  if (first === undefined) return '';
  let code = first.toUpperCase();
  let previous = SOUNDEX_CLASS[first] ?? '';
  for (let index = 1; index < letters.length && code.length < 4; index += 1) {
    const letter = letters[index] ?? '';
    const digit = SOUNDEX_CLASS[letter];
    if (digit === undefined) {
      // Vowels separate two letters of one class; h and w do not.
      if (letter !== 'h' && letter !== 'w') previous = '';
      continue;
    }
    if (digit !== previous) code += digit;
    previous = digit;
  }
  return code.padEnd(4, '0');
}

const DIGRAPHS: readonly [RegExp, string][] = [
  [/shch|sch|tsch|tch/g, 'C'],
  [/dzh|dj/g, 'J'],
  [/kh/g, 'H'],
  [/gh/g, 'G'],
  [/ph/g, 'F'],
  [/th/g, 'T'],
  [/dh/g, 'T'],
  [/sh/g, 'S'],
  [/ch/g, 'C'],
  [/zh/g, 'J'],
  [/ts|tz/g, 'S'],
  [/ck/g, 'K'],
  [/x/g, 'KS'],
];

const SKELETON_CLASS: Readonly<Record<string, string>> = {
  b: 'P',
  p: 'P',
  f: 'F',
  v: 'F',
  w: 'F',
  F: 'F',
  c: 'K',
  k: 'K',
  q: 'K',
  K: 'K',
  g: 'J',
  j: 'J',
  G: 'J',
  J: 'J',
  s: 'S',
  z: 'S',
  S: 'S',
  // ch (ч) and the like: a sound of its own.
  C: 'C',
  d: 'T',
  t: 'T',
  T: 'T',
  l: 'L',
  m: 'M',
  n: 'N',
  r: 'R',
  h: 'H',
  H: 'H',
};

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u', 'y']);
const SKELETON_MAX = 6;

/** Names repeat: each token's key is worked out once (the memo is emptied when it grows large). */
const SKELETON_MEMO = new Map<string, string>();
const SKELETON_MEMO_LIMIT = 200_000;

export function skeletonKey(token: string): string {
  const known = SKELETON_MEMO.get(token);
  if (known !== undefined) return known;
  const key = skeletonOf(token);
  if (SKELETON_MEMO.size >= SKELETON_MEMO_LIMIT) SKELETON_MEMO.clear();
  SKELETON_MEMO.set(token, key);
  return key;
}

function skeletonOf(token: string): string {
  let text = token.toLowerCase().replace(/[^a-z]/g, '');
  if (text === '') return '';
  if (text.length > 1 && text[0] === 'y' && VOWELS.has(text[1] ?? '')) text = text.slice(1);
  for (const [pattern, replacement] of DIGRAPHS) text = text.replace(pattern, replacement);
  let key = '';
  for (let index = 0; index < text.length && key.length < SKELETON_MAX; index += 1) {
    const letter = text[index] ?? '';
    if (VOWELS.has(letter)) {
      if (index === 0) key += 'A';
      continue;
    }
    const cls = SKELETON_CLASS[letter];
    if (cls === undefined) continue;
    if (!key.endsWith(cls)) key += cls;
  }
  return key;
}
