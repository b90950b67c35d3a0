/**
 * Names in one comparable form: other scripts romanised (transliteration.ts), accents and
 * special Latin letters folded to ASCII, lower case, punctuation gone (an apostrophe joins,
 * O'Brien → obrien; a hyphen or a dot separates), honorifics and titles dropped, and for a
 * business the legal-form suffixes too (LLC, Ltd, OOO…), which say nothing about who it is.
 * Particles (al, bin, van, de…) are kept apart: they count for little in a comparison.
 * Token order is not meaningful (lists write "SURNAME, Given"), so comparisons never rely on
 * it; `sortedKey` gives the order-free form of a name.
 */
import { romanised } from './transliteration.ts';

/** Latin letters NFKD does not take apart. */
const SPECIAL_LATIN: Readonly<Record<string, string>> = {
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ł: 'l',
  ı: 'i',
  ŋ: 'n',
  ĸ: 'k',
  ſ: 's',
  ħ: 'h',
  ŧ: 't',
  ƒ: 'f',
};

const HONORIFICS = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'mx',
  'dr',
  'prof',
  'professor',
  'sir',
  'dame',
  'lord',
  'lady',
  'rev',
  'reverend',
  'fr',
  'father',
  'sheikh',
  'shaykh',
  'sheik',
  'shaikh',
  'haji',
  'hajji',
  'hadji',
  'mullah',
  'mulla',
  'imam',
  'sayyid',
  'sayed',
  'gen',
  'general',
  'col',
  'colonel',
  'maj',
  'major',
  'capt',
  'captain',
  'lt',
  'lieutenant',
  'sgt',
  'admiral',
  'adm',
  'brig',
  'hon',
  'honorable',
  'eng',
  'engineer',
  'jr',
  'sr',
  'ii',
  'iii',
  'iv',
]);

const COMPANY_SUFFIXES = new Set([
  'llc',
  'ltd',
  'limited',
  'inc',
  'incorporated',
  'corp',
  'corporation',
  'co',
  'company',
  'plc',
  'llp',
  'lp',
  'gmbh',
  'ag',
  'kg',
  'sa',
  'sas',
  'sarl',
  'srl',
  'spa',
  'bv',
  'nv',
  'ab',
  'as',
  'asa',
  'oy',
  'oyj',
  'pte',
  'pty',
  'pvt',
  'bhd',
  'sdn',
  'jsc',
  'ojsc',
  'pjsc',
  'cjsc',
  'ooo',
  'oao',
  'zao',
  'pao',
  'ao',
  'tov',
  'fze',
  'fzco',
  'fzc',
  'fzllc',
  'wll',
  'sal',
  'kft',
  'zrt',
  'doo',
  'sro',
  'sp',
  'zoo',
  'group',
  'holding',
  'holdings',
  'the',
  'and',
  'of',
]);

/** Particles of names: kept, but they weigh little (scoring.ts). */
export const PARTICLES = new Set([
  'al',
  'el',
  'ul',
  'bin',
  'bn',
  'ibn',
  'bint',
  'ben',
  'abu',
  'abd',
  'de',
  'da',
  'do',
  'dos',
  'das',
  'del',
  'della',
  'der',
  'den',
  'di',
  'du',
  'la',
  'le',
  'van',
  'von',
  'y',
  'e',
]);

/** Lower-case ASCII letters, digits and single spaces: scripts romanised, accents and marks gone. */
export function foldToAscii(text: string): string {
  // Most listed names are plain ASCII already: nothing to fold but the case.
  if (!/[^\u0020-\u007e]/.test(text)) return text.toLowerCase();
  const latin = romanised(text.normalize('NFC'));
  let out = '';
  for (const character of latin.normalize('NFKD')) {
    const code = character.charCodeAt(0);
    if (code < 128) {
      out += character;
      continue;
    }
    if (/\p{M}/u.test(character)) continue;
    const lower = character.toLowerCase();
    const special = SPECIAL_LATIN[lower];
    if (special !== undefined) out += special;
    else if (/[\p{Z}\p{P}\p{S}]/u.test(character)) out += ' ';
    // Anything else (a letter of a script not romanised) is dropped.
  }
  return out.toLowerCase();
}

/** The words of a text, folded: apostrophes join, every other mark separates. */
export function wordsOfName(text: string): string[] {
  return foldToAscii(text)
    .replace(/['`\u2019]/g, '')
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
}

export type NameKind = 'person' | 'business' | 'other';

/** A name's tokens for comparison: honorifics dropped, and a business's legal form. */
export function nameTokens(name: string, kind: NameKind): string[] {
  const words = wordsOfName(name);
  const kept = words.filter((word) => !HONORIFICS.has(word) && !(kind === 'business' && COMPANY_SUFFIXES.has(word)));
  // A name that is only a title or a legal form ("THE COMPANY LTD") keeps its words.
  return kept.length === 0 ? words : kept;
}

/** The order-free form of a name: its tokens sorted, one space apart. */
export function sortedKey(tokens: readonly string[]): string {
  return [...tokens].sort().join(' ');
}
