/**
 * Web mode's preload: `window.ledgerdesk` in a browser tab, built from the IPC contract by the
 * same bridge builder the Electron preload uses, over one WebSocket to the web shell. Loaded
 * by index.html (the web shell adds it before the renderer's own script), and nothing else.
 *
 * It first takes this browser's tab key (W1): from the sign-in answer's <meta> (then kept in
 * the origin's localStorage, which no other port or site can read), or from that storage. A
 * tab without it goes to the page that says how to sign in again.
 */
import { buildLedgerdeskApi } from '../shared/ipc/bridge.ts';
import {
  SIGN_IN_CHECK_PATH,
  SIGNED_OUT_PATH,
  TAB_KEY_HEADER,
  TAB_KEY_META,
  TAB_KEY_STORAGE,
  type WebQuestion,
} from '../shared/ipc/webSocketProtocol.ts';
import { webSocketTransport, type SignInState } from './webSocketTransport.ts';

function questionText(question: WebQuestion): string {
  return [
    question.title,
    question.message,
    question.detail,
    `To go ahead (${question.confirmLabel}), type the code Ledgerdesk printed in the terminal where it runs ` +
      '(npm run serve). Cancel to stop: nothing is sent.',
  ].join('\n\n');
}

function randomSession(): string {
  const bytes = new Uint8Array(24);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The tab key: handed over by the sign-in answer (kept for this origin's tabs), or kept from it. */
function takeTabKey(): string | null {
  const meta = document.querySelector(`meta[name="${TAB_KEY_META}"]`);
  const given = meta?.getAttribute('content') ?? null;
  meta?.remove();
  if (given !== null) {
    try {
      localStorage.setItem(TAB_KEY_STORAGE, given);
    } catch {
      // Storage refused (a locked-down browser): this page keeps it in memory; a reload signs out.
    }
  }
  // The sign-in address's token is spent: it leaves the address bar and this tab's back list.
  if (new URLSearchParams(window.location.search).has('token')) {
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.hash}`);
  }
  if (given !== null) return given;
  try {
    return localStorage.getItem(TAB_KEY_STORAGE);
  } catch {
    return null;
  }
}

async function checkSignIn(tabKey: string): Promise<SignInState> {
  try {
    const answer = await fetch(SIGN_IN_CHECK_PATH, { headers: { [TAB_KEY_HEADER]: tabKey }, cache: 'no-store' });
    if (answer.status === 204) return 'signed-in';
    return answer.status === 401 ? 'signed-out' : 'unreachable';
  } catch {
    return 'unreachable';
  }
}

function signedOut(): void {
  window.location.replace(SIGNED_OUT_PATH);
}

/** The start failed after the page was served: the page says so in the server's sentence, and nothing more runs. */
function startFailed(reason: string): void {
  document.documentElement.dataset['ledgerdeskConnection'] = 'failed';
  const notice = document.createElement('main');
  const heading = document.createElement('h1');
  heading.textContent = 'Ledgerdesk could not start';
  const sentence = document.createElement('p');
  sentence.setAttribute('role', 'alert');
  sentence.textContent = `${reason} The terminal where it was started (npm run serve) says why; start it again once that is fixed.`;
  notice.append(heading, sentence);
  document.body.replaceChildren(notice);
  document.title = 'Ledgerdesk could not start';
}

if (!('ledgerdesk' in window)) {
  const tabKey = takeTabKey();
  const api =
    tabKey === null
      ? // Not signed in here: nothing to connect to; the page leaves for the one that says what to run.
        buildLedgerdeskApi({ invoke: () => new Promise(() => undefined), on: () => () => undefined })
      : buildLedgerdeskApi(
          webSocketTransport({
            openSocket: (url, protocols) => new WebSocket(url, protocols),
            origin: window.location.origin,
            tabKey,
            ask: (question) => window.prompt(questionText(question), ''),
            showConnection: (state) => {
              document.documentElement.dataset['ledgerdeskConnection'] = state;
            },
            checkSignIn: () => checkSignIn(tabKey),
            signedOut,
            startFailed,
            randomSession,
          }),
        );
  Object.defineProperty(window, 'ledgerdesk', { value: api, writable: false, configurable: false, enumerable: true });
  if (tabKey === null) signedOut();
}
