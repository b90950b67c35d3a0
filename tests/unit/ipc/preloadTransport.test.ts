/** The preload's transport: invoke passes through; listeners never see the event object. */
import { describe, expect, it, vi } from 'vitest';
import { ipcTransport, type IpcRendererLike } from '../../../src/preload/ipcTransport.ts';
import { buildLedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';

// Electron's types are reached through the transport's own, so this file never names electron.
type Listener = Parameters<IpcRendererLike['on']>[1];
type IpcRendererEvent = Parameters<Listener>[0];

function fakeIpcRenderer() {
  const listeners = new Map<string, Set<Listener>>();
  const invoke = vi.fn((_channel: string, ..._args: unknown[]) =>
    Promise.resolve({ ok: true, value: { cancelled: true } }),
  );
  const ipcRenderer: IpcRendererLike = {
    invoke,
    on(channel, listener) {
      const set = listeners.get(channel) ?? new Set<Listener>();
      set.add(listener);
      listeners.set(channel, set);
    },
    removeListener(channel, listener) {
      listeners.get(channel)?.delete(listener);
    },
  };
  const emit = (channel: string, payload: unknown) => {
    const event = { sender: { send: () => undefined }, senderId: 0 } as unknown as IpcRendererEvent;
    for (const listener of listeners.get(channel) ?? []) listener(event, payload);
  };
  return { ipcRenderer, invoke, emit, listeners };
}

describe('the preload transport', () => {
  it('invokes the operation channel with the input only', async () => {
    const fake = fakeIpcRenderer();
    const api = buildLedgerdeskApi(ipcTransport(fake.ipcRenderer));
    await expect(api.sync.cancel({ jobId: 'job_1' })).resolves.toEqual({ cancelled: true });
    expect(fake.invoke.mock.calls).toEqual([['sync.cancel', { jobId: 'job_1' }]]);
  });

  it('hands listeners the payload, never the event object, and removes them on unsubscribe', () => {
    const fake = fakeIpcRenderer();
    const api = buildLedgerdeskApi(ipcTransport(fake.ipcRenderer));
    const listener = vi.fn();
    const off = api.credentials.onStatus(listener);
    const payload = { profileId: 'sandbox', state: 'set', message: null };
    fake.emit('event:credentials.status', payload);
    expect(listener.mock.calls).toEqual([[payload]]);
    off();
    expect(fake.listeners.get('event:credentials.status')?.size).toBe(0);
  });
});
