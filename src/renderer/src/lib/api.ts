/**
 * The renderer's only way out: `window.ledgerdesk`, built from the IPC contract by the
 * shared bridge builder (by the preload in Electron, by the test harness in Chromium).
 * The renderer never talks to the network.
 */
import type { LedgerdeskApi } from '../../../shared/ipc/index.ts';

export type { LedgerdeskApi };

export function hasBridge(): boolean {
  return typeof (window as unknown as { ledgerdesk?: unknown }).ledgerdesk === 'object';
}

export function api(): LedgerdeskApi {
  const bridge = (window as unknown as { ledgerdesk?: LedgerdeskApi }).ledgerdesk;
  if (bridge === undefined) {
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- the bridge's own error shape
    throw {
      code: 'not_available',
      message: 'Ledgerdesk is not connected to its main process.',
      retryable: false,
      action: 'Open Ledgerdesk from the desktop app.',
    };
  }
  return bridge;
}
