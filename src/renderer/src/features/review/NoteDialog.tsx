/**
 * `n`: a note for the selected items, given with one disposition (a note is always part of a
 * disposition: the history says who wrote what, when, and what they decided). Plain text up
 * to 4,000 characters; Ctrl+Enter saves. Opened through reviewStore, drawn once for the app.
 */
import { useId, useState } from 'react';
import { DISPOSITIONS, NOTE_MAX, type Disposition } from '../../../../shared/review/reviewTerms.ts';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { announce } from '../../stores/announcements.ts';
import { useReviewStore, type NoteRequest } from './reviewStore.ts';
import { countOf, DISPOSITION_WORDS } from './reviewWords.ts';

/** Characters as the service counts them (reviewNote.ts): an emoji outside the BMP is one, not two. */
function charactersIn(text: string): number {
  return text.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, '_').length;
}

/** Where the note's length is worth saying while typing: near the limit, and past it. */
const NOTE_NEAR_LIMIT = NOTE_MAX - 100;

/** The sentence said as the note is typed: empty until near the limit, so the region stays quiet. */
function noteLimitWarning(length: number): string {
  if (length > NOTE_MAX)
    return `Note too long: ${(length - NOTE_MAX).toLocaleString('en-US')} characters over the limit of ${NOTE_MAX.toLocaleString('en-US')}.`;
  if (length >= NOTE_NEAR_LIMIT) return `${(NOTE_MAX - length).toLocaleString('en-US')} characters left.`;
  return '';
}

export function ReviewNoteHost() {
  const note = useReviewStore((state) => state.note);
  if (note === null) return null;
  return <NoteDialog key={note.refs.join('\u0000')} request={note} />;
}

function NoteDialog({ request }: { request: NoteRequest }) {
  const close = useReviewStore((state) => state.closeNote);
  const give = useReviewStore((state) => state.give);
  const busy = useReviewStore((state) => state.busy);
  const [text, setText] = useState('');
  const [disposition, setDisposition] = useState<Disposition>(request.disposition);
  const noteId = useId();
  const length = charactersIn(text.trim());
  const tooLong = length > NOTE_MAX;

  async function save(): Promise<void> {
    if (tooLong || busy) return;
    const given = await give(request.profileId, request.kind, request.refs, disposition, text);
    if (given === null) return;
    close();
    const now = request.onGiven?.(given);
    const what = request.name ?? countOf(request.refs.length, request.kind);
    announce(
      `Saved the note; ${DISPOSITION_WORDS[disposition].done.toLowerCase()} ${what}.${now === undefined || now === '' ? '' : ` ${now}`}`,
    );
  }

  return (
    <Dialog
      title={request.refs.length === 1 ? 'Note' : `Note for ${countOf(request.refs.length, request.kind)}`}
      onClose={close}
      footer={
        <>
          <Button onClick={close}>Cancel</Button>
          <Button variant="primary" busy={busy} disabled={tooLong} onClick={() => void save()}>
            {DISPOSITION_WORDS[disposition].verb} with this note
          </Button>
        </>
      }
    >
      <div className="stack review-note-form">
        <div className="field">
          <label className="field-label" htmlFor={noteId}>
            Note
          </label>
          <textarea
            id={noteId}
            className="input review-note-text"
            rows={6}
            value={text}
            data-autofocus
            aria-invalid={tooLong || undefined}
            aria-describedby={`${noteId}-count`}
            onChange={(event) => {
              setText(event.target.value);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
                event.preventDefault();
                void save();
              }
            }}
          />
          <div id={`${noteId}-count`} className={tooLong ? 'field-error' : 'field-hint'}>
            {length.toLocaleString('en-US')} / {NOTE_MAX.toLocaleString('en-US')} characters
            {tooLong ? ': too long' : ''} · Ctrl+Enter saves
          </div>
          {/* The count is a description (read when the field is reached); it is said as typed
              only near the limit and when over it, not on every keystroke. */}
          <div className="visually-hidden" role="status" aria-live="polite">
            {noteLimitWarning(length)}
          </div>
        </div>
        <fieldset className="review-dispositions">
          <legend className="field-label">Disposition</legend>
          {DISPOSITIONS.map((option) => (
            <label key={option} className="review-disposition">
              <input
                type="radio"
                name={`${noteId}-disposition`}
                value={option}
                checked={disposition === option}
                onChange={() => {
                  setDisposition(option);
                }}
              />
              {DISPOSITION_WORDS[option].done}
            </label>
          ))}
        </fieldset>
      </div>
    </Dialog>
  );
}
