/**
 * Web mode's sign-in in a real browser (Debian's Chromium), against the af86022 review's W1 and
 * W2, and the page a browser without a sign-in gets:
 *
 * - W1, both ways the review found: the signed-in tab visits another server on another port of
 *   127.0.0.1, and follows a link from another site to it. That server receives the session
 *   cookie (browsers send it to every port), but nothing it receives, replayed by a plain
 *   process with a forged Origin, opens the socket: the tab key never leaves this origin.
 * - A closed browser (the cookie gone) and a new tab of another browser (no tab key) get the page
 *   that says how to get a new sign-in address; the address the running shell mints signs a new
 *   browser in and sends the old one's tab to that page.
 * - W2 in the page: a Production write goes when the person types the code the terminal showed
 *   into the browser's prompt, and not when the prompt is cancelled.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import type { LedgerdeskApi } from '../../src/shared/ipc/bridge.ts';
import { openSocket } from './support/webClient.ts';
import { shoot } from './support/screens.ts';
import { openWebMode, startWebModeApp, waitUntilConnected, type WebModeApp } from './support/webModeApp.ts';

test.describe.configure({ mode: 'serial', timeout: 240_000 });

interface Caught {
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** "Another local user's" server: a page that also calls back to itself, and a log of everything it receives. */
async function catcher(): Promise<{ server: Server; port: number; caught: Caught[] }> {
  const caught: Caught[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      caught.push({ url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if ((request.url ?? '').startsWith('/landing')) {
        response.writeHead(200, { 'content-type': 'text/html' });
        // Reads what this origin's storage holds, and calls back with it (a same-origin request carries the cookie).
        response.end(
          '<!doctype html><title>elsewhere</title><script>' +
            "fetch('/collect', { method: 'POST', body: JSON.stringify({ stored: localStorage.getItem('ledgerdesk.tabKey'), " +
            "all: Object.assign({}, localStorage) }) }).then(() => { document.title = 'collected'; });" +
            '</script>',
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>link</title>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, caught };
}

/** A page on another site (localhost is another site than 127.0.0.1) that links to the catcher. */
async function linkingSite(target: string): Promise<{ server: Server; url: string }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end(`<!doctype html><title>news</title><a id="go" href="${target}">read more</a>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://localhost:${String((server.address() as AddressInfo).port)}/` };
}

async function close(server: Server): Promise<void> {
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
}

let folder: string;
let app: WebModeApp;
let context: BrowserContext;
let page: Page;
const problems: string[] = [];

test.beforeAll(async ({ browser }) => {
  test.setTimeout(240_000);
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-web-security-'));
  app = await startWebModeApp(folder);
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await openWebMode(context, app.shell.entryUrl, problems);
});

test.afterAll(async () => {
  await context.close().catch(() => undefined);
  await app.shell.stop();
  rmSync(folder, { recursive: true, force: true });
});

test('W1: a second server on another 127.0.0.1 port that the tab visits receives nothing that opens the socket', async () => {
  const other = await catcher();
  const otherOrigin = `http://127.0.0.1:${String(other.port)}`;
  const site = await linkingSite(`${otherOrigin}/landing`);
  try {
    // The signed-in browser opens the other server's page directly ...
    const visit = await context.newPage();
    await visit.goto(`${otherOrigin}/landing`);
    await expect(visit).toHaveTitle('collected');
    // ... and follows a link to it from another site.
    await visit.goto(site.url);
    await visit.locator('#go').click();
    await expect(visit).toHaveTitle('collected');
    await visit.close();

    const tabKey = (await page.evaluate(() => localStorage.getItem('ledgerdesk.tabKey'))) ?? '';
    expect(tabKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The other server did receive the session cookie (cookies are not scoped by port) ...
    const cookies = other.caught.map((request) => request.headers.cookie).filter((value) => value !== undefined);
    expect(cookies.some((value) => value.includes('ledgerdesk_session='))).toBe(true);
    // ... but not the tab key: not in a header, not in what its page could read from storage.
    const everything = JSON.stringify(other.caught);
    expect(everything).not.toContain(tabKey);
    const stored = other.caught
      .filter((request) => request.url === '/collect')
      .map((request) => JSON.parse(request.body) as { stored: string | null; all: Record<string, string> });
    expect(stored).toHaveLength(2);
    for (const seen of stored) {
      expect(seen.stored).toBeNull();
      expect(seen.all).toEqual({});
    }

    // A plain process with everything the other server received: every Cookie header, Origin forged
    // as the app's own, and each header value it saw offered as the tab key. None opens the socket.
    const values = new Set<string>();
    for (const request of other.caught) {
      for (const value of Object.values(request.headers)) {
        for (const part of String(value).split(/[;,=\s]+/)) if (/^[A-Za-z0-9_-]{16,}$/.test(part)) values.add(part);
      }
    }
    for (const cookie of new Set(cookies)) {
      expect((await openSocket(app.shell.origin, { cookie, origin: app.shell.origin })).status).toBe(401);
      for (const value of values) {
        expect((await openSocket(app.shell.origin, { cookie, origin: app.shell.origin, tabKey: value })).status).toBe(
          401,
        );
      }
    }
    // The tab itself still holds its socket.
    await expect(page.locator('html')).toHaveAttribute('data-ledgerdesk-connection', 'open');
  } finally {
    await close(other.server);
    await close(site.server);
  }
});

test('a closed browser, or another browser’s tab, gets the page that says how to get a new address', async ({
  browser,
}) => {
  // The browser closed: its session cookie is gone. The address of the app answers with the page.
  const closed = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const fresh = await closed.newPage();
  const answer = await fresh.goto(`${app.shell.origin}/`);
  expect(answer?.status()).toBe(401);
  await expect(fresh.getByRole('heading', { name: 'Sign in to Ledgerdesk again', level: 1 })).toBeVisible();
  await expect(fresh.locator('pre code')).toHaveText('npm run ledger -- serve --token');
  await shoot(fresh, 'web-mode-signed-out-light');
  // The spent address: the same page.
  expect((await fresh.goto(app.shell.entryUrl))?.status()).toBe(401);
  await expect(fresh.getByRole('heading', { name: 'Sign in to Ledgerdesk again' })).toBeVisible();
  await closed.close();

  // A tab with the cookie but without the tab key (a browser whose storage was cleared): sent to the page.
  const keyless = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
  await keyless.addCookies(await context.cookies());
  const tab = await keyless.newPage();
  await tab.goto(`${app.shell.origin}/`);
  await expect(tab).toHaveURL(`${app.shell.origin}/ledgerdesk/signed-out`);
  await expect(tab.getByRole('heading', { name: 'Sign in to Ledgerdesk again', level: 1 })).toBeVisible();
  await shoot(tab, 'web-mode-signed-out-dark');
  await keyless.close();
});

test('W2 in the page: a Production write goes when the person types the terminal’s code into the prompt', async () => {
  const sandbox = app.shell.ledgerdesk.sandbox;
  if (sandbox === null) throw new Error('the embedded sandbox is not running');
  const profileId = await page.evaluate(
    async ({ baseUrl, keyId, keySecret }) => {
      const api = (globalThis as unknown as { ledgerdesk: LedgerdeskApi }).ledgerdesk;
      const created = await api.profiles.create({
        name: 'Bank of Production',
        baseUrl,
        authScheme: 'basic',
        keyId,
        production: true,
      });
      await api.credentials.set({ profileId: created.id, secret: keySecret });
      return created.id;
    },
    { baseUrl: sandbox.baseUrl, keyId: sandbox.keyId, keySecret: sandbox.keySecret },
  );
  const write = (url: string): Promise<string> =>
    page.evaluate(
      async ({ id, target }) => {
        const api = (globalThis as unknown as { ledgerdesk: LedgerdeskApi }).ledgerdesk;
        try {
          await api.webhooks.create({
            profileId: id,
            request: { url: target, event: 'ach.create' },
            confirmProduction: true,
          });
          return 'ok';
        } catch (error) {
          return (error as { code?: string }).code ?? 'failed';
        }
      },
      { id: profileId, target: url },
    );

  // The person cancels the prompt: nothing is sent.
  const prompts: string[] = [];
  page.once('dialog', (dialog) => {
    prompts.push(dialog.message());
    expect(dialog.type()).toBe('prompt');
    void dialog.dismiss();
  });
  expect(await write('https://hooks.example/cancelled')).toBe('confirmation_required');
  expect(prompts[0]).toContain('Send to a Production bank?');
  expect(prompts[0]).toContain('type the code Ledgerdesk printed in the terminal');
  expect(prompts[0]).not.toContain(app.lastCode());

  // The person reads the code on the terminal and types it: the write goes.
  page.once('dialog', (dialog) => {
    const shown = app.terminal[app.terminal.length - 1];
    expect(shown?.kind).toBe('code');
    expect(shown?.question.detail).toContain('https://hooks.example/typed');
    void dialog.accept(app.lastCode().replace(/^(\d{3})/, '$1 '));
  });
  expect(await write('https://hooks.example/typed')).toBe('ok');
  expect(problems).toEqual([]);
});

test('a new address from the running web mode signs a new browser in; the old tab is sent to the page', async ({
  browser,
}) => {
  const next = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const newer = await openWebMode(next, app.shell.newSignInAddress(), problems);
  await waitUntilConnected(newer);
  // One browser at a time: the first one's tab now says how to sign in again.
  await expect(page).toHaveURL(`${app.shell.origin}/ledgerdesk/signed-out`);
  await expect(page.getByRole('heading', { name: 'Sign in to Ledgerdesk again' })).toBeVisible();
  await next.close();
});
