import { describe, expect, it } from 'vitest';
import { countryCodeOf } from '../../../src/shared/screening/countries.ts';
import { jaro, jaroWinkler } from '../../../src/shared/screening/jaroWinkler.ts';
import { foldToAscii, nameTokens, sortedKey } from '../../../src/shared/screening/normalise.ts';
import { skeletonKey, soundex } from '../../../src/shared/screening/phonetic.ts';

describe('Jaro-Winkler', () => {
  it("gives Winkler's published values", () => {
    expect(jaro('MARTHA', 'MARHTA')).toBeCloseTo(0.9444, 4);
    expect(jaroWinkler('MARTHA', 'MARHTA')).toBeCloseTo(0.9611, 4);
    expect(jaroWinkler('DWAYNE', 'DUANE')).toBeCloseTo(0.84, 4);
    expect(jaroWinkler('DIXON', 'DICKSONX')).toBeCloseTo(0.8133, 4);
    expect(jaro('CRATE', 'TRACE')).toBeCloseTo(0.7333, 4);
  });

  it('is 1 for equal strings, 0 for nothing in common or an empty one, and symmetric', () => {
    expect(jaroWinkler('putin', 'putin')).toBe(1);
    expect(jaroWinkler('abc', 'xyz')).toBe(0);
    expect(jaroWinkler('', 'abc')).toBe(0);
    expect(jaroWinkler('mohammed', 'muhammad')).toBeCloseTo(jaroWinkler('muhammad', 'mohammed'), 12);
  });

  it('gives no prefix bonus under 0.7 (Winkler)', () => {
    expect(jaroWinkler('abcdxyzw', 'abcdqrst')).toBe(jaro('abcdxyzw', 'abcdqrst'));
  });
});

describe('phonetic keys', () => {
  it('gives American Soundex codes', () => {
    expect(['Robert', 'Rupert', 'Ashcraft', 'Tymczak', 'Pfister', 'Honeyman', 'Lee'].map(soundex)).toEqual([
      'R163',
      'R163',
      'A261',
      'T522',
      'P236',
      'H555',
      'L000',
    ]);
  });

  it('gives one skeleton to the spellings of one name, romanised Arabic included', () => {
    expect(new Set(['mohammed', 'muhammad', 'mohamed', 'mhmd'].map(skeletonKey))).toEqual(new Set(['MHMT']));
    expect(skeletonKey('yevgeny')).toBe(skeletonKey('evgeniy'));
    expect(skeletonKey('hussein')).toBe(skeletonKey('husayn'));
    expect(skeletonKey('vladimir')).toBe(skeletonKey('wladimir'));
    expect(skeletonKey('ivanov')).not.toBe(skeletonKey('petrov'));
  });
});

describe('name normalisation', () => {
  it('romanises Cyrillic (BGN/PCGN), Greek and Arabic, and folds accents', () => {
    expect(foldToAscii('Владимир Путин')).toBe('vladimir putin');
    expect(foldToAscii('Евгений Пригожин')).toBe('yevgeniy prigozhin');
    expect(foldToAscii('Ελευθέριος Βενιζέλος')).toBe('eleftherios venizelos'.replace('f', 'v'));
    expect(foldToAscii('محمد')).toBe('mhmd');
    expect(foldToAscii('José Müller Łukasz Straße')).toBe('jose muller lukasz strasse');
  });

  it('drops punctuation and honorifics, and a business’s legal form', () => {
    expect(nameTokens("Dr. Seán O'Brien-Smith Jr.", 'person')).toEqual(['sean', 'obrien', 'smith']);
    expect(nameTokens('ROSNEFT OIL COMPANY PJSC', 'business')).toEqual(['rosneft', 'oil']);
    expect(nameTokens('Limited Company', 'business')).toEqual(['limited', 'company']);
    expect(nameTokens('Sheikh Ahmed AL-HASHIMI', 'person')).toEqual(['ahmed', 'al', 'hashimi']);
  });

  it('keys a name free of token order', () => {
    expect(sortedKey(nameTokens('PUTIN, Vladimir', 'person'))).toBe(sortedKey(nameTokens('Vladimir Putin', 'person')));
  });

  it('tells countries by code or by name', () => {
    expect(countryCodeOf('Russia')).toBe('RU');
    expect(countryCodeOf('ru')).toBe('RU');
    expect(countryCodeOf('Korea, North')).toBe('KP');
    expect(countryCodeOf("Côte d'Ivoire")).toBe('CI');
    expect(countryCodeOf('Atlantis')).toBeNull();
  });
});
