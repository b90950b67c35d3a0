/**
 * Web mode's preload: `window.ledgerdesk` in a browser tab, built from the IPC contract by the
 * same bridge builder the Electron preload uses, over one WebSocket to the web shell. Loaded
 * by index.html (the web shell adds it before the renderer's own script), and nothing else.
 */
import { buildLedgerdeskApi } from '../shared/ipc/bridge.ts';
import type { WebQuestion } from '../shared/ipc/webSocketProtocol.ts';
import { webSocketTransport } from './webSocketTransport.ts';

function questionText(question: WebQuestion): string {
  return [question.title, question.message, question.detail, `OK: ${question.confirmLabel}`].join('\n\n');
}

function randomSession(): string {
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

if (!('ledgerdesk' in window)) {
  const api = buildLedgerdeskApi(
    webSocketTransport({
      openSocket: (url) => new WebSocket(url),
      origin: window.location.origin,
      ask: (question) => window.confirm(questionText(question)),
      showConnection: (state) => {
        document.documentElement.dataset['ledgerdeskConnection'] = state;
      },
      randomSession,
    }),
  );
  Object.defineProperty(window, 'ledgerdesk', { value: api, writable: false, configurable: false, enumerable: true });
}
