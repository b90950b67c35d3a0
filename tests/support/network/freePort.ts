/** A port free on 127.0.0.1 right now (for programs that take a port, not port 0). */
import { createServer } from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

/** Resolves once something accepts connections on 127.0.0.1:port (bounded: about 20 s). */
export async function untilListening(
  port: number,
  what: string,
  attempts = 200,
  gone: () => boolean = () => false,
): Promise<void> {
  const { connect } = await import('node:net');
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    if (gone()) throw new Error(`${what} exited before it listened on 127.0.0.1:${String(port)}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => {
        resolve(false);
      });
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not start listening on 127.0.0.1:${String(port)}`);
}
