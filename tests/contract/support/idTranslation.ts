/**
 * The recordings name objects of the real sandbox (`aact_11gbjqe62kxkfp`); replayed against
 * our sandbox, each id must name the object that plays its part here. Two kinds:
 * - ids the replay itself creates: an answer that made an object maps the recorded id to the
 *   sandbox's (the webhook a recorded POST /webhook made is the one its recorded DELETE deletes);
 * - ids the recording found already there (the applicant of an application, the account of a
 *   transaction list): each maps to a stand-in of the same kind, arranged before the replay.
 * Strings that are not ids of a kind the sandbox keeps (`unexistant`, an `apt_` account product)
 * are sent as recorded.
 */
import { ID_PREFIX } from '../../../src/shared/bank/index.ts';

/** The kinds of object the sandbox keeps and checks, by the names of ids.ts. */
export type KeptKind =
  'account' | 'accountApplication' | 'personApplication' | 'webhook' | 'cardProduct' | 'file' | 'document';

const ID = /^([a-z]+_)[0-9a-z]+$/;

export class IdTranslation {
  readonly #created = new Map<string, string>();
  readonly #standIns: Partial<Record<string, string>>;

  /** @param standIns the sandbox object that stands in, per kind, for an object the recording found there */
  constructor(standIns: Partial<Record<KeptKind, string>>) {
    this.#standIns = {};
    for (const [kind, id] of Object.entries(standIns)) this.#standIns[ID_PREFIX[kind as KeptKind]] = id;
  }

  /** A recorded id made by a replayed answer, and the sandbox's id for that object. */
  created(recordedId: string, sandboxId: string): void {
    this.#created.set(recordedId, sandboxId);
  }

  id(value: string): string {
    const created = this.#created.get(value);
    if (created !== undefined) return created;
    const prefix = ID.exec(value)?.[1];
    if (prefix === undefined) return value;
    return this.#standIns[prefix] ?? value;
  }

  path(path: string): string {
    return path
      .split('/')
      .map((segment) => (segment === '' ? segment : encodeURIComponent(this.id(decodeURIComponent(segment)))))
      .join('/');
  }

  body(value: unknown): unknown {
    if (typeof value === 'string') return this.id(value);
    if (Array.isArray(value)) return value.map((element) => this.body(element));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([name, element]) => [name, this.body(element)]));
    }
    return value;
  }
}
