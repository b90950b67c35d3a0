/**
 * A screening hit's record as it is kept and reviewed (shared/screening/screeningHit.ts): the
 * applicant masked as applicants are (a date of birth to its year, identifiers to their last
 * four digits; names shown), the entry as the list has it, and the score's parts with the
 * applicant's personal data masked where a reason quotes it.
 */
import { maskDateOfBirth, maskDigits } from '../../../shared/personalData/masking.ts';
import { explanationWords } from '../../../shared/screening/explanationWords.ts';
import type { ListEntry, ListSource } from '../../../shared/screening/listEntry.ts';
import type { HitRecord } from '../../../shared/screening/screeningHit.ts';
import type { ScoreExplanation, ScreeningSubject } from '../../../shared/screening/scoring.ts';

export function entryName(entry: ListEntry): string {
  return entry.names.find((name) => name.type === 'primary')?.full ?? entry.names[0]?.full ?? entry.uid;
}

/** The applicant's date of birth and identifiers, where a reason quotes them, masked. */
function maskedExplanation(explanation: ScoreExplanation, subject: ScreeningSubject): ScoreExplanation {
  const quoted: [string, string][] = [];
  const born = subject.dateOfBirth ?? null;
  if (born !== null && born !== '') quoted.push([born, maskDateOfBirth(born)]);
  for (const identifier of subject.identifiers ?? []) {
    if (identifier.length >= 4) quoted.push([identifier, maskDigits(identifier)]);
  }
  if (quoted.length === 0) return explanation;
  return {
    ...explanation,
    adjustments: explanation.adjustments.map((adjustment) => ({
      ...adjustment,
      reason: quoted.reduce((reason, [clear, masked]) => reason.split(clear).join(masked), adjustment.reason),
    })),
  };
}

export function hitRecordOf(hit: {
  applicantId: string;
  subject: ScreeningSubject;
  source: ListSource;
  entry: ListEntry;
  explanation: ScoreExplanation;
  list: { publishedAt: string | null; digest: string };
  foundAt: string;
  screenedAt: string;
}): HitRecord {
  const { subject, entry } = hit;
  const explanation = maskedExplanation({ ...hit.explanation, entryUid: entry.uid }, subject);
  const primary = entryName(entry);
  return {
    applicant: {
      id: hit.applicantId,
      kind: subject.kind,
      names: [...subject.names],
      dateOfBirth:
        subject.dateOfBirth === undefined || subject.dateOfBirth === null ? null : maskDateOfBirth(subject.dateOfBirth),
      nationalities: [...(subject.nationalities ?? [])],
      identifiers: (subject.identifiers ?? []).map(maskDigits),
    },
    entry: {
      source: hit.source,
      uid: entry.uid,
      kind: entry.kind,
      name: primary,
      aliases: entry.names.map((name) => name.full).filter((name) => name !== primary),
      datesOfBirth: [...entry.datesOfBirth],
      nationalities: [...entry.nationalities],
      programs: [...entry.programs],
    },
    score: explanation.score,
    explanation,
    words: explanationWords(explanation),
    state: 'open',
    goneNote: null,
    list: hit.list,
    foundAt: hit.foundAt,
    screenedAt: hit.screenedAt,
  };
}
