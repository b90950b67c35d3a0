/**
 * Listener → Trigger and Events end to end, in Debian's Chromium on the real IPC router, the
 * real services, the real listener and a real sandbox bank: register the listener, trigger
 * an event from the panel and watch its notification arrive verified; run a shipped scenario
 * and watch each step's outcome appear; browse the events catalog and jump to the trigger.
 * Screenshots (light and dark) go to test-results/screens/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { createRouter, type Router } from '../../src/main/ipc/routerCore.ts';
import { startServices, type RunningServices } from '../../src/main/shell/services.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { InMemoryProfileStorage } from '../../src/main/services/profiles/profileStorage.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { HARNESS_WEB_CONTENTS_ID, installLedgerdesk, type LedgerdeskPage } from './support/ledgerdeskPage.ts';
import { serveRenderer, type RendererServer } from './support/rendererServer.ts';
import { shoot } from './support/screens.ts';

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
  const context = await browser.newContext({ colorScheme: theme, viewport: { width: 1280, height: 800 } });
  harnesses.push(await installLedgerdesk(context, router));
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`${theme}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${theme}: ${error.message}`));
  await page.goto(`${renderer.url}#/listener`);
  await expect(page.locator('.nav-item.is-active')).toHaveAttribute('href', '#/listener');
  return { context, page };
}

async function register(page: Page, event: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Event to register' }).selectOption(event);
  await page.getByRole('button', { name: 'Register with bank' }).click();
  await expect(page.getByText(`: ${event} → `)).toBeVisible();
}

test.beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-e2e-trigger-'));
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
  router = createRouter({
    handlers: services.handlers,
    senderPolicy: {
      isOwnWindow: (id) => id === HARNESS_WEB_CONTENTS_ID,
      allowedOrigins: [new URL(renderer.url).origin],
    },
    knownSecrets: () => services.knownSecrets(),
  });
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

test('triggers an event from the Listener screen and watches its notification arrive', async ({ browser }) => {
  const { context, page } = await openListener(browser, 'light');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByText('listening')).toBeVisible();
  for (const event of ['ach.update', 'ach.create', 'account_application.update']) await register(page, event);

  await page.getByRole('tab', { name: 'Trigger' }).click();
  const form = page.getByRole('form', { name: 'Trigger an event' });
  await form.getByRole('combobox', { name: 'Event' }).selectOption('ach.update');
  await form.getByRole('combobox', { name: 'Move to' }).selectOption('sent');
  // Keyboard: the form submits with Enter from a field, like any form.
  await form.getByRole('textbox', { name: 'Account' }).fill(sandbox.demo.accounts[1] ?? '');
  await form.getByRole('textbox', { name: 'Account' }).press('Enter');
  const caused = page.getByRole('list', { name: 'Events caused' });
  await expect(caused.getByRole('listitem')).toHaveCount(4);
  await expect(caused).toContainText('ach.create');
  await expect(page.getByLabel('The object now')).toContainText('"status": "sent"');
  const achId = (await page.getByLabel('The object now').textContent())?.match(/"id": "(ach_\w+)"/)?.[1] ?? '';
  expect(achId).toMatch(/^ach_/);
  await shoot(page, 'listener-trigger-result-light');

  // The notifications arrive at the listener, verified.
  await page.getByRole('tab', { name: /^Requests/ }).click();
  const requests = page.getByRole('grid', { name: 'Requests' });
  await expect(requests.locator('.vtable-row', { hasText: achId })).toHaveCount(3, { timeout: 30_000 });
  await expect(requests.locator('.vtable-row', { hasText: 'ach.update' }).first()).toContainText('ok');
  await shoot(page, 'listener-trigger-arrived-light');

  // A bad id is refused beside its field, nothing sent.
  await page.getByRole('tab', { name: 'Trigger' }).click();
  await form.getByRole('combobox', { name: 'Event' }).selectOption('ach.create');
  await form.getByRole('textbox', { name: 'Account' }).fill('nope');
  await form.getByRole('button', { name: 'Trigger' }).click();
  await expect(form.getByText('must be an id starting with acct_')).toBeVisible();
  await form.getByRole('textbox', { name: 'Account' }).fill('');

  // A shipped scenario: each step's outcome appears as it runs.
  await page.getByRole('button', { name: 'Run An application from submitted to approved' }).click();
  const steps = page.getByRole('list', { name: 'Scenario steps' });
  await expect(page.getByText('Completed: 7 steps')).toBeVisible({ timeout: 60_000 });
  await expect(steps.locator('.trigger-step.is-ok')).toHaveCount(7);
  await expect(steps).toContainText('Approved: the account opens');
  await expect(steps).toContainText('account.create');
  await shoot(page, 'listener-trigger-scenario-light');
  await page.getByRole('tab', { name: /^Requests/ }).click();
  await expect(requests.locator('.vtable-row', { hasText: 'account_application.update' })).toHaveCount(3, {
    timeout: 30_000,
  });
  await context.close();
});

test('the events catalog, in dark, leads to the trigger', async ({ browser }) => {
  const { context, page } = await openListener(browser, 'dark');
  await page.getByRole('tab', { name: 'Events' }).click();
  const catalog = page.getByRole('list', { name: 'Events' });
  await expect(catalog.getByRole('listitem')).toHaveCount(16);
  await expect(page.getByLabel('Example of webhook.update')).toContainText('"op": "update"');
  await expect(catalog).toContainText('real service only');
  await shoot(page, 'listener-events-dark');
  await page.getByRole('button', { name: 'Trigger webhook.update' }).click();
  const form = page.getByRole('form', { name: 'Trigger an event' });
  await expect(form.getByRole('combobox', { name: 'Event' })).toHaveValue('webhook.update');
  await expect(form.getByRole('combobox', { name: 'Move to' })).toBeVisible();
  await form.getByRole('button', { name: 'Trigger' }).click();
  await expect(page.getByRole('list', { name: 'Events caused' }).getByRole('listitem')).toHaveCount(2);
  await shoot(page, 'listener-trigger-dark');
  await context.close();
  expect(problems).toEqual([]);
});
