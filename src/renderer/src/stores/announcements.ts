/**
 * Sentences for screen readers only, where the screen already shows what happened (a row's
 * badge changed, the active row moved): "Escalated WIRE IN GLOBEX CORP. Now on MONTHLY
 * MAINTENANCE FEE." A toast would show the same thing a second time and cover the page, so
 * these go to one polite status region (components/Announcer.tsx) and nowhere else.
 */
import { create } from 'zustand';

interface AnnouncementState {
  /** The sentence being said; `serial` changes even when the same sentence is said again. */
  text: string;
  serial: number;
  announce: (text: string) => void;
}

export const useAnnouncements = create<AnnouncementState>((set, get) => ({
  text: '',
  serial: 0,
  announce(text) {
    set({ text, serial: get().serial + 1 });
  },
}));

export function announce(text: string): void {
  useAnnouncements.getState().announce(text);
}
