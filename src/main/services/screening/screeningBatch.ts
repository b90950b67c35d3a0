/**
 * One batch of screening, as the screening thread and the inline fallback both run it: each
 * subject's hits (scores at or above the threshold, with their explanations).
 */
import type { ListEntry } from '../../../shared/screening/listEntry.ts';
import type { ScoreExplanation } from '../../../shared/screening/scoring.ts';
import type { Screener } from '../../../shared/screening/screener.ts';
import type { ApplicantSubject } from './applicantSubjects.ts';

export type ScreeningRequest =
  | { id: number; type: 'list'; entries: ListEntry[]; threshold: number }
  | { id: number; type: 'subjects'; subjects: ApplicantSubject[] };

export interface ScreeningResult {
  applicantId: string;
  hits: ScoreExplanation[];
}

export function screenBatch(screener: Screener, subjects: readonly ApplicantSubject[]): ScreeningResult[] {
  return subjects.map(({ applicantId, subject }) => ({ applicantId, hits: screener.hits(subject) }));
}
