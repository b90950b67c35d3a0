/**
 * Where the listener binds. Loopback unless the user opts in to another interface (then with
 * a warning: anyone who can reach that interface can post to it). When the wanted port is
 * taken the listener does not wander off to another one silently, since the bank's webhooks
 * point at that port: it says so and offers the next free one.
 */
import type { Server } from 'node:http';
import { createServer } from 'node:net';
import type { ContractAnswer } from '../../../shared/ipc/contractAnswer.ts';

export const DEFAULT_LISTENER_PORT = 4880;

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

export class PortTakenError extends Error {
  readonly port: number;
  readonly host: string;
  readonly nextFreePort: number | null;
  constructor(host: string, port: number, nextFreePort: number | null) {
    super(
      `Port ${port} on ${host} is already in use by another program.` +
        (nextFreePort === null
          ? ' No free port was found in the next 100: choose one with --port.'
          : ` Port ${nextFreePort} is free: use it with --port ${nextFreePort} (and update the webhooks that point at ${port}).`),
    );
    this.name = 'PortTakenError';
    this.port = port;
    this.host = host;
    this.nextFreePort = nextFreePort;
  }

  get answer(): ContractAnswer {
    return {
      code: 'port_in_use',
      field: 'port',
      ...(this.nextFreePort === null ? {} : { action: `Port ${this.nextFreePort} is free: start the listener there.` }),
    };
  }
}

export class ExposureRefusedError extends Error {
  constructor(host: string) {
    super(
      `Refusing to listen on ${host}: it is not a loopback address, so other machines could post to the listener. ` +
        'Opt in explicitly (--expose, or allowNonLoopback) if that is what you want.',
    );
    this.name = 'ExposureRefusedError';
  }

  get answer(): ContractAnswer {
    return { code: 'invalid_input', field: 'allowNonLoopback' };
  }
}

function isFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => {
      resolve(false);
    });
    probe.listen({ host, port, exclusive: true }, () => {
      probe.close(() => {
        resolve(true);
      });
    });
  });
}

/** The first free port after `port`, trying at most `attempts` of them. */
async function nextFreePort(host: string, port: number, attempts = 100): Promise<number | null> {
  for (let candidate = port + 1; candidate <= Math.min(65_535, port + attempts); candidate += 1) {
    if (await isFree(host, candidate)) return candidate;
  }
  return null;
}

/** Bind `server`, turning "address in use" into a PortTakenError that offers the next free port. */
export async function bind(server: Server, host: string, port: number): Promise<number> {
  try {
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error): void => {
        reject(error);
      };
      server.once('error', onError);
      server.listen({ host, port, exclusive: true }, () => {
        server.off('error', onError);
        resolve();
      });
    });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new PortTakenError(host, port, await nextFreePort(host, port));
    }
    throw error;
  }
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The listener has no TCP address.');
  return address.port;
}
