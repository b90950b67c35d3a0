/**
 * Shortcuts that work on every screen: Ctrl/Cmd+K the palette, / the screen's search field,
 * G then a letter to go to a screen (G P pending transactions, G W webhooks…).
 */
import { isTypingTarget, setChordPending } from '../lib/keyboard.ts';
import { SCREENS } from '../lib/screens.ts';
import { useNavigationStore } from '../stores/navigation.ts';

export function installGlobalKeys(): () => void {
  let awaitingScreen = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const listener = (event: KeyboardEvent): void => {
    const navigation = useNavigationStore.getState();
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'k') {
      event.preventDefault();
      navigation.setPaletteOpen(!navigation.paletteOpen);
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return;
    if (isTypingTarget(event.target) || navigation.paletteOpen) return;
    if (document.querySelector('[role="dialog"][aria-modal="true"]') !== null) return;
    if (awaitingScreen) {
      awaitingScreen = false;
      setChordPending(false);
      clearTimeout(timer);
      const screen = SCREENS.find((entry) => entry.key === event.key.toLowerCase());
      if (screen !== undefined) {
        event.preventDefault();
        navigation.navigate(screen.id);
      }
      return;
    }
    if (event.key === '/') {
      const search = document.querySelector<HTMLInputElement>('[data-search]');
      if (search !== null) {
        event.preventDefault();
        search.focus();
        search.select();
      }
      return;
    }
    if (event.key === 'g') {
      awaitingScreen = true;
      setChordPending(true);
      timer = setTimeout(() => {
        awaitingScreen = false;
        setChordPending(false);
      }, 1200);
    }
  };
  window.addEventListener('keydown', listener);
  return () => {
    window.removeEventListener('keydown', listener);
    clearTimeout(timer);
    setChordPending(false);
  };
}
