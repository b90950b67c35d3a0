/** Window bounds kept with electron-store (window-state.json in the app data folder). */
import Store from 'electron-store';
import type { WindowBounds, WindowStateStore } from './windowState.ts';

export function openWindowStateStore(): WindowStateStore {
  const store = new Store<{ bounds?: WindowBounds }>({ name: 'window-state' });
  return {
    load: () => store.get('bounds'),
    save: (bounds) => {
      store.set('bounds', bounds);
    },
  };
}
