/**
 * Telling a retry from a new event without the bank: what the listener itself can know. A
 * notification names no status (`{event, op, id, url}`), so two real changes of one ACH send
 * the same body; what tells a retry is that the bank had a reason to send again: the same body
 * as the previous arrival of that event for that object on that path, which was not answered
 * 2xx. Anything else is a new event. Each label says which way it decided.
 *
 * In memory, for this run only: a count carried across restarts (or from the kept log) would
 * call the first arrival after a restart a retry of something the bank finished long ago.
 * When the bank can be asked, its send log decides instead (sendLogPairing.ts).
 */
import { createHash } from 'node:crypto';
import { arrivalLabelWords } from '../../../shared/listener/arrivalLabelWords.ts';

/**
 * One delivery label per arrival (issue 38): the bank's next attempt at a notification, a new
 * event, or the listener's own replay of a kept request (as sent, or edited first). No other
 * field says otherwise: the listener's lines, the app and `--json` carry this one.
 */
type ArrivalKind = 'new_event' | 'retry' | 'replay' | 'edited_replay';

export interface ArrivalLabel {
  kind: ArrivalKind;
  /** 1 for a new event or a replay; for a retry, which attempt (2 for the first retry). */
  attempt: number;
  /** For a replay: the id of the kept request it sends again. */
  replayOf?: number;
  /** Why, in words: what the decision rested on. */
  basis: string;
  /** Who decided: the listener alone, or the bank's send log. */
  source: 'listener' | 'bank';
}

/** The header a replay carries: the kept request it sends again (replay.ts). */
export const REPLAY_OF_HEADER = 'x-ledgerdesk-replay-of';
/** The header an edited replay carries beside it. */
export const REPLAY_EDITED_HEADER = 'x-ledgerdesk-replay-edited';

/**
 * The label of an arrival that is one of the listener's own replays (its headers say so), or
 * null. A replay is never the bank's: it is not counted as an attempt, and the bank's next
 * attempt is still labelled against the bank's previous one.
 */
export function replayLabelOf(rawHeaders: readonly string[]): ArrivalLabel | null {
  let replayOf: number | null = null;
  let edited = false;
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = (rawHeaders[index] ?? '').toLowerCase();
    if (name === REPLAY_OF_HEADER) {
      const id = Number(rawHeaders[index + 1]);
      if (Number.isSafeInteger(id) && id > 0) replayOf = id;
    } else if (name === REPLAY_EDITED_HEADER) edited = true;
  }
  if (replayOf === null) return null;
  return {
    kind: edited ? 'edited_replay' : 'replay',
    attempt: 1,
    replayOf,
    basis: `${edited ? 'edited and sent again' : 'sent again'} from kept request ${String(replayOf)} (${REPLAY_OF_HEADER})`,
    source: 'listener',
  };
}

/** The label in its few words: `attempt 3`, `new event`, `replay`, `edited replay`. */
export function labelWords(label: ArrivalLabel): string {
  return arrivalLabelWords(label);
}

interface Previous {
  digest: string;
  attempt: number;
  /** The status answered; null when none was (held, dropped, cut short). */
  answered: number | null;
}

const CAPACITY = 50_000;

function answerText(status: number | null): string {
  return status === null ? 'got no answer' : `was answered ${String(status)}`;
}

export class RetryLabels {
  readonly #previous = new Map<string, Previous>();

  /**
   * Label one arrival and remember it. `answered` is the status this arrival is answered with
   * (null when it gets none), for the label of the next one.
   */
  observe(
    path: string,
    event: string | null,
    objectId: string | null,
    body: Buffer,
    answered: number | null,
  ): ArrivalLabel | null {
    if (event === null || objectId === null) return null;
    const key = `${path}\n${event}\n${objectId}`;
    const digest = createHash('sha256').update(body).digest('base64');
    const previous = this.#previous.get(key);
    let label: ArrivalLabel;
    if (previous === undefined) {
      label = {
        kind: 'new_event',
        attempt: 1,
        basis: 'first arrival of it since the listener started',
        source: 'listener',
      };
    } else if (previous.digest !== digest) {
      label = {
        kind: 'new_event',
        attempt: 1,
        basis: "its body differs from the previous arrival's",
        source: 'listener',
      };
    } else if (previous.answered !== null && previous.answered >= 200 && previous.answered < 300) {
      label = {
        kind: 'new_event',
        attempt: 1,
        basis: `the previous arrival ${answerText(previous.answered)}`,
        source: 'listener',
      };
    } else {
      label = {
        kind: 'retry',
        attempt: previous.attempt + 1,
        basis: `same body as the previous arrival, which ${answerText(previous.answered)}`,
        source: 'listener',
      };
    }
    // Re-inserted so the map's order is recency: the oldest entry goes first when it is full.
    this.#previous.delete(key);
    this.#previous.set(key, { digest, attempt: label.attempt, answered });
    if (this.#previous.size > CAPACITY) {
      const oldest = this.#previous.keys().next();
      if (oldest.done !== true) this.#previous.delete(oldest.value);
    }
    return label;
  }

  reset(): void {
    this.#previous.clear();
  }
}

/** `attempt 3 (…)`, `new event (…)`, `replay of request 12`, for a request line. */
export function describeLabel(label: ArrivalLabel): string {
  if (label.kind === 'replay' || label.kind === 'edited_replay') {
    return `${labelWords(label)} of request ${String(label.replayOf ?? '?')}`;
  }
  const who = label.source === 'bank' ? 'bank' : 'by body';
  return `${labelWords(label)} (${who}: ${label.basis})`;
}
