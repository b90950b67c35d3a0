/**
 * Window size and position, remembered across launches (electron-store behind the small
 * WindowStateStore interface). A saved position that is no longer on any display (a monitor
 * was unplugged) is dropped, keeping only the size.
 */
export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
  maximized?: boolean;
}

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowStateStore {
  load(): unknown;
  save(bounds: WindowBounds): void;
}

export const DEFAULT_BOUNDS: WindowBounds = { width: 1280, height: 800 };
const MIN_WIDTH = 900;
const MIN_HEIGHT = 600;

function isWhole(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

function overlaps(bounds: Rectangle, area: Rectangle, margin: number): boolean {
  return (
    bounds.x + margin < area.x + area.width &&
    bounds.x + bounds.width - margin > area.x &&
    bounds.y + margin < area.y + area.height &&
    bounds.y + bounds.height - margin > area.y
  );
}

/** The bounds to open with: the saved ones when still sensible, else the defaults. */
export function restoreBounds(saved: unknown, workAreas: readonly Rectangle[]): WindowBounds {
  if (typeof saved !== 'object' || saved === null) return { ...DEFAULT_BOUNDS };
  const candidate = saved as Record<string, unknown>;
  const width = candidate['width'];
  const height = candidate['height'];
  if (!isWhole(width) || !isWhole(height) || width < MIN_WIDTH || height < MIN_HEIGHT) return { ...DEFAULT_BOUNDS };
  const largest = workAreas.reduce((widest, area) => Math.max(widest, area.width), 0);
  const tallest = workAreas.reduce((highest, area) => Math.max(highest, area.height), 0);
  const size = {
    width: largest > 0 ? Math.min(width, largest) : width,
    height: tallest > 0 ? Math.min(height, tallest) : height,
  };
  const maximized = candidate['maximized'] === true;
  const x = candidate['x'];
  const y = candidate['y'];
  if (isWhole(x) && isWhole(y) && workAreas.some((area) => overlaps({ x, y, ...size }, area, 50))) {
    return { x, y, ...size, maximized };
  }
  return { ...size, maximized };
}

export interface TrackedWindow {
  getNormalBounds(): Rectangle;
  isMaximized(): boolean;
  on(event: 'resize' | 'move' | 'close', listener: () => void): unknown;
}

/** Saves the window's bounds shortly after each move or resize, and when it closes. */
export function trackWindowState(
  window: TrackedWindow,
  store: WindowStateStore,
  schedule: (callback: () => void, ms: number) => { cancel(): void } = (callback, ms) => {
    const timer = setTimeout(callback, ms);
    return {
      cancel: () => {
        clearTimeout(timer);
      },
    };
  },
): void {
  let pending: { cancel(): void } | null = null;
  const save = (): void => {
    pending = null;
    store.save({ ...window.getNormalBounds(), maximized: window.isMaximized() });
  };
  const later = (): void => {
    pending?.cancel();
    pending = schedule(save, 500);
  };
  window.on('resize', later);
  window.on('move', later);
  window.on('close', () => {
    pending?.cancel();
    save();
  });
}
