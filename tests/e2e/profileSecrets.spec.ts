/**
 * Settings, end to end in Chromium against the real IPC router, services and sandbox bank:
 * a profile's secret belongs to its origin (issue 15, item 1), the https rule with a saved
 * profile that breaks it shown as needing attention (item 2), and the Production guard that
 * asks before it is switched off and is audited (item 7). A catcher server plays the new
 * host and proves that nothing reaches it until a secret is entered for it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Locator, type Page } from '@playwright/test';
import type { Router } from '../../src/main/ipc/routerCore.ts';
import { startServices, type RunningServices } from '../../src/main/app/services.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { InMemoryProfileStorage } from '../../src/main/services/profiles/profileStorage.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { harnessRouter } from './support/harnessRouter.ts';
import { installLedgerdesk, type LedgerdeskPage } from './support/ledgerdeskPage.ts';
import { serveRenderer, type RendererServer } from './support/rendererServer.ts';
import { shoot } from './support/screens.ts';

// Timeouts only stop a hung run; nothing here measures time.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

let folder: string;
let sandbox: RunningSandbox;
let services: RunningServices;
let renderer: RendererServer;
let router: Router;
let catcher: { baseUrl: string; requests: { url: string; headers: IncomingHttpHeaders }[]; server: Server };
const harnesses: LedgerdeskPage[] = [];
const problems: string[] = [];

/** A profile saved by an earlier version, whose address breaks today's https rule. */
const SAVED_CLEARTEXT_PROFILE = {
  id: 'prof_saved_cleartext',
  name: 'Old partner',
  kind: 'remote',
  baseUrl: 'http://partner.bank.example',
  authScheme: 'bearer',
  keyId: null,
  production: false,
  createdAt: '2025-06-01T00:00:00.000Z',
  updatedAt: '2025-06-01T00:00:00.000Z',
};

async function openApp(browser: Browser, theme: 'light' | 'dark'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ colorScheme: theme, viewport: { width: 1280, height: 800 } });
  harnesses.push(await installLedgerdesk(context, router));
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`${theme}: ${error.message}`));
  await page.goto(`${renderer.url}#/settings`);
  await expect(page.getByRole('table', { name: 'Profiles' })).toBeVisible();
  return { context, page };
}

/** Adds a Basic profile on the sandbox bank through the Settings form; returns its row. */
async function addSandboxProfile(page: Page, name: string, production = false): Promise<Locator> {
  await page.getByRole('button', { name: 'Add profile' }).click();
  const form = page.getByRole('form', { name: 'New profile' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Base URL').fill(sandbox.baseUrl);
  await form.getByLabel('API key id').fill(sandbox.keyId);
  await form.getByLabel('API key secret').fill(sandbox.keySecret);
  if (production) await form.getByLabel('Production').check();
  await form.getByRole('button', { name: 'Add profile' }).click();
  const row = page.getByRole('table', { name: 'Profiles' }).getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('set');
  return row;
}

function basic(secret: string): string {
  return `Basic ${Buffer.from(`${sandbox.keyId}:${secret}`).toString('base64')}`;
}

test.beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-e2e-profiles-'));
  renderer = await serveRenderer();
  sandbox = await startSandbox({ port: 0, dataFile: ':memory:', accounts: 1, pendingTransactionsPerAccount: 5 });
  const requests: { url: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers });
    request.resume();
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"data":[],"page_next":null}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  catcher = { baseUrl: `http://localhost:${String((server.address() as AddressInfo).port)}`, requests, server };
  const settings = new InMemoryProfileStorage();
  settings.set('profiles', [SAVED_CLEARTEXT_PROFILE]);
  services = await startServices({
    dataFolder: folder,
    sandbox,
    secretStore: new InMemorySecretStore(),
    settings,
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

test.afterAll(async () => {
  await services.stop();
  await sandbox.close().catch(() => undefined);
  await new Promise<void>((resolve) => {
    catcher.server.closeAllConnections();
    catcher.server.close(() => {
      resolve();
    });
  });
  await renderer.close();
  rmSync(folder, { recursive: true, force: true });
  expect(problems).toEqual([]);
});

test('a saved profile that breaks the https rule opens as needing attention, untouched', async ({ browser }) => {
  const { context, page } = await openApp(browser, 'light');
  const row = page.getByRole('table', { name: 'Profiles' }).getByRole('row', { name: /Old partner/ });
  await expect(row).toContainText('needs attention');
  await expect(row).toContainText('Its address must use https://');
  await expect(row.locator('.badge', { hasText: 'needs attention' })).toHaveAttribute(
    'title',
    /its base URL must use https:\/\/ for a remote bank/,
  );
  await expect(row).toContainText('http://partner.bank.example');
  await row.getByRole('button', { name: 'Test' }).click();
  await expect(row.locator('.field-error')).toContainText('needs attention');
  await shoot(page, 'settings-profile-needs-attention-light');
  await context.close();
});

test('a new profile must use https for a remote bank and keep credentials out of its URL', async ({ browser }) => {
  const { context, page } = await openApp(browser, 'light');
  await page.getByRole('button', { name: 'Add profile' }).click();
  const form = page.getByRole('form', { name: 'New profile' });
  await form.getByLabel('Name').fill('Cleartext bank');
  await form.getByLabel('API key id').fill('key_1');
  await form.getByLabel('API key secret').fill('never-sent-1');
  for (const [url, problem] of [
    ['http://bank.example', /must use https:\/\/ for a remote bank/],
    ['https://key:pw@bank.example', /must not contain a user name or password/],
  ] as const) {
    await form.getByLabel('Base URL').fill(url);
    await form.getByRole('button', { name: 'Add profile' }).click();
    await expect(form).toContainText(problem);
  }
  await shoot(page, 'settings-profile-https-rule-light');
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('row', { name: /Cleartext bank/ })).toHaveCount(0);
  await context.close();
});

test('a new address drops the secret after a confirmation; no call reaches it until a secret is entered', async ({
  browser,
}) => {
  for (const theme of ['light', 'dark'] as const) {
    const { context, page } = await openApp(browser, theme);
    const name = `Partner ${theme}`;
    const row = await addSandboxProfile(page, name);

    // Moving to another origin asks first; "Cancel" (here Esc) sends nothing and keeps the form.
    await row.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('form', { name: `Edit ${name}` });
    await edit.getByLabel('Base URL').fill(catcher.baseUrl);
    const save = edit.getByRole('button', { name: 'Save profile' });
    await save.click();
    const confirm = page.getByRole('dialog', { name: 'Drop the stored secret?' });
    await expect(confirm).toContainText(`Its secret was entered for ${sandbox.baseUrl}`);
    await expect(confirm).toContainText('makes no call, not even a connection check');
    // Keyboard: focus is inside the confirmation; Esc cancels and gives focus back to Save.
    await expect(confirm.locator(':focus')).toHaveCount(1);
    await shoot(page, `settings-profile-drop-secret-confirm-${theme}`);
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
    await expect(edit).toBeVisible();
    await expect(save).toBeFocused();
    await expect(row).toContainText(sandbox.baseUrl);

    await save.click();
    await confirm.getByRole('button', { name: 'Change the address' }).click();
    await expect(row).toContainText('needs its secret again');
    await expect(row.locator('.badge', { hasText: 'needs its secret again' })).toHaveAttribute(
      'title',
      `${name} needs its secret again: its address moved from ${sandbox.baseUrl} to ${catcher.baseUrl}. Nothing is sent until it is entered.`,
    );
    await row.getByRole('button', { name: 'Test' }).click();
    await expect(row.locator('.field-error')).toContainText('needs its secret again');
    await shoot(page, `settings-profile-needs-secret-${theme}`);
    expect(catcher.requests).toEqual([]);

    // Entered again, for the new address: only that secret ever reaches it.
    await row.getByRole('button', { name: 'Edit' }).click();
    await edit.getByLabel('API key secret').fill(`secret-for-catcher-${theme}`);
    await save.click();
    await expect(page.getByRole('dialog', { name: 'Drop the stored secret?' })).toHaveCount(0);
    await expect(row).not.toContainText('needs its secret again');
    await row.getByRole('button', { name: 'Test' }).click();
    await expect.poll(() => catcher.requests.length).toBeGreaterThan(0);
    for (const request of catcher.requests) {
      expect(request.headers.authorization).toBe(basic(`secret-for-catcher-${theme}`));
    }
    expect(JSON.stringify(catcher.requests)).not.toContain(sandbox.keySecret);
    catcher.requests.length = 0;
    await expect(page.locator('body')).not.toContainText('secret-for-catcher');
    await context.close();
  }
});

test('switching the Production guard off asks first and is audited', async ({ browser }) => {
  const { context, page } = await openApp(browser, 'dark');
  const row = await addSandboxProfile(page, 'Prod bank', true);
  await expect(row).toContainText('Production');

  await row.getByRole('button', { name: 'Edit' }).click();
  const edit = page.getByRole('form', { name: 'Edit Prod bank' });
  await edit.getByLabel('Production').uncheck();
  await edit.getByRole('button', { name: 'Save profile' }).click();
  const confirm = page.getByRole('dialog', { name: 'Switch the Production guard off?' });
  await expect(confirm).toContainText('recorded in the audit log');
  await shoot(page, 'settings-profile-production-off-confirm-dark');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(row.getByText('Production', { exact: true })).toBeVisible();
  await edit.getByRole('button', { name: 'Save profile' }).click();
  await confirm.getByRole('button', { name: 'Switch the guard off' }).click();
  await expect(row.getByText('Production', { exact: true })).toHaveCount(0);

  // Main refuses the switch without the confirmation, whatever the renderer sends.
  const refused = await page.evaluate(
    async (id) => {
      const api = (
        globalThis as unknown as { ledgerdesk: { profiles: { update: (input: unknown) => Promise<unknown> } } }
      ).ledgerdesk;
      await api.profiles.update({ id, production: true });
      return api.profiles.update({ id, production: false }).then(
        () => null,
        (error: unknown) => error,
      );
    },
    await row.getAttribute('data-profile-id'),
  );
  expect(refused).toMatchObject({ code: 'confirmation_required', field: 'confirmProduction' });

  await page.getByRole('tab', { name: 'Audit log' }).click();
  await expect(page.getByRole('grid', { name: 'Audit log' })).toContainText('profile.production-off');
  await shoot(page, 'settings-audit-production-off-dark');
  await context.close();
});
