/**
 * Listener → Setup → Registered webhooks end to end (issue 27, item 6), in Debian's Chromium on
 * the real IPC router, services, listener and sandbox: two registrations are listed; one is
 * removed with the keyboard after confirmation, the removal is announced and focus lands on the
 * remaining row's Remove. The axe gate runs on the list; screenshots go to test-results/screens/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { Router } from '../../src/main/ipc/routerCore.ts';
import { startServices, type RunningServices } from '../../src/main/shell/services.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { InMemoryProfileStorage } from '../../src/main/services/profiles/profileStorage.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { harnessRouter, openHarnessPage, showScreen } from './support/harnessRouter.ts';
import { HARNESS_WEB_CONTENTS_ID, type LedgerdeskPage } from './support/ledgerdeskPage.ts';
import { serveRenderer, type RendererServer } from './support/rendererServer.ts';
import { shoot } from './support/screens.ts';
import { expectAccessible } from './support/a11y.ts';

// Timeouts only stop a hung run; nothing here measures time.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

let folder: string;
let sandbox: RunningSandbox;
let services: RunningServices;
let renderer: RendererServer;
let router: Router;
const harnesses: LedgerdeskPage[] = [];
const problems: string[] = [];

async function openListener(
  browser: Browser,
  theme: 'light' | 'dark',
): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await openHarnessPage(browser, theme, {
    router,
    rendererUrl: renderer.url,
    record: { harnesses, problems },
  });
  await showScreen(opened.page, renderer.url, 'listener');
  return opened;
}

/** Toasts stack over the result panel for seconds: dismiss them so the picture shows the screen. */
async function shootWithoutToasts(page: Page, name: string): Promise<void> {
  const dismiss = page.locator('.toasts').getByRole('button', { name: 'Dismiss' });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  await shoot(page, name);
}

async function register(page: Page, event: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Event to register' }).selectOption(event);
  await page.getByRole('button', { name: 'Register with bank' }).click();
  await expect(page.getByText(`: ${event} → `)).toBeVisible();
}

test.beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-e2e-registrations-'));
  renderer = await serveRenderer();
  sandbox = await startSandbox({ port: 0, dataFile: join(folder, 'sandbox.db'), retryBaseMs: 40, accounts: 2 });
  services = await startServices({
    dataFolder: folder,
    sandbox,
    secretStore: new InMemorySecretStore(),
    settings: new InMemoryProfileStorage(),
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory keychain (tests)' }),
    app: { name: 'Ledgerdesk', version: '0.0.0-e2e', platform: process.platform },
    send: (channel, payload) => {
      for (const harness of harnesses) harness.send(channel, payload);
    },
    chooseSavePath: (name) => Promise.resolve(join(folder, name)),
    openExternal: () => false,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  router = harnessRouter(services, renderer.url);
});

/** A port free right now: the listener's remembered default may be taken by another run on this machine. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  return port;
}

test.beforeAll(async () => {
  await services.handlers.listener.configure(
    { port: await freePort() },
    { webContentsId: HARNESS_WEB_CONTENTS_ID, channel: 'listener.configure' },
  );
});

test.afterAll(async () => {
  await services.stop();
  await sandbox.close().catch(() => undefined);
  await renderer.close();
  rmSync(folder, { recursive: true, force: true });
});

test('lists the listener’s registrations and removes one with the keyboard', async ({ browser }) => {
  const { context, page } = await openListener(browser, 'light');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByText('listening')).toBeVisible();
  for (const event of ['ach.update', 'account_application.update']) await register(page, event);

  await page.getByRole('tab', { name: 'Setup' }).click();
  const list = page.getByRole('list', { name: 'Webhooks of this listener' });
  await expect(list.getByRole('listitem')).toHaveCount(2);
  await expect(list).toContainText('account_application.update');
  await expectAccessible(page, 'listener registrations');
  await shootWithoutToasts(page, 'listener-registrations-light');

  const remove = list.getByRole('button', { name: /^Remove webhook \S+ \(ach\.update\)$/ });
  await remove.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('The bank deletes the webhook');
  await dialog.getByRole('button', { name: /^Remove webhook/ }).click();
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(page.locator(':focus')).toHaveAttribute('aria-label', /\(account_application\.update\)$/);
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: /Removed webhook \S+ \(ach\.update\)\./ })
      .first(),
  ).toBeAttached();
  await context.close();
  expect(problems).toEqual([]);
});

test('the registrations list in dark, with the axe gate', async ({ browser }) => {
  const { context, page } = await openListener(browser, 'dark');
  await page.getByRole('tab', { name: 'Setup' }).click();
  await expect(page.getByRole('list', { name: 'Webhooks of this listener' }).getByRole('listitem')).toHaveCount(1);
  await expectAccessible(page, 'listener registrations, dark');
  await shootWithoutToasts(page, 'listener-registrations-dark');
  await context.close();
  expect(problems).toEqual([]);
});
