/** Shared helpers of the renderer tests: a fake `window.ledgerdesk` built by the real bridge builder. */
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { buildLedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';
import { ipcErrorOf, type IpcError } from '../../../src/shared/ipc/errors.ts';

afterEach(() => {
  cleanup();
});

export type FakeHandler = (input: unknown) => unknown;

export interface FakeBridge {
  calls: { channel: string; input: unknown }[];
  emit(channel: string, payload: unknown): void;
}

/** A failure the handlers can throw to answer with the contract's error shape. */
export class Refusal extends Error {
  readonly error: IpcError;
  constructor(error: IpcError) {
    super(error.message);
    this.error = error;
  }
}

export function refuse(code: Parameters<typeof ipcErrorOf>[0], message: string, field?: string): Refusal {
  return new Refusal(ipcErrorOf(code, message, field === undefined ? {} : { field }));
}

/**
 * Installs `window.ledgerdesk` on the real bridge builder; a channel without a handler
 * answers not_available, as the real router does for a service not wired yet.
 */
export function installFakeBridge(handlers: Record<string, FakeHandler>): FakeBridge {
  const calls: { channel: string; input: unknown }[] = [];
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const api = buildLedgerdeskApi({
    async invoke(channel, input) {
      calls.push({ channel, input });
      const handler = handlers[channel];
      if (handler === undefined)
        return { ok: false, error: ipcErrorOf('not_available', `${channel} is not available yet.`) };
      try {
        return { ok: true, value: await handler(input) };
      } catch (thrown) {
        if (thrown instanceof Refusal) return { ok: false, error: thrown.error };
        throw thrown;
      }
    },
    on(channel, listener) {
      const set = listeners.get(channel) ?? new Set();
      set.add(listener);
      listeners.set(channel, set);
      return () => set.delete(listener);
    },
  });
  Object.defineProperty(window, 'ledgerdesk', { value: api, configurable: true, writable: true });
  return {
    calls,
    emit(channel, payload) {
      for (const listener of listeners.get(channel) ?? []) listener(payload);
    },
  };
}
