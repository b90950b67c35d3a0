/**
 * Whether c, f and e move on by themselves to the next item that needs a person (issue 38: a
 * visible setting, Settings › Review, on by default, said in the README). Off, the keyboard stays
 * on the item just reviewed, so "j then c" reviews every row, not every other one. A preference of
 * this machine (localStorage), like the theme: no data.
 */
import { create } from 'zustand';

const STORAGE_KEY = 'ledgerdesk.review.moveOn';

function stored(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) !== 'off';
  } catch {
    return true;
  }
}

interface MoveOnState {
  moveOn: boolean;
  setMoveOn: (moveOn: boolean) => void;
}

export const useMoveOnPreference = create<MoveOnState>((set) => ({
  moveOn: stored(),
  setMoveOn(moveOn) {
    set({ moveOn });
    try {
      localStorage.setItem(STORAGE_KEY, moveOn ? 'on' : 'off');
    } catch {
      // A preference: without storage the choice lasts until the window closes.
    }
  },
}));
