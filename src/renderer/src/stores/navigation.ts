/**
 * Which screen is shown: kept in the URL hash (#/webhooks), so reloading keeps the place
 * and tests can open a screen directly.
 */
import { create } from 'zustand';
import { DEFAULT_SCREEN, screenOf, type ScreenId } from '../lib/screens.ts';

function screenFromHash(): ScreenId {
  const id = location.hash.replace(/^#\/?/, '').split('?')[0] ?? '';
  return screenOf(id)?.id ?? DEFAULT_SCREEN;
}

interface NavigationState {
  screen: ScreenId;
  navigate: (screen: ScreenId) => void;
  paletteOpen: boolean;
  setPaletteOpen: (open: boolean) => void;
}

export const useNavigationStore = create<NavigationState>((set) => ({
  screen: screenFromHash(),
  navigate(screen) {
    if (location.hash !== `#/${screen}`) location.hash = `#/${screen}`;
    set({ screen });
  },
  paletteOpen: false,
  setPaletteOpen(paletteOpen) {
    set({ paletteOpen });
  },
}));

export function installNavigation(): () => void {
  const listener = (): void => {
    useNavigationStore.setState({ screen: screenFromHash() });
  };
  window.addEventListener('hashchange', listener);
  return () => {
    window.removeEventListener('hashchange', listener);
  };
}
