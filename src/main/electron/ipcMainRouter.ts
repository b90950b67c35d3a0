/**
 * The IPC router at the Electron edge: the only place handlers are registered with ipcMain.
 * It registers exactly the contract's channels, each forwarding to the router core with
 * what Electron says about the sender. (Types only from electron: the shell passes ipcMain
 * in, so this file is unit-tested with a fake.)
 */
import type { IpcMainInvokeEvent } from 'electron';
import type { Router } from '../ipc/routerCore.ts';
import type { IpcSender } from '../ipc/senderPolicy.ts';

/** The part of ipcMain the router uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

/** What the router needs to know about the caller, read defensively from Electron's event. */
export function senderOf(event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>): IpcSender {
  const frame = event.senderFrame;
  const mainFrame = event.sender.mainFrame;
  const isMainFrame =
    frame !== null &&
    frame.parent === null &&
    frame.processId === mainFrame.processId &&
    frame.routingId === mainFrame.routingId;
  return { webContentsId: event.sender.id, isMainFrame, frameUrl: frame === null ? null : frame.url };
}

/** Registers every channel of the contract; returns a function that removes them all. */
export function registerRouter(ipcMain: IpcMainLike, router: Router): () => void {
  for (const channel of router.channels) {
    ipcMain.handle(channel, (event, ...args) => router.dispatch(senderOf(event), channel, args[0]));
  }
  return () => {
    for (const channel of router.channels) ipcMain.removeHandler(channel);
  };
}
