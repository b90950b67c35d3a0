/**
 * Letters of other scripts in Latin, so a name written in Cyrillic, Greek or Arabic compares
 * with the list's Latin spelling of it. The tables follow the common romanisations: Cyrillic
 * after BGN/PCGN (Russian, with the Ukrainian and Belarusian letters), Greek after ELOT 743,
 * Arabic (and the Persian and Urdu letters) after the usual English practice of the lists
 * (ALA-LC without its diacritics). Scripts without an alphabet (Han, Kana, Hangul) are not
 * romanised: a name in them keeps no letters and matches nothing.
 *
 * Arabic writes short vowels only as optional marks, which names rarely carry: "محمد" becomes
 * "mhmd". The scorer compares consonant skeletons too (phonetic.ts), which is what finds
 * "Mohammed" from it.
 */

const CYRILLIC: Readonly<Record<string, string>> = {
  а: 'a',
  б: 'b',
  в: 'v',
  г: 'g',
  д: 'd',
  е: 'e',
  ё: 'e',
  ж: 'zh',
  з: 'z',
  и: 'i',
  й: 'y',
  к: 'k',
  л: 'l',
  м: 'm',
  н: 'n',
  о: 'o',
  п: 'p',
  р: 'r',
  с: 's',
  т: 't',
  у: 'u',
  ф: 'f',
  х: 'kh',
  ц: 'ts',
  ч: 'ch',
  ш: 'sh',
  щ: 'shch',
  ъ: '',
  ы: 'y',
  ь: '',
  э: 'e',
  ю: 'yu',
  я: 'ya',
  є: 'ye',
  і: 'i',
  ї: 'yi',
  ґ: 'g',
  ў: 'u',
  ђ: 'dj',
  ј: 'j',
  љ: 'lj',
  њ: 'nj',
  ћ: 'c',
  џ: 'dz',
  ѓ: 'g',
  ќ: 'k',
  ѕ: 'dz',
};

/** е and ё are "ye" at the start of a word and after a vowel or a sign (BGN/PCGN). */
const CYRILLIC_YE_AFTER = new Set(['', 'а', 'е', 'ё', 'и', 'о', 'у', 'ы', 'э', 'ю', 'я', 'ъ', 'ь', 'є', 'і', 'ї']);

const GREEK: Readonly<Record<string, string>> = {
  α: 'a',
  β: 'v',
  γ: 'g',
  δ: 'd',
  ε: 'e',
  ζ: 'z',
  η: 'i',
  θ: 'th',
  ι: 'i',
  κ: 'k',
  λ: 'l',
  μ: 'm',
  ν: 'n',
  ξ: 'x',
  ο: 'o',
  π: 'p',
  ρ: 'r',
  σ: 's',
  ς: 's',
  τ: 't',
  υ: 'y',
  φ: 'f',
  χ: 'ch',
  ψ: 'ps',
  ω: 'o',
};

const ARABIC: Readonly<Record<string, string>> = {
  ا: 'a',
  أ: 'a',
  إ: 'i',
  آ: 'a',
  ٱ: 'a',
  ب: 'b',
  ت: 't',
  ث: 'th',
  ج: 'j',
  ح: 'h',
  خ: 'kh',
  د: 'd',
  ذ: 'dh',
  ر: 'r',
  ز: 'z',
  س: 's',
  ش: 'sh',
  ص: 's',
  ض: 'd',
  ط: 't',
  ظ: 'z',
  ع: '',
  غ: 'gh',
  ف: 'f',
  ق: 'q',
  ك: 'k',
  ل: 'l',
  م: 'm',
  ن: 'n',
  ه: 'h',
  ة: 'a',
  ى: 'a',
  ء: '',
  ؤ: 'u',
  ئ: 'i',
  // Persian and Urdu letters
  پ: 'p',
  چ: 'ch',
  ژ: 'zh',
  گ: 'g',
  ک: 'k',
  ی: 'i',
  ہ: 'h',
  ۃ: 'a',
  ے: 'e',
  ٹ: 't',
  ڈ: 'd',
  ڑ: 'r',
  ں: 'n',
  // The short-vowel marks, where a name carries them
  '\u064e': 'a',
  '\u064f': 'u',
  '\u0650': 'i',
  '\u064b': '',
  '\u064c': '',
  '\u064d': '',
  '\u0652': '',
  '\u0670': 'a',
  // Tatweel (a stretching stroke)
  '\u0640': '',
};

const SHADDA = '\u0651';

/** و and ي: a consonant (w, y) at the start of a word or after a long vowel, a vowel (u, i) elsewhere. */
function arabicWeak(letter: 'و' | 'ي', previous: string): string {
  const startsWord = previous === '' || previous === ' ';
  if (letter === 'و') return startsWord ? 'w' : 'u';
  return startsWord ? 'y' : 'i';
}

/** Whether any letter of `text` is Cyrillic, Greek or Arabic (the fast path skips the tables). */
function hasOtherScript(text: string): boolean {
  return /[\u0370-\u03ff\u0400-\u052f\u0600-\u06ff\u0750-\u077f]/.test(text);
}

/** `text` with its Cyrillic, Greek and Arabic letters romanised; other characters unchanged. */
export function romanised(text: string): string {
  if (!hasOtherScript(text)) return text;
  let out = '';
  let previous = '';
  let previousOut = '';
  let skipNext = false;
  let offset = -1;
  for (const character of text) {
    offset += character.length;
    const lower = character.toLowerCase();
    let latin: string | undefined;
    if (lower === 'υ' && (previous === 'α' || previous === 'ε')) {
      latin = 'v'; // αυ, ευ: av, ev (ELOT 743 writes af, ef before voiceless sounds)
    } else if (lower === 'ا' && text.startsWith('ل', offset + 1) && (previous === '' || /\s/.test(previous))) {
      latin = 'al-'; // the article, written joined: الأسد is al-asad
      skipNext = true;
    } else if (skipNext) {
      latin = '';
      skipNext = false;
    } else if (lower === 'е' || lower === 'ё') {
      latin = CYRILLIC_YE_AFTER.has(/\s/.test(previous) ? '' : previous) ? 'ye' : 'e';
    } else if (lower === 'و' || lower === 'ي') {
      latin = arabicWeak(lower, /\s/.test(previous) ? ' ' : previous === '' ? '' : previous);
    } else if (character === SHADDA) {
      latin = previousOut.slice(-1); // the letter before, doubled
    } else {
      // An accented Greek vowel (ά) is looked up by its base letter.
      latin = CYRILLIC[lower] ?? GREEK[lower] ?? GREEK[lower.normalize('NFD').charAt(0)] ?? ARABIC[character];
    }
    const written = latin ?? character;
    out += written;
    previousOut = written;
    previous = lower;
  }
  return out;
}
