/**
 * The local control socket of a running Ledgerdesk (the desktop app, web mode, or the
 * listener): how a `ledger` command started while the app holds the data folder is run by the
 * app instead of opening the folder a second time, the way the `code` command line hands a file
 * to a running VS Code. Only this user can reach it: a unix socket, mode 0600, in the data
 * folder (itself 0700), or where that path is too long for a socket address (108 bytes on
 * Linux), in a 0700 folder of the user's runtime directory under a name hashed from the data
 * folder; the lock file records which (dataFolderLock.ts).
 *
 * One request per connection, one JSON line each way:
 *   {"request":"ledger","args":[…],"stdin":"…"|null} → {"code":0,"stdout":"…","stderr":"…"}
 *   {"request":"sign-in-address"}                   → {"address":"http://127.0.0.1:…/?t=…"}
 * A request this holder cannot answer gets {"refused":"…one sentence…"}.
 */
import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

export const CONTROL_SOCKET_FILE = 'control.sock';
/** sun_path is 108 bytes on Linux (104 on macOS): keep a margin. */
const LONGEST_SOCKET_PATH = 100;
/** A request larger than this is not a command line: refused, the connection closed. */
const MAX_REQUEST_BYTES = 1024 * 1024;

const controlRequest = z.discriminatedUnion('request', [
  z.object({ request: z.literal('ledger'), args: z.array(z.string()).max(200), stdin: z.string().nullable() }),
  z.object({ request: z.literal('sign-in-address') }),
]);
export type ControlRequest = z.infer<typeof controlRequest>;

const commandAnswer = z.object({ code: z.number().int(), stdout: z.string(), stderr: z.string() });
export type CommandAnswer = z.infer<typeof commandAnswer>;
const controlAnswer = z.union([commandAnswer, z.object({ address: z.string() }), z.object({ refused: z.string() })]);
export type ControlAnswer = z.infer<typeof controlAnswer>;

export interface ControlHandlers {
  /** Runs a `ledger` command as if it were run here, against this process's services. */
  ledger?: (args: readonly string[], stdin: string | null) => Promise<CommandAnswer>;
  /** Web mode only: a new one-time sign-in address (`ledger serve --token`). */
  signInAddress?: () => string;
}

/** Where a data folder's control socket goes: in the folder when the path fits, else a hashed name in the runtime dir. */
export function controlSocketPath(dataFolder: string, env: NodeJS.ProcessEnv = process.env): string {
  const inFolder = join(dataFolder, CONTROL_SOCKET_FILE);
  if (Buffer.byteLength(inFolder) <= LONGEST_SOCKET_PATH) return inFolder;
  const uid = typeof process.getuid === 'function' ? String(process.getuid()) : 'user';
  const runtime = env['XDG_RUNTIME_DIR'] ?? join(tmpdir(), `ledgerdesk-${uid}`);
  const folder = join(runtime, 'ledgerdesk');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  chmodSync(folder, 0o700);
  const name = createHash('sha256').update(dataFolder).digest('hex').slice(0, 24);
  return join(folder, `${name}.sock`);
}

export interface ControlServer {
  path: string;
  close(): Promise<void>;
}

function answer(socket: Socket, reply: ControlAnswer): void {
  socket.end(JSON.stringify(reply) + '\n');
}

/**
 * Listens on the folder's control socket. Called only by the holder of the folder's lock, so a
 * socket file already there was left by a holder that is gone, and is replaced. Commands run
 * one at a time, in the order they came: each sees the store as the one before left it.
 */
export async function startControlServer(
  dataFolder: string,
  handlers: ControlHandlers,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ControlServer> {
  const path = controlSocketPath(dataFolder, env);
  rmSync(path, { force: true });
  let queue: Promise<unknown> = Promise.resolve();
  const open = new Set<Socket>();
  const server: Server = createServer((socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (received.length > MAX_REQUEST_BYTES) {
        socket.destroy();
        return;
      }
      const end = received.indexOf('\n');
      if (end < 0) return;
      socket.removeAllListeners('data');
      let request: ControlRequest;
      try {
        request = controlRequest.parse(JSON.parse(received.slice(0, end)));
      } catch {
        answer(socket, { refused: 'That is not a request Ledgerdesk understands.' });
        return;
      }
      if (request.request === 'sign-in-address') {
        answer(
          socket,
          handlers.signInAddress === undefined
            ? { refused: 'This Ledgerdesk is not web mode: it has no sign-in address to give.' }
            : { address: handlers.signInAddress() },
        );
        return;
      }
      const run = handlers.ledger;
      if (run === undefined) {
        answer(socket, { refused: 'This Ledgerdesk does not take ledger commands.' });
        return;
      }
      const turn = queue.then(() => run(request.args, request.stdin));
      queue = turn.catch(() => undefined);
      turn.then(
        (result) => {
          answer(socket, result);
        },
        (error: unknown) => {
          answer(socket, {
            code: 1,
            stdout: '',
            stderr: `ledger: ${error instanceof Error ? error.message : String(error)}\n`,
          });
        },
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Made 0600 the moment it exists: no window where another user could connect.
    const mask = process.umask(0o177);
    try {
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    } finally {
      process.umask(mask);
    }
  });
  chmodSync(path, 0o600);
  return {
    path,
    async close() {
      const closed = new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
      // A command in flight is answered first; idle connections are not waited for.
      await queue;
      for (const socket of open) socket.destroy();
      await closed;
      rmSync(path, { force: true });
    },
  };
}

/** The holder's answer, or null when nothing listens there (a holder from before the socket, or gone). */
export async function askControlSocket(path: string, request: ControlRequest): Promise<ControlAnswer | null> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    let received = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(JSON.stringify(request) + '\n'));
    socket.on('data', (chunk: string) => {
      received += chunk;
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(null);
      else reject(error);
    });
    socket.on('end', () => {
      try {
        resolve(controlAnswer.parse(JSON.parse(received)));
      } catch {
        reject(new Error('The running Ledgerdesk gave an answer this version cannot read.'));
      }
    });
  });
}
