/**
 * The preload exposes `window.ledgerdesk`, built from the IPC contract by the shared bridge
 * builder (the shell issue). Until then it exposes only the app's identity.
 */
import { contextBridge } from 'electron';

contextBridge.exposeInMainWorld('ledgerdesk', Object.freeze({ app: Object.freeze({ name: 'Ledgerdesk' }) }));
