/**
 * The preload: `window.ledgerdesk`, built from the IPC contract by the shared bridge builder,
 * and nothing else. No raw ipcRenderer, no generic invoke(channel). Bundled into one
 * CommonJS file that runs with `sandbox: true`.
 */
import { contextBridge, ipcRenderer } from 'electron';
import { buildLedgerdeskApi } from '../shared/ipc/bridge.ts';
import { ipcTransport } from './ipcTransport.ts';

contextBridge.exposeInMainWorld('ledgerdesk', buildLedgerdeskApi(ipcTransport(ipcRenderer)));
