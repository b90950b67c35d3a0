/**
 * Arriving on a screen: the window title names it ("Webhooks — Ledgerdesk", what the OS task
 * switcher and a screen reader's window list show), and after a change of screen (palette,
 * G-keys, sidebar, back/forward) focus moves to its heading, so a screen reader announces
 * where you are and Tab continues from the top of the new screen. The first screen shown at
 * start keeps focus where the window puts it.
 */
import { useEffect, useRef } from 'react';
import { screenLanding } from '../components/focus/focusTargets.ts';
import { screenOf, type ScreenId } from '../lib/screens.ts';

function windowTitle(screen: ScreenId): string {
  return `${screenOf(screen)?.label ?? 'Ledgerdesk'} — Ledgerdesk`;
}

export function useScreenArrival(screen: ScreenId): void {
  const first = useRef(true);
  useEffect(() => {
    document.title = windowTitle(screen);
    if (first.current) {
      first.current = false;
      return;
    }
    screenLanding()?.focus({ preventScroll: true });
  }, [screen]);
}
