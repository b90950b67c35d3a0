/**
 * Issue 15 item 3: requests the page cannot steer. The real services, listener and IPC router
 * (what the window calls, minus Electron), a confirmation port standing in for the native
 * dialog, and catcher servers that record everything they receive: one on loopback, and one
 * on this machine's own non-loopback interface address, which counts as "another host".
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmQuestion } from '../../../src/main/ipc/listenerHandlers.ts';
import { createRouter } from '../../../src/main/ipc/routerCore.ts';
import type { RunningServices } from '../../../src/main/app/services.ts';
import { EXCERPT_BYTES } from '../../../src/main/services/listener/outbound.ts';
import type { LedgerdeskApi } from '../../../src/shared/ipc/bridge.ts';
import { startTestServices, windowApi } from '../../support/testServices.ts';
import { basicHeader, eventually, notificationOf, postNotification } from '../listener/support.ts';
import { refusal } from '../../support/refusal.ts';

const OWN_WINDOW = 7;
/** This machine's first non-loopback IPv4 address: reachable only from here, yet not loopback. */
const OTHER_HOST = Object.values(networkInterfaces())
  .flatMap((entries) => entries ?? [])
  .find((entry) => entry.family === 'IPv4' && !entry.internal)?.address;
if (OTHER_HOST === undefined) {
  process.stderr.write('outboundTargets: no non-loopback interface here; the "another host" tests skip.\n');
}

interface Catcher {
  url: string;
  received: { path: string; headers: IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

/** Records every request; answers 10 KiB, so the excerpt shown back must be capped. */
async function startCatcher(host: string): Promise<Catcher> {
  const received: Catcher['received'] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString() });
      response.writeHead(200, { 'content-type': 'text/plain' }).end('C'.repeat(10 * 1024));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

let folder: string;
let services: RunningServices;
let api: LedgerdeskApi;
let listenerUrl: string;
let loopback: Catcher;
let other: Catcher | null = null;
const questions: ConfirmQuestion[] = [];
let answer = false;

/** A notification kept by the listener, sent with the bank's Basic header; its id. */
async function keptNotification(id: string): Promise<string> {
  const answered = await postNotification(`${listenerUrl}/webhooks/in`, notificationOf(id), {
    authorization: basicHeader('bank_user', 'bank-webhook-secret'),
  });
  expect(answered.status).toBe(200);
  return String(answered.requestId);
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-targets-'));
  services = await startTestServices(folder, {
    // The native dialog: the test answers it, the renderer cannot.
    confirm: (question) => {
      questions.push(question);
      return Promise.resolve(answer);
    },
  });
  const router = createRouter({
    handlers: services.handlers,
    senderPolicy: { isOwnWindow: (id) => id === OWN_WINDOW, allowedOrigins: ['app://ledgerdesk'] },
    knownSecrets: () => services.knownSecrets(),
  });
  api = windowApi(router, OWN_WINDOW);
  const status = await api.listener.start({ port: 0 });
  listenerUrl = status.url ?? '';
  await api.listener.configure({ expectedBasicUser: 'bank_user', expectedBasicSecret: 'bank-webhook-secret' });
  loopback = await startCatcher('127.0.0.1');
  if (OTHER_HOST !== undefined) other = await startCatcher(OTHER_HOST);
});

afterAll(async () => {
  await services.stop();
  await loopback.close();
  await other?.close();
  rmSync(folder, { recursive: true, force: true });
});

// Forwards go to exactly the address given (issue 38, docs/decisions/38-forward-exact-url.md).
describe('forward and replay by default', () => {
  it('reach loopback handlers with the request as received (forwards: the bank’s Authorization included, issue 27; replays: never), and show a capped answer', async () => {
    const id = await keptNotification('ach_loop');
    const forwarded = await api.listener.forward({ requestId: id, url: `${loopback.url}/manual` });
    expect(forwarded.status).toBe(200);
    expect(forwarded.bodyExcerpt).toHaveLength(EXCERPT_BYTES);

    await api.listener.configure({ forwardTo: `${loopback.url}/auto` });
    await keptNotification('ach_auto');
    await eventually(() => loopback.received.some((entry) => entry.path === '/auto'));
    await api.listener.configure({ forwardTo: null });
    const automatic = loopback.received.find((entry) => entry.path === '/auto');
    expect(JSON.parse(automatic?.body ?? '{}')).toMatchObject({ id: 'ach_auto' });
    // A forward is the request as the bank sent it: a handler that checks Basic auth must see it (issue 27).
    expect(automatic?.headers.authorization).toBe(basicHeader('bank_user', 'bank-webhook-secret'));
    expect(automatic?.headers['x-ledgerdesk-verdict']).toBe('ok');
    // The manual forward of a kept request: the header is made again from the keychain (the verdict was ok).
    const manual = loopback.received.find((entry) => entry.path === '/manual');
    expect(manual?.headers.authorization).toBe(basicHeader('bank_user', 'bank-webhook-secret'));

    const replayed = await api.listener.replay({
      requestIds: [id],
      targetUrl: `${loopback.url}/edited`,
      edit: { body: '{"edited":true}' },
    });
    expect(replayed.results[0]).toMatchObject({ status: 200 });
    expect(replayed.results[0]?.bodyExcerpt).toHaveLength(EXCERPT_BYTES);
    // A replay is a new request of the user's: it never carries the bank's credential elsewhere.
    expect(loopback.received.find((entry) => entry.path === '/edited')?.headers.authorization).toBeUndefined();
  });

  it('applies the listener’s own Basic secret only when replaying to the listener itself', async () => {
    const id = await keptNotification('ach_self');
    const before = loopback.received.length;
    const toHandler = await refusal(
      api.listener.replay({ requestIds: [id], targetUrl: `${loopback.url}/signed`, applyBasicAuth: true }),
    );
    expect(toHandler).toMatchObject({ code: 'invalid_input', field: 'applyBasicAuth' });
    expect(toHandler.message).toMatch(/sent only to the listener itself/);
    expect(loopback.received.length).toBe(before);

    // Back to the listener at the exact address it is bound to: signed, so it verifies again.
    // Another loopback name at its port (localhost, 127.0.0.2, [::1]) may be another server
    // (review N4): the secret does not go there.
    const port = new URL(listenerUrl).port;
    for (const other of [`http://localhost:${port}`, `http://127.0.0.2:${port}`, `http://[::1]:${port}`]) {
      const refused = await refusal(
        api.listener.replay({ requestIds: [id], targetUrl: `${other}/webhooks/in`, applyBasicAuth: true }),
      );
      expect(refused.message).toMatch(/sent only to the listener itself/);
    }
    const self = await api.listener.replay({
      requestIds: [id],
      targetUrl: `http://127.0.0.1:${port}/webhooks/in`,
      applyBasicAuth: true,
    });
    expect(self.results[0]).toMatchObject({ status: 200 });
    const { rows } = await api.listener.listRequests({ objectId: 'ach_self', limit: 10 });
    expect(rows.map((row) => row.verdict)).toEqual(['ok', 'ok']);
  });
});

describe.skipIf(OTHER_HOST === undefined)('another host', () => {
  it('is refused for forward, replay, edit-and-replay and forward-to until it is allowed; nothing reaches it', async () => {
    const target = other as Catcher;
    const id = await keptNotification('ach_other');
    for (const attempt of [
      api.listener.forward({ requestId: id, url: `${target.url}/f` }),
      api.listener.replay({ requestIds: [id], targetUrl: `${target.url}/r` }),
      api.listener.replay({ requestIds: [id], targetUrl: `${target.url}/e`, edit: { body: '{}' } }),
      api.listener.configure({ forwardTo: `${target.url}/auto` }),
    ]) {
      const refused = await refusal(attempt);
      expect(refused.code).toBe('invalid_input');
      expect(refused.message).toMatch(/is not on the listener's allow-list/);
    }
    expect((await api.listener.getConfig()).forwardTo).toBeNull();
    expect(target.received).toEqual([]);
  });

  it('cannot be allowed by the renderer alone: configure takes no allow-list, and a declined dialog adds nothing', async () => {
    const target = other as Catcher;
    const sneaky = await refusal(
      api.listener.configure({ allowedTargets: [target.url] } as unknown as Parameters<
        typeof api.listener.configure
      >[0]),
    );
    expect(sneaky.code).toBe('invalid_input');
    answer = false;
    const declined = await refusal(api.listener.allowTarget({ url: `${target.url}/hooks` }));
    expect(declined.code).toBe('cancelled');
    expect(questions.at(-1)?.message).toBe(`Let forwards and replays reach ${target.url}?`);
    expect((await api.listener.getConfig()).allowedTargets).toEqual([]);
  });

  it('once confirmed, is reached by forward, replay and forward-to; forwards carry the bank’s Authorization as received, replays never the listener’s secret', async () => {
    const target = other as Catcher;
    answer = true;
    const asked = questions.length;
    const allowed = await api.listener.allowTarget({ url: `${target.url}/hooks?x=1` });
    expect(allowed).toEqual({ origin: target.url, allowedTargets: [target.url] });
    expect(questions.length).toBe(asked + 1);
    // Already allowed: no second question.
    await api.listener.allowTarget({ url: target.url });
    expect(questions.length).toBe(asked + 1);

    const id = await keptNotification('ach_allowed');
    expect((await api.listener.forward({ requestId: id, url: `${target.url}/f` })).status).toBe(200);
    const replayed = await api.listener.replay({ requestIds: [id], targetUrl: `${target.url}/r` });
    expect(replayed.results[0]?.bodyExcerpt).toHaveLength(EXCERPT_BYTES);
    const signed = await refusal(
      api.listener.replay({ requestIds: [id], targetUrl: `${target.url}/s`, applyBasicAuth: true }),
    );
    expect(signed.message).toMatch(/sent only to the listener itself/);

    await api.listener.configure({ forwardTo: `${target.url}/auto` });
    await keptNotification('ach_allowed_auto');
    await eventually(() => target.received.some((entry) => entry.path === '/auto'));
    await api.listener.configure({ forwardTo: null });
    expect(target.received.map((entry) => entry.path).sort()).toEqual(['/auto', '/f', '/r']);
    for (const entry of target.received) {
      expect(entry.headers.authorization).toBe(
        entry.path === '/r' ? undefined : basicHeader('bank_user', 'bank-webhook-secret'),
      );
    }
  });

  it('is forgotten on request, and a forward address saved earlier is then skipped with the reason', async () => {
    const target = other as Catcher;
    await api.listener.configure({ forwardTo: `${target.url}/later` });
    const forgotten = await api.listener.forgetTarget({ origin: target.url });
    expect(forgotten).toEqual({ removed: true, allowedTargets: [] });
    const id = await keptNotification('ach_forgotten');
    let detail = await api.listener.getRequest({ id });
    // Bounded by rounds, not by a clock: the skipped forward is recorded right after the answer.
    for (let round = 0; round < 500 && detail.forwards.length === 0; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      detail = await api.listener.getRequest({ id });
    }
    expect(detail.forwards[0]?.error).toMatch(/^skipped: .* is not on the listener's allow-list/);
    expect(target.received.some((entry) => entry.path === '/later')).toBe(false);
    await api.listener.configure({ forwardTo: null });
  });
});

describe('never allowed', () => {
  it('refuses link-local (metadata) addresses and URLs with credentials, without asking', async () => {
    const asked = questions.length;
    answer = true;
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://[fe80::1]:8080/', 'http://0.0.0.0:9/']) {
      const refused = await refusal(api.listener.allowTarget({ url }));
      expect(refused).toMatchObject({ code: 'invalid_input', field: 'url' });
    }
    const withUser = await refusal(api.listener.allowTarget({ url: 'http://user:pass@hooks.example/' }));
    expect(withUser.message).toMatch(/user or password/);
    const metadata = await refusal(api.listener.forward({ requestId: '1', url: 'http://169.254.169.254/x' }));
    expect(metadata.message).toMatch(/link-local/);
    expect(questions.length).toBe(asked);
    expect((await api.listener.getConfig()).allowedTargets).toEqual([]);
  });
});

describe('the request detail', () => {
  it('shows headers named like Object.prototype members as sent (review L14)', async () => {
    const answered = await postNotification(`${listenerUrl}/webhooks/in`, notificationOf('ach_odd_headers'), {
      authorization: basicHeader('bank_user', 'bank-webhook-secret'),
      constructor: 'sent-constructor',
      tostring: 'sent-tostring',
    });
    const detail = await api.listener.getRequest({ id: String(answered.requestId) });
    expect(detail.headers['constructor']).toBe('sent-constructor');
    expect(detail.headers['tostring']).toBe('sent-tostring');
    expect(detail.headers['authorization']).toBe('[redacted]');
  });
});
