/**
 * How a sync hands its pages to the cache writer (pageWriter.ts): at once while the writer is
 * idle, gathered while it is busy (never more than GROUP_PAGES at a time), committed in page
 * order, and after a page that cannot be written, only the pages before it reported. The
 * writer here is a recording stand-in whose commits finish when the test says so; the real
 * writer's grouping is covered by writeBatch's tests and the sync integration tests.
 */
import { describe, expect, it } from 'vitest';
import type { Page } from '../../../src/main/services/bank/bankClient.ts';
import type { CacheWriter } from '../../../src/main/services/cache/cacheWriter.ts';
import type { GroupOutcome, WriteBatch } from '../../../src/main/services/cache/writeBatch.ts';
import {
  GROUP_PAGES,
  UncommittedKeys,
  writePages,
  type PageSteps,
} from '../../../src/main/services/sync/pageWriter.ts';

/** A writer whose groups finish only when `finish()` is called, recording the pages of each group. */
class HeldWriter implements CacheWriter {
  readonly runs: string[][] = [];
  readonly #pending: { resolve: (outcome: GroupOutcome) => void; pages: WriteBatch[][] }[] = [];
  /** The next group of several pages keeps only this many of them, then fails (a full disk). */
  keepOfNextGroup: number | null = null;

  run(batches: WriteBatch[]): Promise<number[]> {
    return this.runGroup([batches]).then((outcome) => outcome.kept[0] ?? []);
  }

  runGroup(pages: WriteBatch[][]): Promise<GroupOutcome> {
    this.runs.push(
      pages.flatMap((batches) => batches.map((batch) => batch.sql).filter((sql) => sql.startsWith('page '))),
    );
    // A copy, as the worker's message is: the caller may let go of its plans at once.
    const copied = pages.map((batches) => [...batches]);
    return new Promise((resolve) => {
      this.#pending.push({ resolve, pages: copied });
    });
  }

  /** Finishes the oldest group (keeping only part of it when told to). */
  finish(): boolean {
    const run = this.#pending.shift();
    if (run === undefined) return false;
    const all = run.pages.map((batches) => batches.map(() => 1));
    if (this.keepOfNextGroup !== null && run.pages.length > 1) {
      const kept = all.slice(0, this.keepOfNextGroup);
      this.keepOfNextGroup = null;
      run.resolve({ kept, error: new Error('database or disk is full') });
    } else {
      run.resolve({ kept: all });
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
  it('sends a page at once while the writer is idle, and gathers pages while it is busy', async () => {
    const writer = new HeldWriter();
    // Page 0 is written while pages 1 to 5 arrive; they then go together.
    const { done, written } = startWriting(writer, 6, settle);
    for (let turn = 0; turn < 20; turn += 1) await settle();
    // Every page has arrived; only page 0 went, the others wait for the writer.
    expect(writer.runs).toEqual([['page 0']]);
    expect(written).toEqual([]);
    expect(writer.finish()).toBe(true);
    await settle();
    expect(writer.runs).toEqual([['page 0'], ['page 1', 'page 2', 'page 3', 'page 4', 'page 5']]);
    expect(writer.finish()).toBe(true);
    await done;
    expect(written).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('never gathers more than GROUP_PAGES pages: the sync waits for the writer instead', async () => {
    const writer = new HeldWriter();
    const pages = GROUP_PAGES * 3 + 2;
    const { done, written } = startWriting(writer, pages, () => Promise.resolve());
    await finishEachRunLate(writer);
    await done;
    expect(Math.max(...writer.runs.map((run) => run.length))).toBe(GROUP_PAGES);
    expect(writer.runs.flat()).toEqual(Array.from({ length: pages }, (_, index) => `page ${String(index)}`));
    expect(written).toEqual(Array.from({ length: pages }, (_, index) => index));
  });

  it('reports the pages the writer kept of a failed group, in order, and fails without going on', async () => {
    const writer = new HeldWriter();
    writer.keepOfNextGroup = 2;
    const { done, written } = startWriting(writer, 8, settle);
    for (let turn = 0; turn < 20; turn += 1) await settle();
    expect(writer.finish()).toBe(true);
    await settle();
    // Pages 1 to 7 went as one group; the writer keeps 1 and 2 and cannot write 3.
    expect(writer.finish()).toBe(true);
    await expect(done).rejects.toThrow('database or disk is full');
    expect(writer.runs).toEqual([['page 0'], ['page 1', 'page 2', 'page 3', 'page 4', 'page 5', 'page 6', 'page 7']]);
    expect(written).toEqual([0, 1, 2]);
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
