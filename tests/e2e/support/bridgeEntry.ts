/**
 * Runs in the page (bundled by bridgeScript.ts): builds `window.ledgerdesk` with the one
 * shared bridge builder, on a transport whose calls go to Playwright's exposed binding
 * (the real IPC router in the test process) and whose events arrive through
 * `__ledgerdeskEmit`. The same builder the preload uses on ipcRenderer.
 */
import { buildLedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';

interface HarnessWindow {
  ledgerdesk?: unknown;
  __ledgerdeskInvoke?: (channel: string, input: unknown) => Promise<unknown>;
  __ledgerdeskEmit?: (channel: string, payload: unknown) => void;
}

const page = globalThis as unknown as HarnessWindow;
const listeners = new Map<string, Set<(payload: unknown) => void>>();

/** Playwright's bindings carry JSON-like values: bytes travel as base64 and are restored in the test process. */
function encodeBytes(value: unknown): unknown {
  if (value instanceof Uint8Array) {
    let binary = '';
    for (const byte of value) binary += String.fromCharCode(byte);
    return { __bytes: btoa(binary) };
  }
  if (Array.isArray(value)) return value.map(encodeBytes);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, encodeBytes(entry)]));
  }
  return value;
}

page.__ledgerdeskEmit = (channel, payload) => {
  for (const listener of listeners.get(channel) ?? []) listener(payload);
};

page.ledgerdesk = buildLedgerdeskApi({
  invoke(channel, input) {
    const invoke = page.__ledgerdeskInvoke;
    if (invoke === undefined) return Promise.reject(new Error('The test harness binding is missing.'));
    return invoke(channel, encodeBytes(input));
  },
  on(channel, listener) {
    const set = listeners.get(channel) ?? new Set();
    set.add(listener);
    listeners.set(channel, set);
    return () => set.delete(listener);
  },
});
