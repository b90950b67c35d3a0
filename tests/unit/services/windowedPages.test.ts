/**
 * Walking windows side by side (windowedPages.ts) and pacing the requests (requestPacer.ts):
 * every window's pages yielded once, in each window's order, the last one marked `final`;
 * fetched pages waiting for the consumer bounded; a failure yields what was fetched, then
 * throws; a 429 halves the requests at once and holds them back for its Retry-After, calm
 * rounds raise them again one at a time. Page sources and clock are stand-ins; the real bank
 * and cache are in tests/integration/services/windowedSync.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Page } from '../../../src/main/services/bank/bankClient.ts';
import { BankError } from '../../../src/main/services/bank/bankError.ts';
import type { WindowCheckpoint } from '../../../src/main/services/cache/syncWindowCheckpoints.ts';
import { RequestPacer, type PacerClock } from '../../../src/main/services/sync/requestPacer.ts';
import { windowedPages, type WindowPage } from '../../../src/main/services/sync/windowedPages.ts';

function windowOf(index: number, extra: Partial<WindowCheckpoint> = {}): WindowCheckpoint {
  return {
    index,
    weight: 1,
    spanFrom: '2024-01-01',
    spanTo: '2024-02-01',
    cursor: null,
    done: false,
    fetched: 0,
    written: 0,
    ...extra,
  };
}

/** A clock that never waits: sleeping moves time on. */
function fakeClock(): PacerClock & { slept: number[] } {
  let time = 0;
  const slept: number[] = [];
  return {
    slept,
    now: () => time,
    sleep: (ms) => {
      slept.push(ms);
      time += ms;
      return Promise.resolve();
    },
  };
}

/** Window i has sizes[i] pages of items `${i}:${n}`; cursors are page numbers. */
function pagesOfSizes(sizes: readonly number[], delay: () => Promise<void> = () => Promise.resolve()) {
  const started: { window: number; after: string | null }[] = [];
  const pagesOf = (window: WindowCheckpoint, after: string | null): AsyncIterator<Page<string>> => {
    started.push({ window: window.index, after });
    let next = after === null ? 0 : Number(after);
    const total = sizes[window.index] ?? 1;
    return {
      next: async () => {
        await delay();
        const page = next;
        next += 1;
        const last = page + 1 >= total;
        return {
          done: false,
          value: { items: [`${String(window.index)}:${String(page)}`], nextCursor: last ? null : String(page + 1) },
        };
      },
      return: () => Promise.resolve({ done: true, value: undefined }),
    };
  };
  return { pagesOf, started };
}

async function collect<Item>(stream: AsyncIterable<WindowPage<Item>>): Promise<WindowPage<Item>[]> {
  const pages: WindowPage<Item>[] = [];
  for await (const page of stream) pages.push(page);
  return pages;
}

describe('windowedPages', () => {
  it('yields every page of every window once, each window in order, the very last one final', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 8 }),
        fc.integer({ min: 1, max: 4 }),
        async (sizes, walkers, pagesAhead) => {
          const { pagesOf } = pagesOfSizes(sizes, () => new Promise((resolve) => setImmediate(resolve)));
          const pages = await collect(
            windowedPages(
              sizes.map((_, index) => windowOf(index)),
              pagesOf,
              {
                pacer: new RequestPacer(walkers, fakeClock()),
                walkers,
                pagesAhead,
                signal: new AbortController().signal,
              },
            ),
          );
          const items = pages.flatMap((page) => page.items);
          expect(new Set(items).size).toBe(items.length);
          expect(items.length).toBe(sizes.reduce((sum, size) => sum + size, 0));
          sizes.forEach((_, window) => {
            const own = pages.filter((page) => page.window === window).map((page) => page.items[0]);
            expect(own).toEqual(own.map((_item, n) => `${String(window)}:${String(n)}`));
          });
          expect(pages.filter((page) => page.final)).toHaveLength(1);
          expect(pages.at(-1)?.final).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('resumes each window from its own cursor and skips the windows already done', async () => {
    const { pagesOf, started } = pagesOfSizes([3, 3, 3]);
    const pages = await collect(
      windowedPages(
        [windowOf(0, { done: true }), windowOf(1, { cursor: '2' }), windowOf(2, { cursor: '1' })],
        pagesOf,
        {
          pacer: new RequestPacer(4, fakeClock()),
          walkers: 4,
          pagesAhead: 2,
          signal: new AbortController().signal,
        },
      ),
    );
    expect(started.sort((a, b) => a.window - b.window)).toEqual([
      { window: 1, after: '2' },
      { window: 2, after: '1' },
    ]);
    expect(pages.map((page) => page.items[0]).sort()).toEqual(['1:2', '2:1', '2:2']);
    expect(pages.at(-1)?.final).toBe(true);
  });

  it('never holds more fetched pages than pagesAhead plus one a walker while the consumer is slow', async () => {
    let fetched = 0;
    let consumed = 0;
    let most = 0;
    const { pagesOf } = pagesOfSizes([20, 20, 20, 20], () => {
      fetched += 1;
      return Promise.resolve();
    });
    for await (const page of windowedPages(
      [0, 1, 2, 3].map((index) => windowOf(index)),
      pagesOf,
      {
        pacer: new RequestPacer(4, fakeClock()),
        walkers: 4,
        pagesAhead: 3,
        signal: new AbortController().signal,
      },
    )) {
      consumed += page.items.length;
      most = Math.max(most, fetched - consumed);
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    expect(consumed).toBe(80);
    expect(most).toBeLessThanOrEqual(3 + 4);
  });

  it('yields the pages fetched before a failure, then throws it, and stops the other walkers', async () => {
    const failing = (window: WindowCheckpoint): AsyncIterator<Page<string>> => {
      let page = 0;
      return {
        next: () => {
          page += 1;
          if (window.index === 1 && page === 2) return Promise.reject(new Error('the bank broke'));
          return new Promise((resolve) =>
            setImmediate(() => {
              resolve({
                done: false,
                value: { items: [`${String(window.index)}:${String(page)}`], nextCursor: 'more' },
              });
            }),
          );
        },
        return: () => Promise.resolve({ done: true, value: undefined }),
      };
    };
    const seen: string[] = [];
    const stream = windowedPages([windowOf(0), windowOf(1)], failing, {
      pacer: new RequestPacer(2, fakeClock()),
      walkers: 2,
      pagesAhead: 2,
      signal: new AbortController().signal,
    });
    await expect(
      (async () => {
        for await (const page of stream) seen.push(...page.items);
      })(),
    ).rejects.toThrow('the bank broke');
    expect(seen).toContain('1:1');
  });

  it('walks on from the last page kept when the bank still answers 429 after its retries', async () => {
    let refusals = 0;
    const clock = fakeClock();
    const pacer = new RequestPacer(4, clock);
    const starts: (string | null)[] = [];
    const limited = (_window: WindowCheckpoint, after: string | null): AsyncIterator<Page<string>> => {
      starts.push(after);
      let page = after === null ? 0 : Number(after);
      return {
        next: () => {
          if (page === 2 && refusals < 2) {
            refusals += 1;
            return Promise.reject(
              new BankError({
                kind: 'rate-limited',
                endpoint: 'GET /x',
                profileName: 'p',
                status: 429,
                serverMessage: null,
                retryable: true,
                remedy: 'later',
                attempts: 5,
                retryAfterSeconds: 2,
              }),
            );
          }
          const value = { items: [String(page)], nextCursor: page >= 3 ? null : String(page + 1) };
          page += 1;
          return Promise.resolve({ done: false, value });
        },
        return: () => Promise.resolve({ done: true, value: undefined }),
      };
    };
    const pages = await collect(
      windowedPages([windowOf(0)], limited, { pacer, walkers: 1, pagesAhead: 2, signal: new AbortController().signal }),
    );
    expect(pages.map((page) => page.items[0])).toEqual(['0', '1', '2', '3']);
    expect(starts).toEqual([null, '2', '2']);
    expect(clock.slept.filter((ms) => ms >= 2000)).toHaveLength(2);
    expect(pacer.state().throttled).toBe(2);
  });

  it('stops every walker when the sync is cancelled', async () => {
    const controller = new AbortController();
    const { pagesOf } = pagesOfSizes([100, 100, 100], () => new Promise((resolve) => setImmediate(resolve)));
    let seen = 0;
    const stream = windowedPages(
      [0, 1, 2].map((index) => windowOf(index)),
      pagesOf,
      {
        pacer: new RequestPacer(3, fakeClock()),
        walkers: 3,
        pagesAhead: 2,
        signal: controller.signal,
      },
    );
    await expect(
      (async () => {
        for await (const page of stream) {
          seen += page.items.length;
          if (seen === 5) controller.abort(new Error('cancelled by the user'));
        }
      })(),
    ).rejects.toThrow('cancelled by the user');
    expect(seen).toBeLessThan(20);
  });
});

describe('RequestPacer (AIMD)', () => {
  it('halves on a 429, once for the requests already out, and raises by one per calm round', async () => {
    const clock = fakeClock();
    const pacer = new RequestPacer(8, clock);
    const sent = await Promise.all(Array.from({ length: 8 }, () => pacer.acquire()));
    expect(pacer.state()).toMatchObject({ limit: 8, active: 8 });
    // All eight were out when the bank started refusing: one decrease, not eight.
    for (const at of sent) pacer.throttled(1000, at);
    expect(pacer.state().limit).toBe(4);
    for (let index = 0; index < 8; index += 1) pacer.release();
    // New requests wait for the Retry-After.
    await pacer.acquire();
    expect(clock.slept).toEqual([1000]);
    pacer.release();
    // A calm round (as many answers as the limit) raises it by one.
    for (let index = 0; index < 4; index += 1) pacer.succeeded();
    expect(pacer.state().limit).toBe(5);
    for (let index = 0; index < 4; index += 1) pacer.succeeded();
    expect(pacer.state().limit).toBe(5);
    pacer.succeeded();
    expect(pacer.state().limit).toBe(6);
    // A 429 to a request sent after the decrease halves again; never below one.
    for (let round = 0; round < 6; round += 1) pacer.throttled(null, clock.now() + 1);
    expect(pacer.state().limit).toBe(1);
  });

  it('lets no more than the limit out at once, and wakes a waiter when one answers', async () => {
    const pacer = new RequestPacer(2, fakeClock());
    await pacer.acquire();
    await pacer.acquire();
    let third = false;
    const waiting = pacer.acquire().then(() => {
      third = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(third).toBe(false);
    pacer.release();
    await waiting;
    expect(third).toBe(true);
  });

  it('refuses a parallelism that is not a whole number from 1', () => {
    expect(() => new RequestPacer(0, fakeClock())).toThrow(/parallelism/);
    expect(() => new RequestPacer(1.5, fakeClock())).toThrow(/parallelism/);
  });
});
