/** Window bounds are remembered, and never restored off-screen. */
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BOUNDS,
  restoreBounds,
  trackWindowState,
  type WindowBounds,
} from '../../../src/main/electron/windowState.ts';

const screen = [{ x: 0, y: 0, width: 1920, height: 1080 }];

describe('restoreBounds', () => {
  it('restores saved bounds that are on a display', () => {
    expect(restoreBounds({ x: 100, y: 50, width: 1200, height: 700, maximized: true }, screen)).toEqual({
      x: 100,
      y: 50,
      width: 1200,
      height: 700,
      maximized: true,
    });
  });

  it('keeps the size but drops a position on a display that is gone', () => {
    expect(restoreBounds({ x: 4000, y: 50, width: 1200, height: 700 }, screen)).toEqual({
      width: 1200,
      height: 700,
      maximized: false,
    });
  });

  it('shrinks a size larger than every display', () => {
    expect(restoreBounds({ x: 0, y: 0, width: 5000, height: 3000 }, screen)).toMatchObject({
      width: 1920,
      height: 1080,
    });
  });

  it.each([
    null,
    'x',
    {},
    { width: 'wide', height: 700 },
    { width: 10, height: 10 },
    { width: Number.NaN, height: 700 },
  ])('falls back to the defaults for %s', (saved) => {
    expect(restoreBounds(saved, screen)).toEqual(DEFAULT_BOUNDS);
  });
});

describe('trackWindowState', () => {
  it('saves after moves and resizes, and on close', () => {
    const listeners = new Map<string, () => void>();
    const saved: WindowBounds[] = [];
    const scheduled: (() => void)[] = [];
    trackWindowState(
      {
        getNormalBounds: () => ({ x: 1, y: 2, width: 1000, height: 700 }),
        isMaximized: () => false,
        on: (event, listener) => listeners.set(event, listener),
      },
      { load: () => null, save: (bounds) => saved.push(bounds) },
      (callback) => {
        scheduled.push(callback);
        return { cancel: () => undefined };
      },
    );
    listeners.get('resize')?.();
    listeners.get('move')?.();
    expect(saved).toEqual([]);
    scheduled.at(-1)?.();
    listeners.get('close')?.();
    expect(saved).toEqual([
      { x: 1, y: 2, width: 1000, height: 700, maximized: false },
      { x: 1, y: 2, width: 1000, height: 700, maximized: false },
    ]);
  });
});
