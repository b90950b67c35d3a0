/**
 * Preloaded (`node --import`) into a tool that must work offline: every attempt to reach
 * another machine (a TCP connection to anything but loopback, a DNS lookup) is written to
 * stderr as `refused network: ...` and fails, so a test can see that none was made.
 */
import dns from 'node:dns';
import net from 'node:net';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/i;

function refuse(what: string): Error {
  process.stderr.write(`refused network: ${what}\n`);
  return new Error(`Network access refused in this test: ${what}`);
}

// Kept to be called with the socket as `this`, never on its own.
const connect = Reflect.get(net.Socket.prototype, 'connect') as (this: net.Socket, ...args: unknown[]) => net.Socket;
net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
  const first = args[0];
  const options = (typeof first === 'object' && first !== null ? first : { port: first, host: args[1] }) as {
    host?: unknown;
    port?: unknown;
    path?: unknown;
  };
  const host = typeof options.host === 'string' ? options.host : 'localhost';
  if (typeof options.path !== 'string' && !LOOPBACK.test(host)) {
    throw refuse(`connect ${host}:${String(options.port)}`);
  }
  return Reflect.apply(connect, this, args);
};

const lookup = dns.lookup;
dns.lookup = function (this: unknown, hostname: string, ...rest: unknown[]) {
  if (!LOOPBACK.test(hostname)) throw refuse(`lookup ${hostname}`);
  return Reflect.apply(lookup, this, [hostname, ...rest]) as unknown;
} as typeof dns.lookup;
const lookupPromise = dns.promises.lookup;
dns.promises.lookup = function (this: unknown, hostname: string, ...rest: unknown[]) {
  if (!LOOPBACK.test(hostname)) return Promise.reject(refuse(`lookup ${hostname}`));
  return Reflect.apply(lookupPromise, this, [hostname, ...rest]) as unknown;
} as typeof dns.promises.lookup;
