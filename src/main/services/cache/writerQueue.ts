/**
 * How the cache writer takes its work. A sync hands each page to the writer as soon as it is
 * planned, tagged with the sync's stream; the writer writes the pages of one stream that are
 * already queued when it gets to them as one transaction (GROUP_PAGES at most). So a group
 * grows exactly when the writer is the slower side (when grouping pays: a commit costs about
 * as much as a page's inserts), and the sync never holds planned pages in its heap waiting
 * for the writer: they wait serialized, outside the collector's reach.
 *
 * Order is what keeps a crash or a full disk harmless: a page carries its checkpoint, so a
 * page must never be kept without the pages before it. When a page of a stream cannot be
 * written, it and every later page of that stream are refused with the same error, including
 * pages that arrive afterwards (the sync learns of the failure only when the reply arrives).
 */
import { sqliteCodeOf } from './cacheError.ts';
import type { GroupOutcome, WriteBatch } from './writeBatch.ts';

/** Pages per transaction at most: bounds what a failed write redoes, and a transaction's size. */
export const GROUP_PAGES = 16;

/** Streams remembered as failed: a sync stops sending soon after its failure, so a few suffice. */
const FAILED_STREAMS_KEPT = 64;

export interface WriteMessage {
  id: number;
  pages: WriteBatch[][];
  /** The sync the pages belong to, in order; without one, a message stands alone. */
  stream?: number;
}

/** The writer's answer to a message: what was kept, and why the rest was not. */
export interface WriterReply {
  id: number;
  kept: number[][];
  error?: { message: string; errcode: number | null };
}

export class WriterQueue {
  readonly #execute: (pages: WriteBatch[][]) => GroupOutcome;
  /** Failed streams and their error, oldest first. */
  readonly #failed = new Map<number, WriterReply['error']>();

  constructor(execute: (pages: WriteBatch[][]) => GroupOutcome) {
    this.#execute = execute;
  }

  /** Whether `next` may join a group that `first` started. */
  static joins(first: WriteMessage, next: WriteMessage, pagesSoFar: number): boolean {
    return first.stream !== undefined && next.stream === first.stream && pagesSoFar + next.pages.length <= GROUP_PAGES;
  }

  /** Writes the messages (one stream's, in order) as one group; one reply each, in order. */
  run(group: readonly WriteMessage[]): WriterReply[] {
    const stream = group[0]?.stream;
    const refused = stream === undefined ? undefined : this.#failed.get(stream);
    if (refused !== undefined) return group.map((message) => ({ id: message.id, kept: [], error: refused }));
    const outcome = this.#execute(group.flatMap((message) => message.pages));
    const error =
      outcome.error === undefined
        ? undefined
        : { message: outcome.error.message, errcode: sqliteCodeOf(outcome.error) };
    if (error !== undefined && stream !== undefined) this.#remember(stream, error);
    let offset = 0;
    return group.map((message) => {
      const kept = outcome.kept.slice(offset, offset + message.pages.length);
      offset += message.pages.length;
      return kept.length === message.pages.length || error === undefined
        ? { id: message.id, kept }
        : { id: message.id, kept, error };
    });
  }

  #remember(stream: number, error: WriterReply['error']): void {
    this.#failed.set(stream, error);
    for (const oldest of this.#failed.keys()) {
      if (this.#failed.size <= FAILED_STREAMS_KEPT) break;
      this.#failed.delete(oldest);
    }
  }
}
