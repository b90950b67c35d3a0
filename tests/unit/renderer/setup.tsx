/** Shared helpers of the renderer tests: a fake `window.ledgerdesk` built by the real bridge builder. */
import { act, cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { buildLedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';
import { ipcErrorOf, type IpcError } from '../../../src/shared/ipc/errors.ts';
import { useProfilesStore } from '../../../src/renderer/src/stores/profiles.ts';

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

/** Lets the bridge's promises and the stores' updates that follow them run (inside act). */
export async function settle(): Promise<void> {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

/** One remote profile, Staging, active: what the Settings panels' tests start from. */
export function withStagingProfile(): void {
  useProfilesStore.setState({
    profiles: [
      {
        id: 'staging',
        name: 'Staging',
        kind: 'remote',
        baseUrl: 'https://sandbox.bank.example',
        authScheme: 'basic',
        keyId: 'key_1',
        production: false,
        createdAt: '2026-11-21T10:00:00Z',
        updatedAt: '2026-11-21T10:00:00Z',
      },
    ] as never,
    activeProfileId: 'staging',
  });
}
