/**
 * The bridge's transport in a browser tab: the contract over one WebSocket to the web shell
 * (protocol: src/shared/ipc/webSocketProtocol.ts), opened with this browser's tab key as a
 * subprotocol (W1). When the socket drops, it asks the server whether its sign-in still holds:
 * if not (another browser signed in, Ledgerdesk restarted), the tab goes to the page that says
 * how to sign in again; otherwise it connects again (backing off to a few seconds), says hello
 * with the same session, subscribes to the same events, and sends again every call not yet
 * answered: the server runs each call id once, so an answer is never lost and a write never
 * runs twice. If the server no longer knows the session, calls still unanswered fail with a
 * sentence instead of running again.
 */
import type { BridgeTransport } from '../shared/ipc/bridge.ts';
import { ipcErrorOf, type IpcResult } from '../shared/ipc/errors.ts';
import {
  serverMessage,
  TAB_KEY_PROTOCOL_PREFIX,
  WEB_SOCKET_PATH,
  WEB_SOCKET_PROTOCOL,
  type PageMessage,
  type WebQuestion,
} from '../shared/ipc/webSocketProtocol.ts';

/** Whether this browser's sign-in still holds, as the server answers (or cannot). */
export type SignInState = 'signed-in' | 'signed-out' | 'unreachable';

/** What the transport needs from the page (the real globals in a tab; fakes in unit tests). */
export interface BrowserSide {
  openSocket(url: string, protocols: string[]): WebSocket;
  /** The page's own origin, e.g. http://127.0.0.1:5123. */
  origin: string;
  /** This browser's tab key (kept in the origin's storage by the bridge). */
  tabKey: string;
  /**
   * Asks the user for the code web mode printed on its terminal (window.prompt): what they
   * typed, or null when they cancelled.
   */
  ask(question: WebQuestion): string | null;
  /** Shows where the connection stands (a data attribute on <html>: open | reconnecting). */
  showConnection(state: 'open' | 'reconnecting'): void;
  /** Asks the server whether the sign-in holds (after the socket closed). */
  checkSignIn(): Promise<SignInState>;
  /** Leaves for the page that says how to sign in again. */
  signedOut(): void;
  /** Says in the page that Ledgerdesk could not start (the server's sentence; its terminal says more). */
  startFailed(reason: string): void;
  randomSession(): string;
}

/** The server's close code for a socket of a browser another sign-in replaced (webConnections.ts). */
const CLOSE_SIGNED_OUT = 4001;
/**
 * The server's close code when its start failed after the page was served (web/webServer.ts:
 * the page is served before the services are up, issue 36); the reason is the sentence to show.
 */
const CLOSE_START_FAILED = 4002;

interface PendingCall {
  channel: string;
  input: unknown;
  resolve(result: IpcResult): void;
}

const FIRST_RETRY_MS = 200;
const LAST_RETRY_MS = 5_000;

function socketUrl(origin: string): string {
  return origin.replace(/^http/, 'ws') + WEB_SOCKET_PATH;
}

export function webSocketTransport(page: BrowserSide): BridgeTransport {
  const session = page.randomSession();
  const pending = new Map<number, PendingCall>();
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  let nextId = 1;
  let socket: WebSocket | null = null;
  let ready = false;
  let everReady = false;
  let retryMs = FIRST_RETRY_MS;

  function send(message: PageMessage): void {
    if (socket !== null && ready) socket.send(JSON.stringify(message));
  }

  function sendCall(id: number, call: PendingCall): void {
    send({ type: 'call', id, channel: call.channel, input: call.input });
  }

  function onMessage(text: unknown): void {
    if (typeof text !== 'string') return;
    let parsed;
    try {
      parsed = serverMessage.safeParse(JSON.parse(text));
    } catch {
      return;
    }
    if (!parsed.success) return;
    const message = parsed.data;
    switch (message.type) {
      case 'ready': {
        ready = true;
        retryMs = FIRST_RETRY_MS;
        page.showConnection('open');
        const resumed = message.known || !everReady;
        everReady = true;
        // Listeners added between the hello and now are not in the hello: all are said again.
        if (listeners.size > 0) send({ type: 'subscribe', channels: [...listeners.keys()] });
        for (const [id, call] of pending) {
          if (resumed) {
            sendCall(id, call);
          } else {
            pending.delete(id);
            call.resolve({
              ok: false,
              error: ipcErrorOf('internal', `Ledgerdesk restarted before it answered ${call.channel}.`, {
                retryable: true,
                action: 'Look whether the change was made, then try again if it was not.',
              }),
            });
          }
        }
        return;
      }
      case 'answer': {
        const call = pending.get(message.id);
        if (call === undefined) return;
        pending.delete(message.id);
        call.resolve(message.result as IpcResult);
        return;
      }
      case 'event':
        for (const listener of listeners.get(message.channel) ?? []) listener(message.payload);
        return;
      case 'ask': {
        const typed = page.ask(message.question);
        send({ type: 'reply', askId: message.askId, code: typed === null || typed.trim() === '' ? null : typed });
        return;
      }
    }
  }

  let stopped = false;

  function signOut(): void {
    stopped = true;
    page.signedOut();
  }

  function reconnectLater(): void {
    const wait = retryMs;
    retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
    setTimeout(() => {
      // A socket refused or closed: gone for good if the sign-in no longer holds.
      void page.checkSignIn().then((state) => {
        if (state === 'signed-out') signOut();
        else connect();
      });
    }, wait);
  }

  function connect(): void {
    if (stopped) return;
    const current = page.openSocket(socketUrl(page.origin), [
      WEB_SOCKET_PROTOCOL,
      `${TAB_KEY_PROTOCOL_PREFIX}${page.tabKey}`,
    ]);
    socket = current;
    current.addEventListener('open', () => {
      current.send(
        JSON.stringify({ type: 'hello', session, subscriptions: [...listeners.keys()] } satisfies PageMessage),
      );
    });
    current.addEventListener('message', (event: MessageEvent) => {
      onMessage(event.data);
    });
    current.addEventListener('close', (event: CloseEvent) => {
      if (socket !== current) return;
      socket = null;
      ready = false;
      page.showConnection('reconnecting');
      if (event.code === CLOSE_SIGNED_OUT) signOut();
      else if (event.code === CLOSE_START_FAILED) {
        stopped = true;
        page.startFailed(event.reason === '' ? 'Ledgerdesk could not start.' : event.reason);
      } else reconnectLater();
    });
  }

  connect();

  return {
    invoke(channel, input) {
      return new Promise((resolve) => {
        const id = nextId;
        nextId += 1;
        const call: PendingCall = { channel, input, resolve };
        pending.set(id, call);
        sendCall(id, call);
      });
    },
    on(channel, listener) {
      let set = listeners.get(channel);
      if (set === undefined) {
        set = new Set();
        listeners.set(channel, set);
        send({ type: 'subscribe', channels: [channel] });
      }
      set.add(listener);
      return () => {
        const current = listeners.get(channel);
        if (current === undefined) return;
        current.delete(listener);
        if (current.size === 0) {
          listeners.delete(channel);
          send({ type: 'unsubscribe', channels: [channel] });
        }
      };
    },
  };
}
