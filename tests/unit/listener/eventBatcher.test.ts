/** Pushes are batched by time and size, and the buffer is bounded. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventBatcher, type Batch } from '../../../src/main/services/listener/eventBatcher.ts';

describe('EventBatcher', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('pushes once per interval, not once per event', () => {
    const batches: Batch<number>[] = [];
    const batcher = new EventBatcher<number>((batch) => batches.push(batch), { flushMs: 100, maxBatch: 1000 });
    for (let index = 0; index < 50; index += 1) batcher.add(index);
    expect(batches).toHaveLength(0);
    vi.advanceTimersByTime(100);
    expect(batches).toEqual([{ items: Array.from({ length: 50 }, (_, index) => index), dropped: 0 }]);
    vi.advanceTimersByTime(1000);
    expect(batches).toHaveLength(1);
  });

  it('pushes a full batch at once, and never more than maxBatch in one push', () => {
    const batches: Batch<number>[] = [];
    const batcher = new EventBatcher<number>((batch) => batches.push(batch), { flushMs: 100, maxBatch: 10 });
    for (let index = 0; index < 25; index += 1) batcher.add(index);
    expect(batches.map((batch) => batch.items.length)).toEqual([10, 10]);
    batcher.flush();
    expect(batches.map((batch) => batch.items.length)).toEqual([10, 10, 5]);
  });

  it('drops the oldest past maxBuffered and says how many', () => {
    const batches: Batch<number>[] = [];
    const batcher = new EventBatcher<number>((batch) => batches.push(batch), {
      flushMs: 100,
      maxBatch: 1000,
      maxBuffered: 5,
    });
    for (let index = 0; index < 12; index += 1) batcher.add(index);
    expect(batcher.pending).toBe(5);
    batcher.flush();
    expect(batches).toEqual([{ items: [7, 8, 9, 10, 11], dropped: 7 }]);
  });
});
