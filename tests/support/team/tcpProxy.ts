/**
 * A TCP relay on 127.0.0.1 in front of the test cluster, to play a server that is down
 * (closed), slow (accepts, never answers) or far away (a delay per chunk).
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export type ProxyMode = 'forward' | 'black-hole';

export interface TcpProxy {
  port: number;
  mode: ProxyMode;
  /** Nothing listens on the port any more (a server that is down). */
  close(): Promise<void>;
  /** Listens again on the same port. */
  reopen(): Promise<void>;
}

export async function startTcpProxy(
  targetPort: number,
  options: { mode?: ProxyMode; delayMs?: number } = {},
): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const state = { mode: options.mode ?? 'forward' };
  const delay = options.delayMs ?? 0;
  const relay = (from: Socket, to: Socket): void => {
    from.on('data', (chunk) => {
      if (delay === 0) to.write(chunk);
      else setTimeout(() => to.write(chunk), delay);
    });
  };
  const server: Server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (state.mode === 'black-hole') return;
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('close', () => upstream.destroy());
    relay(client, upstream);
    relay(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    get mode() {
      return state.mode;
    },
    set mode(mode: ProxyMode) {
      state.mode = mode;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
    reopen: () => new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve)),
  };
}
