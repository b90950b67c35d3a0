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
 * least 0.7, unless one is written in Arabic script, which leaves short vowels out), whichever
 * is higher. Pairs weigh by their tokens' lengths (a particle, al or bin,
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

const SKELETON_AGREEMENT = 0.9;
/** Below this a skeleton's agreement is taken for chance (Jubouri and Jaber share J-P-R). */
const SKELETON_SPELLING_FLOOR = 0.7;
/** A pair of tokens this unlike is a contradiction: the names differ there. */
const MISMATCH = 0.75;
const MISMATCH_PENALTY = 0.12;
const PARTICLE_WEIGHT = 1 / 3;
const SURPLUS_PENALTY = 0.04;
const SINGLE_TOKEN_FACTOR = 0.9;
const JOINED_FACTOR = 0.95;
const WEAK_ALIAS_PENALTY = 0.05;
const MAX_TOKENS = 30;

/** A name ready to compare: its tokens, their skeletons and weights. */
export interface PreparedName {
  full: string;
  type: EntryName['type'];
  weak: boolean;
  /** Written in Arabic script, which leaves short vowels out: spelling says little there. */
  abjad: boolean;
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

interface TokenPair {
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

interface ScoreAdjustment {
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

function nameKindOf(kind: EntryKind | ScreeningSubject['kind']): NameKind {
  return kind === 'person' ? 'person' : kind === 'business' ? 'business' : 'other';
}

export function prepareName(
  full: string,
  kind: NameKind,
  type: EntryName['type'] = 'primary',
  weak = false,
): PreparedName {
  // At most 30 tokens: the pairing keeps which tokens are used in the bits of a number.
  const tokens = nameTokens(full, kind).slice(0, MAX_TOKENS);
  const abjad = /[\u0600-\u06ff\u0750-\u077f]/.test(full);
  return { full, type, weak, abjad, tokens, skeletons: tokens.map(skeletonKey), weights: tokens.map(weightOf) };
}

/** Only letters and digits, upper case: "AB-123 456" and "ab123456" are one number. */
function identifierOf(text: string): string {
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

/**
 * Token pairs repeat (the candidates of one applicant share its tokens, and applicants share
 * common names): each pair's Jaro-Winkler is worked out once. The memo is emptied when large.
 */
const PAIR_MEMO = new Map<string, number>();
const PAIR_MEMO_LIMIT = 500_000;

function memoJaroWinkler(a: string, b: string): number {
  const key = `${a}\u0000${b}`;
  const known = PAIR_MEMO.get(key);
  if (known !== undefined) return known;
  const similarity = jaroWinkler(a, b);
  if (PAIR_MEMO.size >= PAIR_MEMO_LIMIT) PAIR_MEMO.clear();
  PAIR_MEMO.set(key, similarity);
  return similarity;
}

function tokenSimilarity(
  query: string,
  querySkeleton: string,
  listed: string,
  listedSkeleton: string,
  abjad: boolean,
): { similarity: number; by: TokenPair['by'] } {
  const spelled = memoJaroWinkler(query, listed);
  if (
    spelled < SKELETON_AGREEMENT &&
    (abjad || spelled >= SKELETON_SPELLING_FLOOR) &&
    querySkeleton.length >= 2 &&
    querySkeleton === listedSkeleton
  )
    return { similarity: SKELETON_AGREEMENT, by: 'skeleton' };
  return { similarity: spelled, by: 'jaro-winkler' };
}

/** Reused matrices for the pairing of tokens (names are short: a few tokens a side). */
let similarities = new Float64Array(64);
let bySkeleton = new Uint8Array(64);

/**
 * The name score, and with `explain` its parts. The score alone (explain false) allocates
 * nothing per pair: it is what the screener computes for every candidate, and only the best
 * candidate of each entry is compared again with its explanation.
 */
function compare(query: PreparedName, listed: PreparedName, explain: NameComparison | null): number {
  const nq = query.tokens.length;
  const nl = listed.tokens.length;
  if (nq === 0 || nl === 0) return 0;
  if (similarities.length < nq * nl) {
    similarities = new Float64Array(nq * nl * 2);
    bySkeleton = new Uint8Array(nq * nl * 2);
  }
  const abjad = query.abjad || listed.abjad;
  for (let i = 0; i < nq; i += 1) {
    for (let j = 0; j < nl; j += 1) {
      const { similarity, by } = tokenSimilarity(
        query.tokens[i] ?? '',
        query.skeletons[i] ?? '',
        listed.tokens[j] ?? '',
        listed.skeletons[j] ?? '',
        abjad,
      );
      similarities[i * nl + j] = similarity;
      bySkeleton[i * nl + j] = by === 'skeleton' ? 1 : 0;
    }
  }
  // Best pairs first, none used twice; ties to the heavier pair, so a long token is not left
  // for a worse match.
  let queryUsed = 0;
  let listedUsed = 0;
  let weighted = 0;
  let weights = 0;
  let penalty = 0;
  const pairsWanted = Math.min(nq, nl);
  for (let made = 0; made < pairsWanted; made += 1) {
    let bestI = -1;
    let bestJ = -1;
    let best = -1;
    let bestWeight = -1;
    for (let i = 0; i < nq; i += 1) {
      if ((queryUsed & (1 << i)) !== 0) continue;
      for (let j = 0; j < nl; j += 1) {
        if ((listedUsed & (1 << j)) !== 0) continue;
        const similarity = similarities[i * nl + j] ?? 0;
        const weight = (query.weights[i] ?? 0) + (listed.weights[j] ?? 0);
        if (similarity > best || (similarity === best && weight > bestWeight)) {
          best = similarity;
          bestWeight = weight;
          bestI = i;
          bestJ = j;
        }
      }
    }
    queryUsed |= 1 << bestI;
    listedUsed |= 1 << bestJ;
    const weight = bestWeight / 2;
    weighted += weight * best;
    weights += weight;
    const queryToken = query.tokens[bestI] ?? '';
    const listedToken = listed.tokens[bestJ] ?? '';
    if (best < MISMATCH && !PARTICLES.has(queryToken) && !PARTICLES.has(listedToken)) penalty += MISMATCH_PENALTY;
    explain?.pairs.push({
      query: queryToken,
      listed: listedToken,
      similarity: best,
      weight,
      by: bySkeleton[bestI * nl + bestJ] === 1 ? 'skeleton' : 'jaro-winkler',
    });
  }
  for (let i = 0; i < nq; i += 1) {
    if ((queryUsed & (1 << i)) !== 0) continue;
    const token = query.tokens[i] ?? '';
    explain?.unpaired.push({ token, side: 'query' });
    penalty += PARTICLES.has(token) ? SURPLUS_PENALTY / 4 : SURPLUS_PENALTY;
  }
  for (let j = 0; j < nl; j += 1) {
    if ((listedUsed & (1 << j)) !== 0) continue;
    const token = listed.tokens[j] ?? '';
    explain?.unpaired.push({ token, side: 'listed' });
    penalty += PARTICLES.has(token) ? SURPLUS_PENALTY / 4 : SURPLUS_PENALTY;
  }
  let score = (weights === 0 ? 0 : weighted / weights) - penalty;
  if (pairsWanted === 1 && Math.max(nq, nl) > 1) score *= SINGLE_TOKEN_FACTOR;
  if (nq !== nl) {
    const joined = jaroWinkler(query.tokens.join(''), listed.tokens.join(''));
    if (explain !== null) explain.joinedSimilarity = joined;
    score = Math.max(score, joined * JOINED_FACTOR);
  }
  return Math.max(0, Math.min(1, score));
}

/** The score of a query name against a listed name, with its parts. */
export function compareNames(query: PreparedName, listed: PreparedName): NameComparison {
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
  comparison.score = compare(query, listed, comparison);
  return comparison;
}

/** The name score alone (what compareNames says, without its parts). */
function nameScore(query: PreparedName, listed: PreparedName): number {
  return compare(query, listed, null);
}

/** The date of birth's effect, and (when `explain`) why; null when either side has none. */
function dateAdjustment(born: string, listed: readonly string[], explain: boolean): ScoreAdjustment | null {
  if (listed.length === 0 || born.length !== 10) return null;
  let change: number;
  if (listed.some((date) => born.startsWith(date))) {
    change = listed.some((date) => date === born) ? 0.05 : 0.02;
  } else {
    const year = Number(born.slice(0, 4));
    let nearest = Infinity;
    for (const date of listed) nearest = Math.min(nearest, Math.abs(Number(date.slice(0, 4)) - year));
    change = nearest > 1 ? -0.15 : -0.05;
  }
  return {
    factor: 'date-of-birth',
    change,
    reason: explain ? `born ${born}, the list says ${listed.join(' or ')}` : '',
  };
}

function nationalityAdjustment(
  subject: readonly string[],
  listed: readonly string[],
  explain: boolean,
): ScoreAdjustment | null {
  if (subject.length === 0 || listed.length === 0) return null;
  const codes = subject.map(countryCodeOf).filter((code): code is string => code !== null);
  if (codes.length === 0) return null;
  const reason = explain ? `citizen of ${codes.join(', ')}, the list says ${listed.join(', ')}` : '';
  return codes.some((code) => listed.includes(code))
    ? { factor: 'nationality', change: 0.02, reason }
    : { factor: 'nationality', change: -0.08, reason };
}

function adjustmentsOf(
  subject: ScreeningSubject,
  entry: PreparedEntry,
  listed: PreparedName,
  explain: boolean,
): ScoreAdjustment[] {
  const adjustments: ScoreAdjustment[] = [];
  if (listed.weak)
    adjustments.push({
      factor: 'weak-alias',
      change: -WEAK_ALIAS_PENALTY,
      reason: explain ? `"${listed.full}" is a weak alias` : '',
    });
  const born = subject.dateOfBirth ?? null;
  const date = born === null ? null : dateAdjustment(born, entry.datesOfBirth, explain);
  if (date !== null) adjustments.push(date);
  const nationality = nationalityAdjustment(subject.nationalities ?? [], entry.nationalityCodes, explain);
  if (nationality !== null) adjustments.push(nationality);
  if (subject.identifiers !== undefined && subject.identifiers.length > 0 && entry.identifierNumbers.length > 0) {
    const numbers = subject.identifiers.map(identifierOf).filter((number) => number.length >= 4);
    if (numbers.some((number) => entry.identifierNumbers.includes(number)))
      adjustments.push({
        factor: 'identifier',
        change: 0.2,
        reason: explain ? 'an identifier number the list holds for it' : '',
      });
  }
  return adjustments;
}

/** The best pair of the subject's names and the entry's (given) names, by name score net of a weak alias's penalty. */
function bestNames(
  subjectNames: readonly PreparedName[],
  names: readonly PreparedName[],
): { query: PreparedName; listed: PreparedName; score: number } | null {
  let best: { query: PreparedName; listed: PreparedName; score: number } | null = null;
  let bestValue = -1;
  for (const query of subjectNames) {
    for (const listed of names) {
      const score = nameScore(query, listed);
      const value = score - (listed.weak ? WEAK_ALIAS_PENALTY : 0);
      if (value > bestValue) {
        best = { query, listed, score };
        bestValue = value;
      }
    }
  }
  return best;
}

function totalOf(score: number, adjustments: readonly ScoreAdjustment[]): number {
  const total = adjustments.reduce((sum, adjustment) => sum + adjustment.change, score);
  return Math.max(0, Math.min(1, total));
}

/** The applicant's score against one entry alone (what scoreEntry says, without its parts). */
export function quickScore(
  subjectNames: readonly PreparedName[],
  subject: ScreeningSubject,
  entry: PreparedEntry,
  names: readonly PreparedName[] = entry.names,
): number {
  const best = bestNames(subjectNames, names);
  if (best === null) return 0;
  return totalOf(best.score, adjustmentsOf(subject, entry, best.listed, false));
}

/** The applicant's score against one entry, on the best of the entry's names given (all when none are), explained. */
export function scoreEntry(
  subjectNames: readonly PreparedName[],
  subject: ScreeningSubject,
  entry: PreparedEntry,
  names: readonly PreparedName[] = entry.names,
): ScoreExplanation {
  const best = bestNames(subjectNames, names);
  const name =
    best === null
      ? compareNames(prepareName('', 'other'), prepareName('', 'other'))
      : compareNames(best.query, best.listed);
  const adjustments = best === null ? [] : adjustmentsOf(subject, entry, best.listed, true);
  return { entryUid: entry.uid, score: totalOf(name.score, adjustments), name, adjustments };
}

/** The subject's names, prepared once for every entry it is compared with. */
export function prepareSubject(subject: ScreeningSubject): PreparedName[] {
  const kind = nameKindOf(subject.kind);
  return subject.names
    .filter((name) => name.trim() !== '')
    .map((name) => prepareName(name, kind))
    .filter((name) => name.tokens.length > 0);
}
