/**
 * Light or dark: the user's choice, or the system's (prefers-color-scheme) until they
 * choose. Applied as data-theme on <html>; remembered in localStorage (a preference, not data).
 */
import { create } from 'zustand';

export type ThemePreference = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

const STORAGE_KEY = 'ledgerdesk.theme';

function systemTheme(): Theme {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function storedPreference(): ThemePreference {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

function resolve(preference: ThemePreference): Theme {
  return preference === 'system' ? systemTheme() : preference;
}

function apply(theme: Theme): void {
  document.documentElement.dataset['theme'] = theme;
}

interface ThemeState {
  preference: ThemePreference;
  theme: Theme;
  setPreference: (preference: ThemePreference) => void;
  /** Flips between light and dark (the toggle in the top bar). */
  toggle: () => void;
  /** Re-reads the system setting (called when prefers-color-scheme changes). */
  systemChanged: () => void;
}

export const useThemeStore = create<ThemeState>((set, get) => ({
  preference: storedPreference(),
  theme: resolve(storedPreference()),
  setPreference(preference) {
    try {
      if (preference === 'system') localStorage.removeItem(STORAGE_KEY);
      else localStorage.setItem(STORAGE_KEY, preference);
    } catch {
      // Preferences are a convenience: without storage the choice lasts for this session.
    }
    const theme = resolve(preference);
    apply(theme);
    set({ preference, theme });
  },
  toggle() {
    get().setPreference(get().theme === 'dark' ? 'light' : 'dark');
  },
  systemChanged() {
    if (get().preference !== 'system') return;
    const theme = systemTheme();
    apply(theme);
    set({ theme });
  },
}));

/** Applies the theme at start and follows the system while the preference is "system". */
export function installTheme(): () => void {
  apply(useThemeStore.getState().theme);
  if (typeof matchMedia !== 'function') return () => undefined;
  const query = matchMedia('(prefers-color-scheme: dark)');
  const listener = (): void => {
    useThemeStore.getState().systemChanged();
  };
  query.addEventListener('change', listener);
  return () => {
    query.removeEventListener('change', listener);
  };
}
