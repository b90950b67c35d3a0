/**
 * The bridge's transport over ipcRenderer. Listeners get the payload only — Electron's event
 * object (with its `sender`, a way back to ipcRenderer) never reaches the page.
 */
import type { IpcRendererEvent } from 'electron';
import type { BridgeTransport } from '../shared/ipc/bridge.ts';

/** The part of ipcRenderer the transport uses (a fake in tests). */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void): unknown;
  removeListener(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void): unknown;
}

export function ipcTransport(ipcRenderer: IpcRendererLike): BridgeTransport {
  return {
    invoke: (channel, input) => ipcRenderer.invoke(channel, input),
    on(channel, listener) {
      const forward = (_event: IpcRendererEvent, payload: unknown): void => {
        listener(payload);
      };
      ipcRenderer.on(channel, forward);
      return () => {
        ipcRenderer.removeListener(channel, forward);
      };
    },
  };
}
