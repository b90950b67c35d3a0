/**
 * How a sync hands its pages to the cache writer (pageWriter.ts): each page at once, in
 * order, tagged with the sync's stream; never more than IN_FLIGHT_PAGES waiting for the
 * writer; reported written in page order; and after a page the writer could not keep, only
 * the pages before it reported. The writer here is a stand-in whose answers come when the
 * test says so, and which refuses a stream's pages after a failure as the real one does; the
 * real writer's grouping is covered by writerQueue's tests and the sync integration tests.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from '../../../src/main/services/bank/bankClient.ts';
import type { CacheWriter } from '../../../src/main/services/cache/cacheWriter.ts';
import type { GroupOutcome, WriteBatch } from '../../../src/main/services/cache/writeBatch.ts';
import {
  IN_FLIGHT_PAGES,
  UncommittedKeys,
  writePages,
  type PageSteps,
} from '../../../src/main/services/sync/pageWriter.ts';

/** A writer whose answers come only when `finish()` is called, recording each page it is given. */
class HeldWriter implements CacheWriter {
  /** The pages given, with their stream. */
  readonly given: { page: string; stream: number | undefined }[] = [];
  readonly #pending: { resolve: (outcome: GroupOutcome) => void; pages: WriteBatch[][]; stream?: number }[] = [];
  readonly #failedStreams = new Set<number>();
  /** The page (by its sql) that cannot be written. */
  failAt: string | null = null;
  /** The most pages given and not yet answered, at any moment. */
  mostWaiting = 0;

  run(batches: WriteBatch[]): Promise<number[]> {
    return this.runGroup([batches]).then((outcome) => outcome.kept[0] ?? []);
  }

  runGroup(pages: WriteBatch[][], stream?: number): Promise<GroupOutcome> {
    for (const batches of pages) {
      for (const batch of batches) if (batch.sql.startsWith('page ')) this.given.push({ page: batch.sql, stream });
    }
    // A copy, as the worker's message is: the caller may let go of its plans at once.
    const copied = pages.map((batches) => [...batches]);
    return new Promise((resolve) => {
      this.#pending.push({ resolve, pages: copied, ...(stream === undefined ? {} : { stream }) });
      this.mostWaiting = Math.max(this.mostWaiting, this.#pending.length);
    });
  }

  /** Answers the oldest run: kept, or refused from the failing page on (and for the rest of its stream). */
  finish(): boolean {
    const run = this.#pending.shift();
    if (run === undefined) return false;
    const failing = run.pages.some((batches) => batches.some((batch) => batch.sql === this.failAt));
    if (failing && run.stream !== undefined) this.#failedStreams.add(run.stream);
    if (run.stream !== undefined && this.#failedStreams.has(run.stream)) {
      run.resolve({ kept: [], error: new Error('database or disk is full') });
    } else {
      run.resolve({ kept: run.pages.map((batches) => batches.map(() => 1)) });
    }
    return true;
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

function pagesOf(count: number, produced: () => Promise<void>): AsyncIterable<Page<number>> {
  return {
    async *[Symbol.asyncIterator]() {
      for (let index = 0; index < count; index += 1) {
        await produced();
        yield { items: [index], nextCursor: index === count - 1 ? null : `after ${String(index)}` };
      }
    },
  };
}

function stepsRecording(written: number[]): PageSteps<number, true> {
  return {
    signal: new AbortController().signal,
    plan: (page) => ({
      batches: [{ sql: `page ${String(page.items[0])}`, rows: [] }],
      added: page.items[0] ?? -1,
      keys: new Map([[`key ${String(page.items[0])}`, true]]),
    }),
    advance: () => ({ sql: 'checkpoint', rows: [] }),
    last: () => [{ sql: 'done', rows: [] }],
    // `added` is the page's number here, so the order of onWritten shows the order of commits.
    onWritten: (added) => {
      written.push(added);
    },
  };
}

/** Finishes the writer's runs one by one, each only after the sync has had every chance to run ahead. */
async function finishEachRunLate(writer: HeldWriter): Promise<void> {
  do {
    for (let turn = 0; turn < 40; turn += 1) await settle();
  } while (writer.finish());
}

/** Lets every queued promise callback run. */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 20; turn += 1) await Promise.resolve();
}

/** Starts writing `count` pages through `writer`; each page arrives after `produced` resolves. */
function startWriting(
  writer: HeldWriter,
  count: number,
  produced: () => Promise<void>,
): { done: Promise<unknown>; written: number[] } {
  const written: number[] = [];
  return { done: writePages(writer, pagesOf(count, produced), stepsRecording(written)), written };
}

describe('writePages', () => {
  it('hands each page to the writer as soon as it is planned, and reports them written in page order', async () => {
    const writer = new HeldWriter();
    const { done, written } = startWriting(writer, 6, settle);
    for (let turn = 0; turn < 20; turn += 1) await settle();
    // Every page went at once, none waits in the sync, all in one stream.
    expect(writer.given.map((given) => given.page)).toEqual([0, 1, 2, 3, 4, 5].map((n) => `page ${String(n)}`));
    expect(new Set(writer.given.map((given) => given.stream)).size).toBe(1);
    expect(written).toEqual([]);
    await finishEachRunLate(writer);
    await done;
    expect(written).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('gives each sync a stream of its own', async () => {
    const writer = new HeldWriter();
    const first = startWriting(writer, 2, settle);
    const second = startWriting(writer, 2, settle);
    await finishEachRunLate(writer);
    await Promise.all([first.done, second.done]);
    const streams = new Set(writer.given.map((given) => given.stream));
    expect(streams.size).toBe(2);
    expect(streams.has(undefined)).toBe(false);
  });

  it('never has more than IN_FLIGHT_PAGES pages waiting for the writer: the sync waits instead', async () => {
    const writer = new HeldWriter();
    const pages = IN_FLIGHT_PAGES * 2 + 3;
    const { done, written } = startWriting(writer, pages, () => Promise.resolve());
    await finishEachRunLate(writer);
    await done;
    expect(writer.mostWaiting).toBe(IN_FLIGHT_PAGES);
    expect(written).toEqual(Array.from({ length: pages }, (_, index) => index));
  });

  it('reports the pages kept before one the writer could not write, none after, and fails with its error', async () => {
    const writer = new HeldWriter();
    writer.failAt = 'page 3';
    const { done, written } = startWriting(writer, 8, settle);
    await finishEachRunLate(writer);
    await expect(done).rejects.toThrow('database or disk is full');
    expect(written).toEqual([0, 1, 2]);
  });

  it('fails with the error of a writer whose thread died, or of a progress report that threw', async () => {
    const died: CacheWriter = {
      run: () => Promise.reject(new Error('the writer thread exited')),
      runGroup: () => Promise.reject(new Error('the writer thread exited')),
      close: () => Promise.resolve(),
    };
    await expect(writePages(died, pagesOf(3, settle), stepsRecording([]))).rejects.toThrow('the writer thread exited');

    const writer = new HeldWriter();
    const throwing = writePages(writer, pagesOf(3, settle), {
      ...stepsRecording([]),
      onWritten: () => {
        throw new Error('progress listener failed');
      },
    });
    await finishEachRunLate(writer);
    await expect(throwing).rejects.toThrow('progress listener failed');
  });

  it('stops planning once a page could not be written', async () => {
    const writer = new HeldWriter();
    writer.failAt = 'page 0';
    const { done } = startWriting(writer, 50, async () => {
      await settle();
      writer.finish();
    });
    await finishEachRunLate(writer);
    await expect(done).rejects.toThrow('database or disk is full');
    expect(writer.given.length).toBeLessThan(50);
  });
});

describe('UncommittedKeys', () => {
  it('answers with the newest uncommitted page holding a key, and forgets a key once no uncommitted page holds it', () => {
    const keys = new UncommittedKeys<string>();
    keys.add(
      new Map([
        ['send_a', 'digest 1'],
        ['send_b', 'digest 1'],
      ]),
    );
    keys.add(new Map([['send_a', 'digest 2']]));
    expect(keys.get('send_a')).toBe('digest 2');
    expect(keys.get('send_b')).toBe('digest 1');
    expect(keys.get('send_c')).toBeUndefined();
    keys.commitOldest();
    // send_a is still held by the second page; send_b was only in the first.
    expect(keys.get('send_a')).toBe('digest 2');
    expect(keys.get('send_b')).toBeUndefined();
    keys.commitOldest();
    expect(keys.get('send_a')).toBeUndefined();
  });

  it('shows a page the keys of the pages still waiting for the writer, not of those committed', async () => {
    const writer = new HeldWriter();
    const seen: string[][] = [];
    const steps: PageSteps<number, true> = {
      ...stepsRecording([]),
      plan: (page, inFlight) => {
        seen.push(['key 0', 'key 1', 'key 2'].filter((key) => inFlight.get(key) === true));
        return {
          batches: [{ sql: `page ${String(page.items[0])}`, rows: [] }],
          added: 1,
          keys: new Map([[`key ${String(page.items[0])}`, true]]),
        };
      },
    };
    let release: () => void = () => undefined;
    let arrivals = 0;
    // Page 2 arrives only after page 0's write committed (and while page 1's waits).
    const done = writePages(
      writer,
      pagesOf(3, () => {
        arrivals += 1;
        return arrivals < 3 ? settle() : new Promise<void>((resolve) => (release = resolve));
      }),
      steps,
    );
    for (let turn = 0; turn < 20; turn += 1) await settle();
    expect(writer.finish()).toBe(true);
    await settle();
    release();
    await finishEachRunLate(writer);
    await done;
    expect(seen).toEqual([[], ['key 0'], ['key 1']]);
  });
});
