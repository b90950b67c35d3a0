/**
 * The officer's reviews as the window knows them between reloads: each disposition given
 * here is laid over the rows already on screen (so the review column changes at once, and
 * the row stays where it was until the list is read again), the note being written, and a
 * review filter asked for by another screen (the queue, the command palette).
 */
import { create } from 'zustand';
import type { Disposition, ReviewFilter, ReviewKind, ReviewReason } from '../../../../shared/review/reviewTerms.ts';
import { api } from '../../lib/api.ts';
import { sentenceOf, uiErrorOf } from '../../lib/errors.ts';
import { toast } from '../../stores/toasts.ts';
import { DISPOSITION_WORDS, type ReviewSummary } from './reviewWords.ts';

function keyOf(profileId: string, kind: ReviewKind, ref: string): string {
  return `${profileId}\u0000${kind}\u0000${ref}`;
}

/** What a note is being written for: the items, and what to do once it is kept. */
export interface NoteRequest {
  profileId: string;
  kind: ReviewKind;
  refs: string[];
  /** The item's own disposition, preset in the dialog; null when no person has given one yet. */
  disposition: Disposition | null;
  /** What the items are called when the saved note is announced ("WIRE IN GLOBEX CORP"). */
  name?: string;
  /** Runs once the note is kept; may answer where the keyboard is now, to be said with it. */
  onGiven?: (given: ReviewSummary[]) => string | undefined;
}

interface ReviewState {
  /** Reviews given since the rows were read, by profile, kind and ref. */
  given: Map<string, ReviewSummary>;
  /** Changes whenever `given` does, for views that follow it. */
  version: number;
  busy: boolean;
  note: NoteRequest | null;
  /** A review filter another screen asked a list to open with. */
  requested: { kind: ReviewKind; filter: ReviewFilter } | null;
  give: (
    profileId: string,
    kind: ReviewKind,
    refs: readonly string[],
    disposition: Disposition,
    note?: string,
    /** `no-match`: a screening hit cleared as not the listed party. */
    reason?: ReviewReason,
  ) => Promise<ReviewSummary[] | null>;
  /** The newest of the review a row was read with and one given here since. */
  current: (
    profileId: string,
    kind: ReviewKind,
    ref: string,
    read: ReviewSummary | null | undefined,
  ) => ReviewSummary | null;
  forget: () => void;
  askNote: (request: NoteRequest) => void;
  closeNote: () => void;
  request: (kind: ReviewKind, filter: ReviewFilter) => void;
  takeRequest: (kind: ReviewKind) => ReviewFilter | null;
}

export const useReviewStore = create<ReviewState>((set, get) => ({
  given: new Map(),
  version: 0,
  busy: false,
  note: null,
  requested: null,
  async give(profileId, kind, refs, disposition, note, reason) {
    if (refs.length === 0) return null;
    set({ busy: true });
    try {
      const answer = await api().reviews.give({
        profileId,
        kind,
        refs: [...refs],
        disposition,
        ...(note === undefined || note.trim() === '' ? {} : { note }),
        ...(reason === undefined ? {} : { reason }),
      });
      const given = new Map(get().given);
      for (const review of answer.rows) given.set(keyOf(profileId, kind, review.ref), review);
      set({ given, version: get().version + 1 });
      // The caller says what was done (it knows the items' names and where the keyboard went).
      return answer.rows;
    } catch (reason) {
      toast('error', `Could not ${DISPOSITION_WORDS[disposition].verb.toLowerCase()}`, sentenceOf(uiErrorOf(reason)));
      return null;
    } finally {
      set({ busy: false });
    }
  },
  current(profileId, kind, ref, read) {
    const given = get().given.get(keyOf(profileId, kind, ref));
    if (given === undefined) return read ?? null;
    if (read === null || read === undefined) return given;
    return read.version > given.version ? read : given;
  },
  forget() {
    if (get().given.size > 0) set({ given: new Map(), version: get().version + 1 });
  },
  askNote(note) {
    set({ note });
  },
  closeNote() {
    set({ note: null });
  },
  request(kind, filter) {
    set({ requested: { kind, filter } });
  },
  takeRequest(kind) {
    const requested = get().requested;
    if (requested?.kind !== kind) return null;
    set({ requested: null });
    return requested.filter;
  },
}));
