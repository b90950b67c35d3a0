/**
 * The web shell's side of the socket protocol (src/shared/ipc/webSocketProtocol.ts): every
 * accepted socket of every tab, the calls each tab's session has made, and the events each
 * socket asked for. Calls go to the same router core as Electron's IPC, with the socket as
 * the sender (only sockets this server accepted, from its own origin, are trusted).
 *
 * A session is one tab across reconnections. Its calls are kept by id: a call sent again after
 * a reconnection joins the run already going or gets the answer already made, never a second
 * run. Answers are kept for the last CALLS_KEPT calls of a session.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RawData, WebSocket } from 'ws';
import { EVENTS_BY_CHANNEL } from '../../shared/ipc/contract.ts';
import { ipcErrorOf, type IpcResult } from '../../shared/ipc/errors.ts';
import {
  pageMessage,
  type PageMessage,
  type ServerMessage,
  type WebQuestion,
} from '../../shared/ipc/webSocketProtocol.ts';
import type { Router } from '../ipc/routerCore.ts';
import { CODE_LIFETIME_MS, type ConfirmationCodes } from './confirmationCodes.ts';
import { confirmWithCode, type CallingTab, type TabCall } from './tabWriteConfirmer.ts';

/** Answers kept per session for calls that may be sent again. */
const CALLS_KEPT = 256;
/** Sessions kept at once (tabs, including closed ones whose answers may still be asked for). */
const SESSIONS_KEPT = 64;

/** WebSocket close codes this server uses. */
const CLOSE_GOING_AWAY = 1001;
const CLOSE_UNSUPPORTED = 1003;
const CLOSE_INVALID = 1007;
const CLOSE_POLICY = 1008;
/** Another browser signed in (webAccess.ts): this one's sockets end, and its pages say how to sign in again. */
const CLOSE_SIGNED_OUT = 4001;

interface CallRecord {
  running: Promise<IpcResult>;
  done: boolean;
}

interface Session {
  id: string;
  calls: Map<number, CallRecord>;
  connection: Connection | null;
}

interface Connection {
  id: number;
  /** The sign-in (cookie and tab key) the socket was opened with. */
  signIn: number;
  socket: WebSocket;
  session: Session | null;
  subscriptions: Set<string>;
}

/** A call being handled, and the tab (session) that made it. */
interface RunningCall extends TabCall {
  session: Session;
}

interface PendingAsk {
  session: Session;
  resolve(code: string | null): void;
}

export interface WebConnectionsOptions {
  router: Router;
  /** The terminal's codes: every question a page is asked is answered with one (W2). */
  codes: ConfirmationCodes;
  /** The page's origin: what the router's sender policy is told the calling frame shows. */
  origin: string;
  log?: (message: string) => void;
}

function send(connection: Connection | null, message: ServerMessage): void {
  if (connection === null || connection.socket.readyState !== connection.socket.OPEN) return;
  connection.socket.send(JSON.stringify(message));
}

export class WebConnections implements CallingTab {
  readonly #options: WebConnectionsOptions;
  readonly #connections = new Map<number, Connection>();
  readonly #sessions = new Map<string, Session>();
  readonly #asks = new Map<number, PendingAsk>();
  readonly #running = new Set<Promise<IpcResult>>();
  /** The call being handled, and its tab: a question a handler asks goes to that tab. */
  readonly #caller = new AsyncLocalStorage<RunningCall>();
  #nextConnection = 1;
  #nextAsk = 1;
  #closing = false;

  constructor(options: WebConnectionsOptions) {
    this.#options = options;
  }

  /** The router's sender policy: a socket this server accepted and still holds. */
  isOwnConnection(id: number): boolean {
    return this.#connections.has(id);
  }

  get count(): number {
    return this.#connections.size;
  }

  /** Takes over an accepted socket (Host, Origin, cookie and tab key already checked) of sign-in `signIn`. */
  attach(socket: WebSocket, signIn: number): void {
    if (this.#closing) {
      socket.close(CLOSE_GOING_AWAY, 'Ledgerdesk is stopping');
      return;
    }
    const connection: Connection = {
      id: this.#nextConnection,
      signIn,
      socket,
      session: null,
      subscriptions: new Set(),
    };
    this.#nextConnection += 1;
    this.#connections.set(connection.id, connection);
    socket.on('message', (data: RawData, isBinary: boolean) => {
      this.#receive(connection, data, isBinary);
    });
    socket.on('close', () => {
      this.#connections.delete(connection.id);
      const session = connection.session;
      if (session !== null && session.connection === connection) {
        session.connection = null;
        // Nobody is left to answer this tab's questions: each is declined.
        for (const [askId, ask] of this.#asks) {
          if (ask.session === session) {
            this.#asks.delete(askId);
            ask.resolve(null);
          }
        }
      }
    });
    socket.on('error', () => undefined);
  }

  /** Pushes an event (already checked and scrubbed by the event publisher) to the sockets that asked for it. */
  publish(channel: string, payload: unknown): void {
    for (const connection of this.#connections.values()) {
      if (connection.session !== null && connection.subscriptions.has(channel)) {
        send(connection, { type: 'event', channel, payload });
      }
    }
  }

  /** Ends every socket not of sign-in `current`: another browser signed in, this one is signed out. */
  closeOtherSignIns(current: number): void {
    for (const connection of this.#connections.values()) {
      if (connection.signIn !== current) connection.socket.close(CLOSE_SIGNED_OUT, 'signed in elsewhere');
    }
  }

  /**
   * Asks the tab whose call is running a question only the user may answer (the listener's
   * "send to another host?"), with a code shown on the terminal; no tab, a closed tab, "no" or
   * anything but the code is false.
   */
  async askCaller(question: WebQuestion): Promise<boolean> {
    const call = this.#caller.getStore();
    if (call === undefined) return false;
    return confirmWithCode(this.#options.codes, question, (asked) => this.#ask(call.session, asked));
  }

  /** The call being handled (for the Production write confirmer, tabWriteConfirmer.ts). */
  currentCall(): TabCall | null {
    const call = this.#caller.getStore();
    return call === undefined ? null : { channel: call.channel, input: call.input };
  }

  /** Asks the tab whose call is being handled for the code; null when there is none, it is gone, or the user said no. */
  askCallingTab(question: WebQuestion): Promise<string | null> {
    const call = this.#caller.getStore();
    return call === undefined ? Promise.resolve(null) : this.#ask(call.session, question);
  }

  /**
   * Cuts every socket at once, without a closing handshake, as a network drop would: the pages
   * reconnect and resume. For fault tests and for a machine whose network was just reset.
   */
  dropSockets(): void {
    for (const connection of this.#connections.values()) connection.socket.terminate();
  }

  /** Stops taking calls, waits for the calls in flight, then closes every socket. */
  async close(): Promise<void> {
    this.#closing = true;
    for (const ask of this.#asks.values()) ask.resolve(null);
    this.#asks.clear();
    await Promise.allSettled([...this.#running]);
    for (const connection of this.#connections.values())
      connection.socket.close(CLOSE_GOING_AWAY, 'Ledgerdesk stopped');
  }

  /** Sends the question (never its code) to the tab; what it typed, or null (no answer within the code's lifetime). */
  #ask(session: Session, question: WebQuestion): Promise<string | null> {
    if (session.connection === null) return Promise.resolve(null);
    const askId = this.#nextAsk;
    this.#nextAsk += 1;
    return new Promise((resolve) => {
      const expiry = setTimeout(() => {
        if (this.#asks.delete(askId)) resolve(null);
      }, CODE_LIFETIME_MS);
      expiry.unref();
      this.#asks.set(askId, {
        session,
        resolve: (code) => {
          clearTimeout(expiry);
          resolve(code);
        },
      });
      send(session.connection, { type: 'ask', askId, question });
    });
  }

  #receive(connection: Connection, data: RawData, isBinary: boolean): void {
    if (isBinary) {
      connection.socket.close(CLOSE_UNSUPPORTED, 'text messages only');
      return;
    }
    let message: PageMessage;
    try {
      const text = Array.isArray(data)
        ? Buffer.concat(data).toString('utf8')
        : Buffer.isBuffer(data)
          ? data.toString('utf8')
          : Buffer.from(new Uint8Array(data)).toString('utf8');
      const parsed = pageMessage.safeParse(JSON.parse(text));
      if (!parsed.success) throw new Error('not a message of the protocol');
      message = parsed.data;
    } catch {
      this.#options.log?.('closed a socket that sent something other than a message of the protocol');
      connection.socket.close(CLOSE_INVALID, 'not a message of the protocol');
      return;
    }
    if (message.type === 'hello') {
      this.#hello(connection, message.session, message.subscriptions);
      return;
    }
    if (connection.session === null) {
      connection.socket.close(CLOSE_POLICY, 'say hello first');
      return;
    }
    switch (message.type) {
      case 'call':
        this.#call(connection, connection.session, message.id, message.channel, message.input);
        return;
      case 'subscribe':
        for (const channel of message.channels) {
          if (EVENTS_BY_CHANNEL.has(channel)) connection.subscriptions.add(channel);
        }
        return;
      case 'unsubscribe':
        for (const channel of message.channels) connection.subscriptions.delete(channel);
        return;
      case 'reply': {
        const ask = this.#asks.get(message.askId);
        if (ask === undefined || ask.session !== connection.session) return;
        this.#asks.delete(message.askId);
        ask.resolve(message.code);
        return;
      }
    }
  }

  #hello(connection: Connection, sessionId: string, subscriptions: readonly string[]): void {
    if (connection.session !== null) {
      connection.socket.close(CLOSE_POLICY, 'one hello per socket');
      return;
    }
    let session = this.#sessions.get(sessionId);
    const known = session !== undefined;
    if (session === undefined) {
      session = { id: sessionId, calls: new Map(), connection: null };
      this.#sessions.set(sessionId, session);
      this.#forgetOldSessions();
    } else {
      // Most recently used last: the oldest idle sessions are the ones forgotten.
      this.#sessions.delete(sessionId);
      this.#sessions.set(sessionId, session);
    }
    // A session answers through its newest socket; an older one still open is closed.
    const previous = session.connection;
    session.connection = connection;
    connection.session = session;
    if (previous !== null && previous !== connection) previous.socket.close(CLOSE_POLICY, 'replaced by a newer socket');
    for (const channel of subscriptions) {
      if (EVENTS_BY_CHANNEL.has(channel)) connection.subscriptions.add(channel);
    }
    send(connection, { type: 'ready', known });
  }

  #forgetOldSessions(): void {
    for (const [id, session] of this.#sessions) {
      if (this.#sessions.size <= SESSIONS_KEPT) return;
      if (session.connection === null) this.#sessions.delete(id);
    }
  }

  #call(connection: Connection, session: Session, id: number, channel: string, input: unknown): void {
    const existing = session.calls.get(id);
    if (existing !== undefined) {
      // Sent again after a reconnection: the same run's answer, on the socket the tab has now.
      void existing.running.then((result) => {
        send(session.connection, { type: 'answer', id, result });
      });
      return;
    }
    if (this.#closing) {
      send(connection, {
        type: 'answer',
        id,
        result: {
          ok: false,
          error: ipcErrorOf('not_available', 'Ledgerdesk is stopping.', { action: 'Start it again.' }),
        },
      });
      return;
    }
    const record: CallRecord = { running: Promise.resolve({ ok: true, value: null }), done: false };
    const running = this.#caller.run({ session, channel, input }, () =>
      this.#options.router.dispatch(
        { webContentsId: connection.id, isMainFrame: true, frameUrl: `${this.#options.origin}/` },
        channel,
        input,
      ),
    );
    record.running = running;
    session.calls.set(id, record);
    this.#running.add(running);
    void running.then((result) => {
      record.done = true;
      this.#running.delete(running);
      this.#keepRecentCalls(session);
      send(session.connection, { type: 'answer', id, result });
    });
  }

  #keepRecentCalls(session: Session): void {
    for (const [id, record] of session.calls) {
      if (session.calls.size <= CALLS_KEPT) return;
      if (record.done) session.calls.delete(id);
    }
  }
}
