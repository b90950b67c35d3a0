/** `window.ledgerdesk`: the bridge the preload exposes, typed from the IPC contract. */
import type { LedgerdeskApi } from '../../shared/ipc/bridge.ts';

declare global {
  interface Window {
    readonly ledgerdesk: LedgerdeskApi;
  }
}

export {};
