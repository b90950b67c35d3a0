/** A list being synced is read again as rows arrive, at most once per interval, and not while nothing moves. */
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useReloadWhileSyncing } from '../../../src/renderer/src/lib/useDebounced.ts';

describe('useReloadWhileSyncing', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('reads the list again while written grows, no more often than the interval, and not when idle', () => {
    const reload = vi.fn();
    const { rerender } = renderHook(
      ({ running, written }: { running: boolean; written: number | undefined }) => {
        useReloadWhileSyncing(running, written, reload, 1000);
      },
      { initialProps: { running: false, written: undefined as number | undefined } },
    );
    // Nothing running: nothing read.
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(reload).not.toHaveBeenCalled();

    // The first rows arrive: read at once (nothing was read before).
    rerender({ running: true, written: 100 });
    act(() => {
      vi.advanceTimersByTime(0);
    });
    expect(reload).toHaveBeenCalledTimes(1);

    // More rows soon after: one read, after the interval, not one per change.
    rerender({ running: true, written: 200 });
    rerender({ running: true, written: 300 });
    act(() => {
      vi.advanceTimersByTime(500);
    });
    expect(reload).toHaveBeenCalledTimes(1);
    act(() => {
      vi.advanceTimersByTime(600);
    });
    expect(reload).toHaveBeenCalledTimes(2);

    // The count stands still: no further reads.
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(reload).toHaveBeenCalledTimes(2);

    // The job ends (its own done transition reloads the list): nothing more from here.
    rerender({ running: false, written: 300 });
    act(() => {
      vi.advanceTimersByTime(5000);
    });
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
