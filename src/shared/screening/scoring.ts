/**
 * How closely an applicant's name matches a listed name, and how the other facts move that:
 * every score comes with its parts (ScoreExplanation), for the officer who reviews the hit and
 * for the report.
 *
 * The name score compares tokens, not whole strings, so word order (SURNAME, Given) and a
 * dropped or added middle name cost little. Each token of the shorter name is paired with a
 * token of the other, best pairs first, none used twice; a pair's similarity is its
 * Jaro-Winkler, or 0.9 when the two share a consonant skeleton (phonetic.ts: Mohammed and
 * Muhammad, a romanised Arabic "mhmd") and their spellings are not far apart (Jaro-Winkler at
 * least 0.7), whichever is higher. Pairs weigh by their tokens' lengths (a particle, al or bin,
 * weighs a third), so a long surname counts more than an initial. A pair less alike than 0.75
 * is a contradiction (two names that differ there) and takes 0.12 off besides. Each token of
 * the longer name left unpaired takes a little off (a dropped middle
 * name should still match; three extra words should not), and a one-word name matched
 * against a longer one takes more. When the two names have a different number of words, the
 * names written without spaces are compared too ("Abdul Rahman" and "Abdulrahman").
 *
 * Then, on the best name: a weak alias takes 0.05 off; a date of birth that agrees with the
 * list adds (0.05 to the day, 0.02 to the year) and one that disagrees takes off (0.15 by
 * more than a year, 0.05 within the year); a nationality that agrees adds 0.02, one that
 * disagrees takes 0.08; an identifier number the list holds adds 0.2. The total stays within 0..1.
 */
import { countryCodeOf } from './countries.ts';
import { jaroWinkler } from './jaroWinkler.ts';
import type { EntryKind, EntryName, ListEntry } from './listEntry.ts';
import { nameTokens, PARTICLES, type NameKind } from './normalise.ts';
import { skeletonKey } from './phonetic.ts';

export const SKELETON_AGREEMENT = 0.9;
/** Below this a skeleton's agreement is taken for chance (Jubouri and Jaber share J-P-R). */
const SKELETON_SPELLING_FLOOR = 0.7;
/** A pair of tokens this unlike is a contradiction: the names differ there. */
const MISMATCH = 0.75;
const MISMATCH_PENALTY = 0.12;
const PARTICLE_WEIGHT = 1 / 3;
const SURPLUS_PENALTY = 0.04;
const SINGLE_TOKEN_FACTOR = 0.9;
const JOINED_FACTOR = 0.95;
export const WEAK_ALIAS_PENALTY = 0.05;

/** A name ready to compare: its tokens, their skeletons and weights. */
export interface PreparedName {
  full: string;
  type: EntryName['type'];
  weak: boolean;
  tokens: string[];
  skeletons: string[];
  weights: number[];
}

export interface PreparedEntry {
  uid: string;
  kind: EntryKind;
  names: PreparedName[];
  datesOfBirth: string[];
  nationalityCodes: string[];
  identifierNumbers: string[];
}

/** Who is screened: an applicant (a person or a business), as the cache holds it. */
export interface ScreeningSubject {
  kind: 'person' | 'business';
  /** The names to screen: a person's full name; a business's legal name and its dba. */
  names: string[];
  /** YYYY-MM-DD. */
  dateOfBirth?: string | null;
  /** Country codes or names of citizenship. */
  nationalities?: readonly string[];
  /** Identifier numbers (a business's TIN or registration number). */
  identifiers?: readonly string[];
}

export interface TokenPair {
  query: string;
  listed: string;
  similarity: number;
  weight: number;
  /** What gave the similarity: the spelling (Jaro-Winkler) or the shared consonant skeleton. */
  by: 'jaro-winkler' | 'skeleton';
}

export interface NameComparison {
  /** The applicant's name as screened and the list's name it was compared with. */
  queryName: string;
  listedName: string;
  listedType: EntryName['type'];
  weak: boolean;
  pairs: TokenPair[];
  /** Tokens of the longer name left without a pair. */
  unpaired: { token: string; side: 'query' | 'listed' }[];
  /** The names without spaces, compared when their word counts differ; null otherwise. */
  joinedSimilarity: number | null;
  score: number;
}

export interface ScoreAdjustment {
  factor: 'weak-alias' | 'date-of-birth' | 'nationality' | 'identifier';
  change: number;
  /** In words, for the officer: "born 1960-01-01, the list says 1960-01-01". */
  reason: string;
}

export interface ScoreExplanation {
  entryUid: string;
  score: number;
  name: NameComparison;
  adjustments: ScoreAdjustment[];
}

function weightOf(token: string): number {
  return PARTICLES.has(token) ? token.length * PARTICLE_WEIGHT : token.length;
}

export function nameKindOf(kind: EntryKind | ScreeningSubject['kind']): NameKind {
  return kind === 'person' ? 'person' : kind === 'business' ? 'business' : 'other';
}

export function prepareName(full: string, kind: NameKind, type: EntryName['type'] = 'primary', weak = false): PreparedName {
  const tokens = nameTokens(full, kind);
  return { full, type, weak, tokens, skeletons: tokens.map(skeletonKey), weights: tokens.map(weightOf) };
}

/** Only letters and digits, upper case: "AB-123 456" and "ab123456" are one number. */
export function identifierOf(text: string): string {
  return text.replace(/[^0-9A-Za-z]/g, '').toUpperCase();
}

export function prepareEntry(entry: ListEntry): PreparedEntry {
  const kind = nameKindOf(entry.kind);
  return {
    uid: entry.uid,
    kind: entry.kind,
    names: entry.names.map((name) => prepareName(name.full, kind, name.type, name.weak)),
    datesOfBirth: entry.datesOfBirth,
    nationalityCodes: [
      ...new Set(entry.nationalities.map(countryCodeOf).filter((code): code is string => code !== null)),
    ],
    identifierNumbers: [
      ...new Set(entry.identifiers.map((id) => identifierOf(id.number)).filter((number) => number.length >= 4)),
    ],
  };
}

function tokenSimilarity(
  query: string,
  querySkeleton: string,
  listed: string,
  listedSkeleton: string,
): { similarity: number; by: TokenPair['by'] } {
  const spelled = jaroWinkler(query, listed);
  if (
    spelled < SKELETON_AGREEMENT &&
    spelled >= SKELETON_SPELLING_FLOOR &&
    querySkeleton.length >= 2 &&
    querySkeleton === listedSkeleton
  )
    return { similarity: SKELETON_AGREEMENT, by: 'skeleton' };
  return { similarity: spelled, by: 'jaro-winkler' };
}

/** The score of a query name against a listed name, with its parts. */
export function compareNames(query: PreparedName, listed: PreparedName): NameComparison {
  const nq = query.tokens.length;
  const nl = listed.tokens.length;
  const comparison: NameComparison = {
    queryName: query.tokens.join(' '),
    listedName: listed.full,
    listedType: listed.type,
    weak: listed.weak,
    pairs: [],
    unpaired: [],
    joinedSimilarity: null,
    score: 0,
  };
  if (nq === 0 || nl === 0) return comparison;
  const candidates: { i: number; j: number; similarity: number; by: TokenPair['by'] }[] = [];
  for (let i = 0; i < nq; i += 1) {
    for (let j = 0; j < nl; j += 1) {
      const { similarity, by } = tokenSimilarity(
        query.tokens[i] ?? '',
        query.skeletons[i] ?? '',
        listed.tokens[j] ?? '',
        listed.skeletons[j] ?? '',
      );
      candidates.push({ i, j, similarity, by });
    }
  }
  // Best pairs first; ties to the heavier pair, so a long token is not left for a worse match.
  candidates.sort(
    (a, b) =>
      b.similarity - a.similarity ||
      (listed.weights[b.j] ?? 0) + (query.weights[b.i] ?? 0) - (listed.weights[a.j] ?? 0) - (query.weights[a.i] ?? 0),
  );
  const queryUsed = new Array<boolean>(nq).fill(false);
  const listedUsed = new Array<boolean>(nl).fill(false);
  let weighted = 0;
  let weights = 0;
  for (const candidate of candidates) {
    if (queryUsed[candidate.i] === true || listedUsed[candidate.j] === true) continue;
    queryUsed[candidate.i] = true;
    listedUsed[candidate.j] = true;
    const weight = ((query.weights[candidate.i] ?? 0) + (listed.weights[candidate.j] ?? 0)) / 2;
    weighted += weight * candidate.similarity;
    weights += weight;
    comparison.pairs.push({
      query: query.tokens[candidate.i] ?? '',
      listed: listed.tokens[candidate.j] ?? '',
      similarity: candidate.similarity,
      weight,
      by: candidate.by,
    });
    if (comparison.pairs.length === Math.min(nq, nl)) break;
  }
  let penalty = 0;
  for (const pair of comparison.pairs)
    if (pair.similarity < MISMATCH && !PARTICLES.has(pair.query) && !PARTICLES.has(pair.listed)) penalty += MISMATCH_PENALTY;
  query.tokens.forEach((token, i) => {
    if (queryUsed[i] !== true) {
      comparison.unpaired.push({ token, side: 'query' });
      penalty += PARTICLES.has(token) ? SURPLUS_PENALTY / 4 : SURPLUS_PENALTY;
    }
  });
  listed.tokens.forEach((token, j) => {
    if (listedUsed[j] !== true) {
      comparison.unpaired.push({ token, side: 'listed' });
      penalty += PARTICLES.has(token) ? SURPLUS_PENALTY / 4 : SURPLUS_PENALTY;
    }
  });
  let score = (weights === 0 ? 0 : weighted / weights) - penalty;
  if (Math.min(nq, nl) === 1 && Math.max(nq, nl) > 1) score *= SINGLE_TOKEN_FACTOR;
  if (nq !== nl) {
    const joined = jaroWinkler(query.tokens.join(''), listed.tokens.join(''));
    comparison.joinedSimilarity = joined;
    score = Math.max(score, joined * JOINED_FACTOR);
  }
  comparison.score = Math.max(0, Math.min(1, score));
  return comparison;
}

function dateAdjustment(born: string, listed: readonly string[]): ScoreAdjustment | null {
  if (listed.length === 0 || !/^\d{4}-\d{2}-\d{2}$/.test(born)) return null;
  const said = `born ${born}, the list says ${listed.join(' or ')}`;
  if (listed.some((date) => born.startsWith(date)))
    return listed.some((date) => date.length === 10 && date === born)
      ? { factor: 'date-of-birth', change: 0.05, reason: said }
      : { factor: 'date-of-birth', change: 0.02, reason: said };
  const year = Number(born.slice(0, 4));
  const nearest = Math.min(...listed.map((date) => Math.abs(Number(date.slice(0, 4)) - year)));
  return { factor: 'date-of-birth', change: nearest > 1 ? -0.15 : -0.05, reason: said };
}

function nationalityAdjustment(subject: readonly string[], listed: readonly string[]): ScoreAdjustment | null {
  const codes = subject.map(countryCodeOf).filter((code): code is string => code !== null);
  if (codes.length === 0 || listed.length === 0) return null;
  const said = `citizen of ${codes.join(', ')}, the list says ${listed.join(', ')}`;
  return codes.some((code) => listed.includes(code))
    ? { factor: 'nationality', change: 0.02, reason: said }
    : { factor: 'nationality', change: -0.08, reason: said };
}

/** The applicant's score against one entry, on the best of the entry's names given (all when none are). */
export function scoreEntry(
  subjectNames: readonly PreparedName[],
  subject: ScreeningSubject,
  entry: PreparedEntry,
  names: readonly PreparedName[] = entry.names,
): ScoreExplanation {
  let best: NameComparison | null = null;
  let bestValue = -1;
  for (const query of subjectNames) {
    for (const listed of names) {
      const comparison = compareNames(query, listed);
      const value = comparison.score - (listed.weak ? WEAK_ALIAS_PENALTY : 0);
      if (value > bestValue) {
        best = comparison;
        bestValue = value;
      }
    }
  }
  const name = best ?? compareNames(prepareName('', 'other'), prepareName('', 'other'));
  const adjustments: ScoreAdjustment[] = [];
  if (name.weak)
    adjustments.push({ factor: 'weak-alias', change: -WEAK_ALIAS_PENALTY, reason: `"${name.listedName}" is a weak alias` });
  const born = subject.dateOfBirth === undefined || subject.dateOfBirth === null ? null : subject.dateOfBirth;
  const date = born === null ? null : dateAdjustment(born, entry.datesOfBirth);
  if (date !== null) adjustments.push(date);
  const nationality = nationalityAdjustment(subject.nationalities ?? [], entry.nationalityCodes);
  if (nationality !== null) adjustments.push(nationality);
  const numbers = (subject.identifiers ?? []).map(identifierOf).filter((number) => number.length >= 4);
  const agreeing = numbers.find((number) => entry.identifierNumbers.includes(number));
  if (agreeing !== undefined)
    adjustments.push({ factor: 'identifier', change: 0.2, reason: 'an identifier number the list holds for it' });
  const total = adjustments.reduce((sum, adjustment) => sum + adjustment.change, name.score);
  return { entryUid: entry.uid, score: Math.max(0, Math.min(1, total)), name, adjustments };
}

/** The subject's names, prepared once for every entry it is compared with. */
export function prepareSubject(subject: ScreeningSubject): PreparedName[] {
  const kind = nameKindOf(subject.kind);
  return subject.names
    .filter((name) => name.trim() !== '')
    .map((name) => prepareName(name, kind))
    .filter((name) => name.tokens.length > 0);
}
