/**
 * Screening an applicant against a list: candidates from the blocking index (people against
 * listed individuals, businesses against listed entities, vessels and aircraft), each scored
 * (scoring.ts), the best name of each entry kept. A hit is a score at or above the threshold;
 * every score carries its explanation. The threshold is a parameter (a per-profile setting
 * when screening comes to the app); DEFAULT_THRESHOLD is chosen from the measured curve
 * (docs/screening.md, `npm run bench -- screening`).
 */
import { BlockingIndex, CANDIDATE_LIMIT } from './blocking.ts';
import type { ListEntry } from './listEntry.ts';
import {
  prepareEntry,
  prepareSubject,
  quickScore,
  scoreEntry,
  type PreparedEntry,
  type PreparedName,
  type ScoreExplanation,
  type ScreeningSubject,
} from './scoring.ts';

export const DEFAULT_THRESHOLD = 0.88;

export interface ScreeningOptions {
  threshold?: number;
  /** How many listed names the blocking index hands to the scorer. */
  candidateLimit?: number;
}

export class Screener {
  readonly #people: BlockingIndex;
  readonly #others: BlockingIndex;
  readonly threshold: number;
  readonly #limit: number;

  constructor(entries: readonly (ListEntry | PreparedEntry)[], options: ScreeningOptions = {}) {
    const prepared = entries.map((entry) => ('identifierNumbers' in entry ? entry : prepareEntry(entry)));
    this.#people = new BlockingIndex(prepared.filter((entry) => entry.kind === 'person'));
    this.#others = new BlockingIndex(prepared.filter((entry) => entry.kind !== 'person'));
    this.threshold = options.threshold ?? DEFAULT_THRESHOLD;
    this.#limit = options.candidateLimit ?? CANDIDATE_LIMIT;
  }

  get entryCount(): number {
    return this.#people.entries.length + this.#others.entries.length;
  }

  /** The candidate entries and, of each, the names the blocking index found. */
  #candidates(subject: ScreeningSubject, names: readonly PreparedName[]): Map<PreparedEntry, PreparedName[]> {
    const index = subject.kind === 'person' ? this.#people : this.#others;
    const byEntry = new Map<PreparedEntry, PreparedName[]>();
    if (names.length === 0) return byEntry;
    for (const candidate of index.candidates(names, this.#limit)) {
      const list = byEntry.get(candidate.entry);
      if (list === undefined) byEntry.set(candidate.entry, [candidate.name]);
      else list.push(candidate.name);
    }
    return byEntry;
  }

  /** Every candidate entry scored and explained, best first (below the threshold too). */
  scored(subject: ScreeningSubject, names: readonly PreparedName[] = prepareSubject(subject)): ScoreExplanation[] {
    const scores: ScoreExplanation[] = [];
    for (const [entry, listed] of this.#candidates(subject, names))
      scores.push(scoreEntry(names, subject, entry, listed));
    return scores.sort((a, b) => b.score - a.score);
  }

  /** Every candidate entry's score alone, by entry uid (what the accuracy benchmark reads). */
  scores(subject: ScreeningSubject, names: readonly PreparedName[] = prepareSubject(subject)): Map<string, number> {
    const scores = new Map<string, number>();
    for (const [entry, listed] of this.#candidates(subject, names))
      scores.set(entry.uid, quickScore(names, subject, entry, listed));
    return scores;
  }

  /** The entries the subject matches at or above the threshold, best first, each explained. */
  hits(subject: ScreeningSubject): ScoreExplanation[] {
    const names = prepareSubject(subject);
    const hits: ScoreExplanation[] = [];
    for (const [entry, listed] of this.#candidates(subject, names)) {
      // Scored alone first: only a hit is worth its explanation.
      if (quickScore(names, subject, entry, listed) >= this.threshold)
        hits.push(scoreEntry(names, subject, entry, listed));
    }
    return hits.sort((a, b) => b.score - a.score);
  }
}
