/**
 * W3 of the af86022 review: `--expose` served the sign-in token, the session cookie and every
 * answer over plain HTTP. Now `serve` refuses `--expose` without `--tls-cert`/`--tls-key`,
 * before anything starts; with them it speaks only HTTPS (the socket is wss) and the cookie is
 * `Secure`. `runServe` as `npm run serve` runs it (the real shell, sandbox process and
 * services), on loopback only: `--expose 127.0.0.1` takes the exposed path without listening
 * beyond this machine. The certificate is made by openssl for this run.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { runServe } from '../../src/main/web/serveCommand.ts';
import { EXPOSE_NEEDS_TLS } from '../../src/main/web/serveArguments.ts';
import { fetchRaw, openSocket, signIn, SocketClient } from '../e2e/support/webClient.ts';

let work: string;
let certFile: string;
let keyFile: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'ledgerdesk-web-tls-'));
  certFile = join(work, 'cert.pem');
  keyFile = join(work, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      keyFile,
      '-out',
      certFile,
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-days',
      '2',
    ],
    { stdio: 'ignore' },
  );
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

function collector(): { write(text: string): boolean; text(): string } {
  let all = '';
  return {
    write: (text: string) => {
      all += text;
      return true;
    },
    text: () => all,
  };
}

/** `serve` with these options until `stop` is called; its exit code, stdout and stderr. */
function serve(args: string[]) {
  const stdout = collector();
  const stderr = collector();
  let stop: () => void = () => undefined;
  const stopRequested = new Promise<void>((resolve) => {
    stop = resolve;
  });
  const exited = runServe(args, {
    stdout,
    stderr,
    env: { ...process.env, XDG_DOWNLOAD_DIR: join(work, 'downloads'), DISPLAY: '' },
    stopRequested,
    secretStore: new InMemorySecretStore(),
  });
  return { exited, stdout, stderr, stop };
}

describe('W3: beyond loopback only over TLS', () => {
  it('refuses --expose without a certificate and its key, before anything starts', async () => {
    const folder = join(work, 'refused');
    const exposed = serve(['--data', folder, '--no-open', '--expose', '0.0.0.0']);
    exposed.stop();
    expect(await exposed.exited).toBe(2);
    expect(exposed.stderr.text()).toContain(EXPOSE_NEEDS_TLS);
    expect(exposed.stdout.text()).toBe('');
    // Nothing started: no data folder, no lock.
    expect(existsSync(folder)).toBe(false);

    const halfPair = serve(['--data', folder, '--no-open', '--expose', '0.0.0.0', '--tls-cert', certFile]);
    halfPair.stop();
    expect(await halfPair.exited).toBe(2);
    expect(halfPair.stderr.text()).toContain('--tls-cert needs --tls-key (its key).');

    const missing = join(work, 'no-such-cert.pem');
    const unreadable = serve([
      '--data',
      folder,
      '--no-open',
      '--expose',
      '0.0.0.0',
      '--tls-cert',
      missing,
      '--tls-key',
      keyFile,
    ]);
    unreadable.stop();
    expect(await unreadable.exited).toBe(2);
    expect(unreadable.stderr.text()).toContain(`--tls-cert ${missing} cannot be read`);

    const notACertificate = serve(['--data', folder, '--no-open', '--tls-cert', keyFile, '--tls-key', keyFile]);
    notACertificate.stop();
    expect(await notACertificate.exited).toBe(2);
    expect(notACertificate.stderr.text()).toContain(`--tls-cert ${keyFile} is not a PEM certificate.`);
    expect(existsSync(folder)).toBe(false);
  });

  it('with them: HTTPS and wss only, the cookie Secure, and plain HTTP gets nothing', async () => {
    const folder = join(work, 'served');
    const served = serve([
      '--data',
      folder,
      '--no-open',
      '--json',
      '--expose',
      '127.0.0.1',
      '--tls-cert',
      certFile,
      '--tls-key',
      keyFile,
    ]);
    try {
      for (let waited = 0; !served.stdout.text().includes('\n'); waited += 1) {
        if (waited > 1200) throw new Error(`serve did not open: ${served.stderr.text()}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const opened = JSON.parse(served.stdout.text().split('\n')[0] ?? '{}') as { url: string; origin: string };
      expect(opened.origin).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(served.stderr.text()).toContain('It speaks only HTTPS');
      const ca = readFileSync(certFile);

      // Plain HTTP to the same port: no answer at all, no cookie; the token is not spent by it.
      const plain = await fetchRaw(opened.url.replace('https:', 'http:')).then(
        (answer) => `HTTP ${String(answer.status)} ${String(answer.headers['set-cookie'] ?? 'no cookie')}`,
        () => 'no answer',
      );
      expect(plain).not.toContain('ledgerdesk_session');

      const browser = await signIn(opened.url, ca);
      expect(browser.setCookie).toMatch(
        /^ledgerdesk_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Secure$/,
      );
      const socket = await openSocket(opened.origin, {
        cookie: browser.cookie,
        tabKey: browser.tabKey,
        origin: opened.origin,
        ca,
      });
      expect(socket.status).toBe(101);
      const client = new SocketClient(socket.socket as WebSocket);
      await client.hello('tls-session-000000000001');
      const listed = await client.result(client.call('profiles.list', {}));
      expect(listed.ok).toBe(true);
      client.close();
      // The socket over plain ws is not served either.
      expect(
        (
          await openSocket(opened.origin.replace('https:', 'http:'), {
            cookie: browser.cookie,
            tabKey: browser.tabKey,
            origin: opened.origin,
          })
        ).status,
      ).not.toBe(101);
    } finally {
      served.stop();
      expect(await served.exited).toBe(0);
    }
  });
});
