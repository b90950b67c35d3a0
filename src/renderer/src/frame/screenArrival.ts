/**
 * Arriving on a screen: the window title names it ("Webhooks — Ledgerdesk", what the OS task
 * switcher and a screen reader's window list show), and after a change of screen (palette,
 * G-keys, sidebar, back/forward) focus moves to its heading, so a screen reader announces
 * where you are and Tab continues from the top of the new screen. The first screen shown at
 * start keeps focus where the window puts it. A screen whose chunk is still being fetched
 * (screenViews.tsx) gets its focus once it is drawn: ScreenArrived, drawn with it, gives it.
 */
import { useEffect, useRef } from 'react';
import { screenLanding } from '../components/focus/focusTargets.ts';
import { screenOf, type ScreenId } from '../lib/screens.ts';

function windowTitle(screen: ScreenId): string {
  return `${screenOf(screen)?.label ?? 'Ledgerdesk'} — Ledgerdesk`;
}

/** The screen still owed its arrival's focus (its chunk was loading when it was chosen), or null. */
export type OwedArrival = ScreenId | null;

/** Whether the current screen is still its "Opening…" state (ScreenLoading.tsx). */
function stillLoading(): boolean {
  return document.querySelector('#screen [data-screen-loading]') !== null;
}

export function useScreenArrival(screen: ScreenId, owed: { current: OwedArrival }): void {
  const first = useRef(true);
  useEffect(() => {
    document.title = windowTitle(screen);
    if (first.current) {
      first.current = false;
      return;
    }
    // A parent's effect runs after its children's: a screen drawn at once is in the page now.
    if (stillLoading()) owed.current = screen;
    else {
      owed.current = null;
      screenLanding()?.focus({ preventScroll: true });
    }
  }, [screen, owed]);
}

/** Drawn beside a screen, inside its Suspense: its effect runs once the screen itself is drawn. */
export function ScreenArrived({ screen, owed }: { screen: ScreenId; owed: { current: OwedArrival } }): null {
  useEffect(() => {
    if (owed.current !== screen) return;
    owed.current = null;
    screenLanding()?.focus({ preventScroll: true });
  }, [screen, owed]);
  return null;
}
