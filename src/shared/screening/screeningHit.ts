/**
 * A screening hit as a review item (kind `screening-hit`, issue 40 item 2): the applicant and the
 * list entry side by side with the score's parts. The applicant is masked as applicants are
 * everywhere (masking.ts: names shown, a date of birth as its year, identifiers to their last
 * four digits); the entry is public list data and shown whole. Shared by the service that keeps
 * hits, the command line, the review drawer and the report, so a hit reads the same everywhere.
 */
import type { EntryKind, ListSource } from './listEntry.ts';
import type { ScoreExplanation } from './scoring.ts';

interface HitApplicant {
  id: string;
  kind: 'person' | 'business';
  /** The names screened: a person's full name; a business's legal name and dba. */
  names: string[];
  /** Masked: `•••• 1961`. */
  dateOfBirth: string | null;
  nationalities: string[];
  /** Masked: every digit but the last four hidden. */
  identifiers: string[];
}

interface HitEntry {
  source: ListSource;
  uid: string;
  kind: EntryKind;
  name: string;
  aliases: string[];
  datesOfBirth: string[];
  nationalities: string[];
  programs: string[];
}

/** The record a `screening-hit` review is given on. */
export interface HitRecord {
  applicant: HitApplicant;
  entry: HitEntry;
  score: number;
  /** The score's parts, the applicant's personal data in them masked. */
  explanation: ScoreExplanation;
  /** The same parts in words (explanationWords.ts). */
  words: string[];
  /** 'gone': a newer version of the list no longer holds the entry (goneNote says so). */
  state: 'open' | 'gone';
  goneNote: string | null;
  /** The list version it was last found in: its publication date and digest. */
  list: { publishedAt: string | null; digest: string };
  foundAt: string;
  screenedAt: string;
}

/** The hit's ref: the applicant, then the list and the entry (an entry's uid is its list's). */
export function hitRef(applicantId: string, source: ListSource, entryUid: string): string {
  return `${applicantId}:${source}:${entryUid}`;
}

/** The hit's record as read by the shared readers, tolerant of anything else (null). */
export function asHitRecord(record: unknown): HitRecord | null {
  if (typeof record !== 'object' || record === null) return null;
  const candidate = record as Partial<HitRecord>;
  if (typeof candidate.applicant !== 'object' || typeof candidate.entry !== 'object') return null;
  if (typeof candidate.score !== 'number') return null;
  return candidate as HitRecord;
}
