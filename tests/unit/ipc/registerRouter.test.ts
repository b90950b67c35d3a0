/** The Electron edge of the router: exactly the contract's channels, senders read defensively. */
import { describe, expect, it, vi } from 'vitest';
import { registerRouter, senderOf, type IpcMainLike } from '../../../src/main/electron/ipcMainRouter.ts';
import { OPERATIONS_BY_CHANNEL } from '../../../src/shared/ipc/contract.ts';
import { OWN_WINDOW, routerWith } from './fixtures.ts';

type Listener = Parameters<IpcMainLike['handle']>[1];
type InvokeEvent = Parameters<Listener>[0];

const mainFrame = { processId: 4, routingId: 1, parent: null, url: 'app://ledgerdesk/index.html' };

function eventFrom(frame: unknown, webContentsId = OWN_WINDOW): InvokeEvent {
  return { sender: { id: webContentsId, mainFrame }, senderFrame: frame } as unknown as InvokeEvent;
}

function fakeIpcMain() {
  const handlers = new Map<string, Listener>();
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => handlers.set(channel, listener),
    removeHandler: (channel) => handlers.delete(channel),
  };
  return { ipcMain, handlers };
}

describe('senderOf', () => {
  it('recognizes the main frame', () => {
    expect(senderOf(eventFrom(mainFrame))).toEqual({
      webContentsId: OWN_WINDOW,
      isMainFrame: true,
      frameUrl: 'app://ledgerdesk/index.html',
    });
  });

  it.each([
    ['a sub-frame', { processId: 4, routingId: 2, parent: mainFrame, url: 'app://ledgerdesk/frame.html' }],
    ['a frame of another process', { processId: 9, routingId: 1, parent: null, url: 'app://ledgerdesk/' }],
    ['a frame with a parent', { ...mainFrame, parent: mainFrame }],
  ])('marks %s as not the main frame', (_name, frame) => {
    expect(senderOf(eventFrom(frame)).isMainFrame).toBe(false);
  });

  it('reads a destroyed frame as gone', () => {
    expect(senderOf(eventFrom(null))).toEqual({ webContentsId: OWN_WINDOW, isMainFrame: false, frameUrl: null });
  });
});

describe('registerRouter', () => {
  it('registers exactly the contract channels and removes them all', () => {
    const { ipcMain, handlers } = fakeIpcMain();
    const unregister = registerRouter(ipcMain, routerWith({}).router);
    expect([...handlers.keys()].sort()).toEqual([...OPERATIONS_BY_CHANNEL.keys()].sort());
    unregister();
    expect(handlers.size).toBe(0);
  });

  it('forwards the first argument only, and refuses a sub-frame before the handler', async () => {
    const status = vi.fn(() => ({ jobs: [] }));
    const { ipcMain, handlers } = fakeIpcMain();
    registerRouter(ipcMain, routerWith({ sync: { status } }).router);
    const handle = handlers.get('sync.status');
    expect(await handle?.(eventFrom(mainFrame), {}, 'ignored extra argument')).toEqual({
      ok: true,
      value: { jobs: [] },
    });
    const subFrame = { processId: 4, routingId: 2, parent: mainFrame, url: 'app://ledgerdesk/index.html' };
    const refused = (await handle?.(eventFrom(subFrame), {})) as { ok: boolean; error?: { code: string } };
    expect(refused.error?.code).toBe('forbidden');
    expect(status).toHaveBeenCalledTimes(1);
  });
});
