/**
 * Web mode, on the real thing: the web shell started on a data folder with the embedded sandbox
 * in its own process, the real services and router, the built renderer in Debian's Chromium
 * reaching them over the WebSocket the page's own web bridge opens. Every screen, a sync, a
 * review, a listener round trip, a dropped socket, two tabs, a restart on the same data folder,
 * and everyone else refused: other origins, other Host names, no cookie, a spent token.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import WebSocket from 'ws';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import type { LedgerdeskApi } from '../../src/shared/ipc/bridge.ts';
import { DataFolderInUse } from '../../src/main/app/dataFolderLock.ts';
import { WEB_SOCKET_PATH } from '../../src/shared/ipc/webSocketProtocol.ts';
import { statusOf, upgradeStatus } from './support/rawRequests.ts';
import { openSocket, SocketClient } from './support/webClient.ts';
import { shoot } from './support/screens.ts';
import { openWebMode, startWebModeApp, waitUntilConnected, type WebModeApp } from './support/webModeApp.ts';
import { register } from './support/listenerApp.ts';

test.describe.configure({ mode: 'serial', timeout: 240_000 });

let folder: string;
const keychain = new InMemorySecretStore();
let app: WebModeApp;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];
let token: string;

function portOf(origin: string): number {
  return Number(new URL(origin).port);
}

async function sessionCookie(of: BrowserContext): Promise<string> {
  const cookies = await of.cookies();
  const session = cookies.find((cookie) => cookie.name === 'ledgerdesk_session');
  if (session === undefined) throw new Error('the browser holds no session cookie');
  return `${session.name}=${session.value}`;
}

async function go(on: Page, screen: string): Promise<void> {
  await on.locator(`.nav-item[href$="#/${screen}"]`).click();
  await expect(on.locator('.nav-item.is-active')).toHaveAttribute('href', new RegExp(`#/${screen}$`));
}

async function simulateAch(on: Page, amount: string): Promise<void> {
  const sandbox = app.shell.ledgerdesk.sandbox;
  if (sandbox === null) throw new Error('the embedded sandbox is not running');
  const account = await on.evaluate(async () => {
    const api = (globalThis as unknown as { ledgerdesk: LedgerdeskApi }).ledgerdesk;
    const accounts = await api.accounts.list({ profileId: 'local-sandbox' });
    return accounts.rows[0]?.id ?? null;
  });
  const response = await fetch(`${sandbox.baseUrl}/simulation`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64')}`,
    },
    body: JSON.stringify({ type: 'ach.create', simulation: { account_id: account, amount, direction: 'credit' } }),
  });
  expect(response.status, await response.clone().text()).toBe(202);
}

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  // Starting the sandbox's process and the services took past Playwright's 30 s hook default under load 25.
  test.setTimeout(240_000);
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-web-'));
  app = await startWebModeApp(folder, keychain);
  token = new URL(app.shell.entryUrl).searchParams.get('token') ?? '';
  expect(token).toHaveLength(43);
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await openWebMode(context, app.shell.entryUrl, problems);
});

test.afterAll(async () => {
  await context.close().catch(() => undefined);
  await app.shell.stop();
  rmSync(folder, { recursive: true, force: true });
});

test('the printed address signs this browser in once, and leaves no token behind', async ({ browser }) => {
  // The page replaced its address: the token is not in its address bar or its back list.
  expect(page.url()).toBe(`${app.shell.origin}/`);
  // Back leaves the app for the blank page the tab started on; forward is the app without the token.
  await page.goBack();
  expect(page.url()).toBe('about:blank');
  await page.goForward();
  expect(page.url()).toBe(`${app.shell.origin}/`);
  await waitUntilConnected(page);
  const cookies = await context.cookies();
  const session = cookies.find((cookie) => cookie.name === 'ledgerdesk_session');
  expect(session?.httpOnly).toBe(true);
  expect(session?.sameSite).toBe('Strict');
  expect(session?.value).not.toContain(token);
  expect(await page.evaluate(() => (globalThis as unknown as { document: { cookie: string } }).document.cookie)).toBe(
    '',
  );
  // The tab key is in this origin's storage, not in a cookie, and its <meta> is gone from the page.
  const tabKey = await page.evaluate(() => localStorage.getItem('ledgerdesk.tabKey'));
  expect(tabKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
  expect(cookies.map((cookie) => cookie.value)).not.toContain(tabKey);
  await expect(page.locator('meta[name="ledgerdesk-tab-key"]')).toHaveCount(0);

  // Spent: another browser with the same address gets the page that says how to get a new one.
  const other = await browser.newContext();
  const answer = await other.request.get(app.shell.entryUrl, { maxRedirects: 0 });
  expect(answer.status()).toBe(401);
  expect(await answer.text()).toContain('npm run ledger -- serve --token');
  await other.close();
});

test('the first open of the embedded sandbox shows its pending transactions without pressing Sync', async () => {
  // An empty data folder: the shell synced the sandbox's first account by itself.
  const firstOpen = await app.shell.ledgerdesk.firstOpenSync;
  expect(firstOpen.started).toBe(true);
  await go(page, 'pending-transactions');
  const grid = page.getByRole('grid', { name: 'Pending transactions' });
  // Waits on the app's own signal: the job's end reloads the list from the cache.
  await expect(grid.getByRole('row').nth(3)).toBeVisible({ timeout: 120_000 });
  await expect(page.locator('.list-footer')).not.toContainText('never synced', { timeout: 120_000 });
  if (firstOpen.started) {
    await expect(page.getByRole('combobox', { name: 'Account' })).toHaveValue(firstOpen.accountId);
  }
  await shoot(page, 'web-mode-first-open-light');
});

test('every screen draws over the web transport, on the real services', async () => {
  // Every screen the sidebar offers (the app's own list, so a new screen is covered too).
  const screens: string[] = [];
  for (const link of await page.locator('.nav-item').all()) {
    // The href carries the window's path before the route ("/#/overview"): keep the route.
    screens.push(((await link.getAttribute('href')) ?? '').split('#/')[1] ?? '');
  }
  expect(screens.length).toBeGreaterThanOrEqual(9);
  for (const screen of screens) {
    await go(page, screen);
    await expect(page.locator('main')).toBeVisible();
    await expect(page.locator('.state .spinner-lg')).toHaveCount(0);
  }
  await go(page, 'pending-transactions');
  await shoot(page, 'web-mode-pending-transactions-light');
  expect(problems).toEqual([]);
});

test('syncs pending transactions from the embedded sandbox and reviews one', async () => {
  await go(page, 'pending-transactions');
  await page.getByRole('button', { name: 'Sync', exact: true }).click();
  const grid = page.getByRole('grid', { name: 'Pending transactions' });
  await expect(grid.getByRole('row').nth(3)).toBeVisible({ timeout: 120_000 });
  await expect(page.locator('.list-footer')).not.toContainText('Not synced yet', { timeout: 120_000 });

  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('j');
  await page.keyboard.press('c');
  const first = grid.locator('.vtable-row:not(.is-placeholder)').first();
  await expect(first).toContainText('cleared');
  await shoot(page, 'web-mode-reviewed-light');
});

test('the review report saves as PDF in web mode, printed by the machine’s Chromium', async () => {
  const saved = await page.evaluate(async () => {
    const api = (globalThis as unknown as { ledgerdesk: LedgerdeskApi }).ledgerdesk;
    return api.reviews.saveReport({ profileId: 'local-sandbox', format: 'pdf' });
  });
  expect(saved.saved).toBe(true);
  const path = saved.path ?? '';
  expect(path.startsWith(join(folder, 'downloads'))).toBe(true);
  expect(path.endsWith('.pdf')).toBe(true);
  const pdf = readFileSync(path);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  // Its text is the report's (poppler-utils' pdftotext), with the review made above.
  const text = execFileSync('pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
  expect(text).toContain('Review report');
  expect(text).toContain('Local sandbox');
  expect(text).toMatch(/cleared/i);
});

test('a listener round trip: start, register with the bank, a delivery arrives', async () => {
  await go(page, 'listener');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByText('listening')).toBeVisible();
  await register(page, ['ach.create']);
  await simulateAch(page, '12.34');
  const requests = page.getByRole('grid', { name: 'Requests' });
  await expect(requests.getByRole('row').nth(1)).toContainText('ach.create', { timeout: 60_000 });
  await expect(requests.getByRole('row').nth(1)).toContainText('ok');
});

test('two tabs both work, and an event reaches both', async () => {
  const second = await context.newPage();
  second.on('pageerror', (error) => problems.push(error.message));
  await second.goto(`${app.shell.origin}/#/listener`);
  await waitUntilConnected(second);
  const rowsOf = (tab: Page) => tab.getByRole('grid', { name: 'Requests' }).locator('.vtable-row:not(.is-placeholder)');
  await expect(rowsOf(second).first()).toBeVisible();
  const before = [await rowsOf(page).count(), await rowsOf(second).count()];
  expect(before[0]).toBe(before[1]);
  await simulateAch(page, '23.45');
  await expect(rowsOf(page)).toHaveCount((before[0] ?? 0) + 1, { timeout: 60_000 });
  await expect(rowsOf(second)).toHaveCount((before[1] ?? 0) + 1, { timeout: 60_000 });
  await second.close();
});

test('a dropped socket is reconnected: no answer is lost and events come again', async () => {
  // Many calls in flight, then every socket cut at once, as a network drop would.
  const answers = page.evaluate(async () => {
    const calls = Array.from({ length: 40 }, () =>
      (globalThis as unknown as { ledgerdesk: LedgerdeskApi }).ledgerdesk.profiles.list().then(
        (list) => list.profiles.length,
        (error: unknown) => `failed: ${JSON.stringify(error)}`,
      ),
    );
    return Promise.all(calls);
  });
  app.shell.connections.dropSockets();
  const results = await answers;
  expect(results).toHaveLength(40);
  expect(results.every((result) => typeof result === 'number' && result >= 1)).toBe(true);
  await expect(page.locator('html')).toHaveAttribute('data-ledgerdesk-connection', 'open');

  // Subscribed again: a delivery made after the drop still reaches the page.
  await go(page, 'listener');
  const rows = page.getByRole('grid', { name: 'Requests' }).locator('.vtable-row:not(.is-placeholder)');
  const before = await rows.count();
  app.shell.connections.dropSockets();
  await expect(page.locator('html')).toHaveAttribute('data-ledgerdesk-connection', 'open');
  await simulateAch(page, '34.56');
  await expect(rows).toHaveCount(before + 1, { timeout: 60_000 });
});

test('a page on another origin cannot use the HTTP API or the socket, even in the logged-in browser', async () => {
  const port = portOf(app.shell.origin);
  // The attacker's page: another port of 127.0.0.1 (the same "site", so SameSite lets the cookie go).
  const attacker: Server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>elsewhere</title>');
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  const attackerOrigin = `http://127.0.0.1:${String((attacker.address() as AddressInfo).port)}`;
  const evil = await context.newPage();
  await evil.goto(attackerOrigin);
  const tried = await evil.evaluate(
    async ({ target, socketUrl }) => {
      const read = await fetch(`${target}/`, { credentials: 'include' }).then(
        (response) => `read ${String(response.status)}`,
        () => 'refused',
      );
      const blind = await fetch(`${target}/`, { credentials: 'include', mode: 'no-cors' }).then(
        (response) => `opaque ${response.type}`,
        () => 'refused',
      );
      const socket = await new Promise<string>((resolve) => {
        const ws = new WebSocket(socketUrl);
        ws.onopen = () => {
          resolve('open');
        };
        ws.onerror = () => {
          resolve('refused');
        };
      });
      return { read, blind, socket };
    },
    { target: app.shell.origin, socketUrl: `${app.shell.origin.replace('http', 'ws')}${WEB_SOCKET_PATH}` },
  );
  expect(tried.read).toBe('refused');
  expect(tried.socket).toBe('refused');
  // A blind (no-cors) request gets an opaque answer the page cannot read; the server refused it anyway:
  const cookie = await sessionCookie(context);
  const host = `127.0.0.1:${String(port)}`;
  expect((await statusOf(port, '/', { host, cookie, origin: attackerOrigin })).status).toBe(403);
  expect((await statusOf(port, '/', { host, cookie, 'sec-fetch-site': 'same-site' })).status).toBe(403);
  expect((await statusOf(port, '/', { host, cookie, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
  expect(await upgradeStatus(port, WEB_SOCKET_PATH, { host, cookie, origin: attackerOrigin })).toBe(403);
  expect(await upgradeStatus(port, WEB_SOCKET_PATH, { host, cookie, origin: 'null' })).toBe(403);
  expect(await upgradeStatus(port, WEB_SOCKET_PATH, { host, cookie })).toBe(403);
  // No CORS, ever: not even for the app's own origin.
  const own = await statusOf(port, '/', { host, cookie, origin: app.shell.origin });
  expect(own.status).toBe(200);
  expect(Object.keys(own.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  expect(String(own.headers['content-security-policy'])).toContain("connect-src 'self'");
  expect(String(own.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  await evil.close();
  await new Promise<void>((resolve) =>
    attacker.close(() => {
      resolve();
    }),
  );
});

test('DNS-rebinding Host forms, a missing cookie and a wrong token are refused', async () => {
  const port = portOf(app.shell.origin);
  const cookie = await sessionCookie(context);
  const p = String(port);
  for (const host of [
    `localhost:${p}`,
    `evil.example:${p}`,
    `127.0.0.1.nip.io:${p}`,
    `2130706433:${p}`,
    `0x7f000001:${p}`,
    `[::1]:${p}`,
    `127.0.0.1:${String(port + 1)}`,
    '127.0.0.1',
    `LEDGERDESK.EXAMPLE:${p}`,
    '',
  ]) {
    const answer = await statusOf(port, '/', { host, cookie });
    expect(answer.status, `Host ${host}`).toBe(421);
    expect(answer.body).toBe('');
    expect(await upgradeStatus(port, WEB_SOCKET_PATH, { host, cookie, origin: app.shell.origin })).toBe(421);
  }
  const host = `127.0.0.1:${p}`;
  // Files and the socket's path: an empty 401. A page: the 401 says how to sign in again, and holds no data.
  for (const path of ['/web-bridge.js', WEB_SOCKET_PATH, '/../../etc/passwd', '/ledgerdesk/signed-in']) {
    const answer = await statusOf(port, path, { host });
    expect(answer.status, path).toBe(401);
    expect(answer.body).toBe('');
  }
  for (const path of ['/', '/index.html', '/pending-transactions']) {
    const answer = await statusOf(port, path, { host });
    expect(answer.status, path).toBe(401);
    expect(answer.body).toContain('Sign in to Ledgerdesk again');
    expect(answer.body).not.toContain('<script');
  }
  expect((await statusOf(port, '/', { host, cookie: 'ledgerdesk_session=forged' })).status).toBe(401);
  expect((await statusOf(port, `/?token=${'A'.repeat(43)}`, { host })).status).toBe(401);
  expect((await statusOf(port, `/?token=${token}`, { host })).status).toBe(401);
  expect(await upgradeStatus(port, WEB_SOCKET_PATH, { host, origin: app.shell.origin })).toBe(401);
  // The cookie alone no longer opens the socket (W1): the tab key is missing.
  expect(await upgradeStatus(port, WEB_SOCKET_PATH, { host, cookie, origin: app.shell.origin })).toBe(401);
  expect((await statusOf(port, '/', { host, cookie }, 'POST')).status).toBe(405);
  expect((await statusOf(port, '/', { host, cookie }, 'OPTIONS')).status).toBe(405);
});

test('a Production write goes only with the code the terminal showed for it (W2)', async () => {
  const sandbox = app.shell.ledgerdesk.sandbox;
  if (sandbox === null) throw new Error('the embedded sandbox is not running');
  // The page's own socket, as script in the page would use it: its cookie and its tab key.
  const tabKey = (await page.evaluate(() => localStorage.getItem('ledgerdesk.tabKey'))) ?? '';
  const opened = await openSocket(app.shell.origin, {
    cookie: await sessionCookie(context),
    tabKey,
    origin: app.shell.origin,
  });
  expect(opened.status).toBe(101);
  expect(opened.protocol).toBe('ledgerdesk');
  const client = new SocketClient(opened.socket as WebSocket);
  await client.hello('production-write-test-0001');
  const added = await client.result(
    client.call('profiles.create', {
      name: 'Bank of Production',
      baseUrl: sandbox.baseUrl,
      authScheme: 'basic',
      keyId: sandbox.keyId,
      production: true,
    }),
  );
  expect(added.ok, JSON.stringify(added.error)).toBe(true);
  const profileId = (added.value as { id: string }).id;
  const stored = await client.result(client.call('credentials.set', { profileId, secret: sandbox.keySecret }));
  expect(stored.ok, JSON.stringify(stored.error)).toBe(true);
  const write = (url: string): number =>
    client.call('webhooks.create', {
      profileId,
      request: { url, event: 'ach.create' },
      confirmProduction: true,
    });
  const codeOf = async (id: number): Promise<string> => {
    const result = await client.result(id);
    return result.ok ? 'ok' : (result.error?.code ?? '?');
  };

  // Without the page's flag: refused by the services, nobody is asked.
  const unflagged = client.call('webhooks.create', {
    profileId,
    request: { url: 'https://hooks.example/unflagged', event: 'ach.create' },
  });
  expect(await codeOf(unflagged)).toBe('confirmation_required');
  expect(client.inbox.some((message) => message['type'] === 'ask')).toBe(false);

  // Declined: nothing is sent. The question is the server's, written from the write itself, and
  // the terminal shows the same words with the code; the page's question never holds it.
  const declinedCall = write('https://hooks.example/declined');
  const declined = await client.next('ask');
  expect((declined['question'] as { message: string }).message).toContain('webhooks.create');
  expect((declined['question'] as { message: string }).message).toContain('Bank of Production');
  expect((declined['question'] as { detail: string }).detail).toContain('https://hooks.example/declined');
  expect(JSON.stringify(declined)).not.toContain(app.lastCode());
  expect(Object.keys(declined).sort()).toEqual(['askId', 'question', 'type']);
  client.send({ type: 'reply', askId: declined['askId'], code: null });
  expect(await codeOf(declinedCall)).toBe('confirmation_required');

  // A guess is not the code (and counts as a wrong one).
  const guessedCall = write('https://hooks.example/guessed');
  const guessed = await client.next('ask');
  client.send({ type: 'reply', askId: guessed['askId'], code: app.lastCode() === '123456' ? '654321' : '123456' });
  expect(await codeOf(guessedCall)).toBe('confirmation_required');

  // A code shown for another write does not carry over.
  const firstCall = write('https://hooks.example/first');
  const first = await client.next('ask');
  const firstCode = app.lastCode();
  const secondCall = write('https://hooks.example/second');
  const second = await client.next('ask');
  client.send({ type: 'reply', askId: second['askId'], code: firstCode });
  expect(await codeOf(secondCall)).toBe('confirmation_required');
  client.send({ type: 'reply', askId: first['askId'], code: null });
  expect(await codeOf(firstCall)).toBe('confirmation_required');

  // The code the person read on the terminal, typed once: the write goes.
  const confirmedCall = write('https://hooks.example/confirmed');
  const confirmed = await client.next('ask');
  const shown = app.terminal[app.terminal.length - 1];
  expect(shown?.kind).toBe('code');
  expect(shown?.question.detail).toContain('https://hooks.example/confirmed');
  const code = app.lastCode();
  client.send({ type: 'reply', askId: confirmed['askId'], code });
  expect(await codeOf(confirmedCall)).toBe('ok');
  // Spent: the same code for the same write again is refused.
  const againCall = write('https://hooks.example/confirmed');
  const again = await client.next('ask');
  client.send({ type: 'reply', askId: again['askId'], code });
  expect(await codeOf(againCall)).toBe('confirmation_required');

  // Switching the Production guard off is asked the same way: a page's flag alone does not do it.
  const guardCall = client.call('profiles.update', { id: profileId, production: false, confirmProduction: true });
  const guard = await client.next('ask');
  expect((guard['question'] as { message: string }).message).toContain('Production guard off');
  client.send({ type: 'reply', askId: guard['askId'], code: null });
  expect(await codeOf(guardCall)).toBe('confirmation_required');
  const listed = await client.result(client.call('profiles.list', {}));
  const profiles = (listed.value as { profiles: { id: string; production: boolean }[] }).profiles;
  expect(profiles.find((entry) => entry.id === profileId)?.production).toBe(true);
  client.close();
});

test('a second start on the same data folder is refused with the address of the one running', async () => {
  const second = startWebModeApp(folder, keychain);
  await expect(second).rejects.toBeInstanceOf(DataFolderInUse);
  await expect(second).rejects.toThrow(app.shell.origin);
});

test('restarts on the same data folder: the cache and the review are still there', async ({ browser }) => {
  await context.close();
  await app.shell.stop();
  app = await startWebModeApp(folder, keychain);
  // The sandbox's pending transactions are cached now: no second first-open sync.
  expect(await app.shell.ledgerdesk.firstOpenSync).toEqual({ started: false, reason: 'already-cached' });
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await openWebMode(context, app.shell.entryUrl, problems);
  await go(page, 'pending-transactions');
  const grid = page.getByRole('grid', { name: 'Pending transactions' });
  await expect(grid.getByRole('row').nth(3)).toBeVisible();
  await expect(page.locator('.list-footer')).not.toContainText('Not synced yet');
  await page.getByRole('combobox', { name: 'Review' }).selectOption('cleared');
  await expect(grid.locator('.vtable-row:not(.is-placeholder)').first()).toContainText('cleared');
});

test('nothing the shell logged holds a token, a cookie, the tab key or the sandbox key', async () => {
  const cookie = (await sessionCookie(context)).split('=')[1] ?? '';
  const tabKey = (await page.evaluate(() => localStorage.getItem('ledgerdesk.tabKey'))) ?? '';
  const sandboxSecret = app.shell.ledgerdesk.sandbox?.keySecret ?? '';
  const all = app.logged.join('\n');
  for (const secret of [
    token,
    new URL(app.shell.entryUrl).searchParams.get('token') ?? '',
    cookie,
    tabKey,
    sandboxSecret,
  ]) {
    expect(secret.length).toBeGreaterThan(20);
    expect(all).not.toContain(secret);
  }
  expect(problems).toEqual([]);
});
