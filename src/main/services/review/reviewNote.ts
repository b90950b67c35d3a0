/**
 * A note is plain text a person wrote: up to NOTE_MAX characters, line breaks and tabs kept,
 * any other control character refused (it would hide text in the report or the terminal).
 */
import { NOTE_MAX } from '../../../shared/review/reviewTerms.ts';
import { ReviewProblem } from './reviewProblem.ts';

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The note as kept (trimmed; null when empty), or a ReviewProblem saying what is wrong. */
export function checkedNote(note: string | null | undefined): string | null {
  if (note === null || note === undefined) return null;
  const trimmed = note.trim();
  if (trimmed === '') return null;
  const length = charactersIn(trimmed);
  if (length > NOTE_MAX) {
    throw new ReviewProblem(
      'bad-note',
      'note',
      `The note is ${String(length)} characters long; a note holds at most ${String(NOTE_MAX)}.`,
    );
  }
  if (CONTROL.test(trimmed)) {
    throw new ReviewProblem('bad-note', 'note', 'The note must be plain text: it holds a control character.');
  }
  return trimmed;
}

/** Characters as a person counts them: a character outside the BMP (an emoji) is one, not two. */
function charactersIn(text: string): number {
  return text.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '_').length;
}
