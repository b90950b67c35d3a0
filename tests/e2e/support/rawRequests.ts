/** HTTP requests and socket upgrades with exactly the headers a test names (Host included), as an attacker's page or tool would send them. */
import { request } from 'node:http';
import { randomBytes } from 'node:crypto';

export interface RawHeaders {
  host?: string;
  origin?: string;
  cookie?: string;
  'sec-fetch-site'?: string;
}

export function statusOf(
  port: number,
  path: string,
  headers: RawHeaders,
  method = 'GET',
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      { host: '127.0.0.1', port, path, method, headers: { ...headers }, setHost: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            headers: response.headers,
          });
        });
      },
    );
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The status a WebSocket upgrade is answered with: 101 when accepted, else the refusal's. */
export function upgradeStatus(port: number, path: string, headers: RawHeaders): Promise<number> {
  return new Promise((resolve, reject) => {
    const outgoing = request({
      host: '127.0.0.1',
      port,
      path,
      setHost: false,
      headers: {
        ...headers,
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': randomBytes(16).toString('base64'),
      },
    });
    outgoing.on('upgrade', (_response, socket) => {
      socket.destroy();
      resolve(101);
    });
    outgoing.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}
