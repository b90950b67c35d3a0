/**
 * The web bridge's transport against a scripted socket: it offers the tab key as a subprotocol
 * (W1), answers a question with what the person typed (W2: the server's code, never anything the
 * question carried), and when the socket closes it asks whether the sign-in still holds: signed
 * out (another browser signed in, or the server no longer knows it) it leaves for the signed-out
 * page instead of reconnecting forever.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { WebQuestion } from '../../../src/shared/ipc/webSocketProtocol.ts';
import { webSocketTransport, type BrowserSide, type SignInState } from '../../../src/webBridge/webSocketTransport.ts';

/** A socket the test drives: what the page sent, and the server's side of the events. */
class ScriptedSocket {
  readonly url: string;
  readonly protocols: string[];
  readonly sent: Record<string, unknown>[] = [];
  readonly #listeners = new Map<string, ((event: unknown) => void)[]>();

  constructor(url: string, protocols: string[]) {
    this.url = url;
    this.protocols = protocols;
  }

  addEventListener(type: string, listener: (event: unknown) => void): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }

  send(text: string): void {
    this.sent.push(JSON.parse(text) as Record<string, unknown>);
  }

  emit(type: string, event: unknown = {}): void {
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }

  /** The server's message. */
  say(message: unknown): void {
    this.emit('message', { data: JSON.stringify(message) });
  }
}

const question: WebQuestion = {
  title: 'Send to a Production bank?',
  message: 'Ledgerdesk is about to send webhook.create to Prod Bank.',
  detail: '{}',
  confirmLabel: 'Send to Production',
};

function page(answers: { typed: string | null; signIn: SignInState }) {
  const sockets: ScriptedSocket[] = [];
  const signedOut = vi.fn();
  const startFailed = vi.fn();
  const checks = vi.fn(() => Promise.resolve(answers.signIn));
  const side: BrowserSide = {
    openSocket: (url, protocols) => {
      const socket = new ScriptedSocket(url, protocols);
      sockets.push(socket);
      return socket as unknown as WebSocket;
    },
    origin: 'http://127.0.0.1:5123',
    tabKey: 'KEY_of-this-tab',
    ask: () => answers.typed,
    showConnection: () => undefined,
    checkSignIn: checks,
    signedOut,
    startFailed,
    randomSession: () => 'session-0123456789abcdef',
  };
  const transport = webSocketTransport(side);
  return { transport, sockets, signedOut, startFailed, checks };
}

function opened(socket: ScriptedSocket | undefined): ScriptedSocket {
  if (socket === undefined) throw new Error('no socket was opened');
  socket.emit('open');
  socket.say({ type: 'ready', known: false });
  return socket;
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('webSocketTransport', () => {
  it('opens the socket with the tab key offered as a subprotocol, beside ledgerdesk', () => {
    const { sockets } = page({ typed: null, signIn: 'signed-in' });
    expect(sockets[0]?.url).toBe('ws://127.0.0.1:5123/ledgerdesk/socket');
    expect(sockets[0]?.protocols).toEqual(['ledgerdesk', 'ledgerdesk-tab.KEY_of-this-tab']);
  });

  it('answers a question with what the person typed, and an empty or cancelled prompt with null', () => {
    for (const [typed, code] of [
      ['482 913', '482 913'],
      ['', null],
      [null, null],
    ] as const) {
      const { sockets } = page({ typed, signIn: 'signed-in' });
      const socket = opened(sockets[0]);
      // Anything else a question might carry is not sent back: only what was typed.
      socket.say({ type: 'ask', askId: 7, question });
      expect(socket.sent.filter((message) => message['type'] === 'reply')).toEqual([{ type: 'reply', askId: 7, code }]);
    }
  });

  it('leaves for the signed-out page when the server closes the socket as signed out (4001)', async () => {
    const { sockets, signedOut, checks } = page({ typed: null, signIn: 'signed-in' });
    opened(sockets[0]).emit('close', { code: 4001 });
    expect(signedOut).toHaveBeenCalledOnce();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sockets).toHaveLength(1);
    expect(checks).not.toHaveBeenCalled();
  });

  it('says the start failed when the server closes the socket so (4002), and connects no more (issue 36)', async () => {
    const { sockets, signedOut, startFailed, checks } = page({ typed: null, signIn: 'signed-in' });
    // The page was served before the services were up; they then failed to start.
    sockets[0]?.emit('close', { code: 4002, reason: 'Ledgerdesk could not start: the cache is damaged.' });
    expect(startFailed).toHaveBeenCalledWith('Ledgerdesk could not start: the cache is damaged.');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(sockets).toHaveLength(1);
    expect(checks).not.toHaveBeenCalled();
    expect(signedOut).not.toHaveBeenCalled();
  });

  it('asks whether the sign-in holds after a drop: reconnects while it does, leaves when it does not', async () => {
    const holding = page({ typed: null, signIn: 'signed-in' });
    opened(holding.sockets[0]).emit('close', { code: 1006 });
    await vi.advanceTimersByTimeAsync(250);
    expect(holding.checks).toHaveBeenCalledOnce();
    expect(holding.sockets).toHaveLength(2);
    expect(holding.signedOut).not.toHaveBeenCalled();

    const down = page({ typed: null, signIn: 'unreachable' });
    opened(down.sockets[0]).emit('close', { code: 1006 });
    await vi.advanceTimersByTimeAsync(250);
    expect(down.sockets).toHaveLength(2);
    expect(down.signedOut).not.toHaveBeenCalled();

    const gone = page({ typed: null, signIn: 'signed-out' });
    // Refused at the upgrade: the socket closes without ever opening.
    gone.sockets[0]?.emit('close', { code: 1006 });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(gone.signedOut).toHaveBeenCalledOnce();
    expect(gone.sockets).toHaveLength(1);
  });
});
