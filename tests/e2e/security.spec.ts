/**
 * Issue 15 in the window (items 3 and 6): the listener's allow-list in Settings, which the
 * window can ask for but only the main process's confirmation grants (here a confirmation port
 * the test answers, as the native dialog does in the app), and unverified notifications shown
 * with their verdict and apart from what the bank's send log counts as received. The built UI
 * in Debian's Chromium, the real router, services, listener and sandbox bank. Screenshots in
 * test-results/screens/security-*.png, light and dark.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { ConfirmQuestion } from '../../src/main/ipc/listenerHandlers.ts';
import type { Router } from '../../src/main/ipc/routerCore.ts';
import type { RunningServices } from '../../src/main/app/services.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { startTestServices } from '../support/testServices.ts';
import { harnessRouter, openHarnessPage } from './support/harnessRouter.ts';
import { HARNESS_WEB_CONTENTS_ID, type LedgerdeskPage } from './support/ledgerdeskPage.ts';
import { serveRenderer, type RendererServer } from './support/rendererServer.ts';
import { shoot as shootScreen } from './support/screens.ts';
import { register } from './support/listenerApp.ts';

// Timeouts only stop a hung run; nothing here measures time.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

const HANDLER = 'https://hooks.example.test';

let folder: string;
let sandbox: RunningSandbox;
let services: RunningServices;
let renderer: RendererServer;
let router: Router;
const harnesses: LedgerdeskPage[] = [];
const problems: string[] = [];
const questions: ConfirmQuestion[] = [];
let answerYes = false;

function openApp(browser: Browser, theme: 'light' | 'dark'): Promise<{ context: BrowserContext; page: Page }> {
  return openHarnessPage(browser, theme, { router, rendererUrl: renderer.url, record: { harnesses, problems } });
}

/** This spec's pictures are named security-…; the gate runs on each. */
async function shoot(page: Page, name: string): Promise<void> {
  await shootScreen(page, `security-${name}`);
}

async function listenerDefaults(page: Page): Promise<void> {
  await page.goto(`${renderer.url}#/settings`);
  await page.getByRole('tab', { name: 'Listener defaults' }).click();
  await expect(page.getByRole('form', { name: 'Allow a host' })).toBeVisible();
}

test.beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-e2e-security-'));
  renderer = await serveRenderer();
  sandbox = await startSandbox({ port: 0, dataFile: ':memory:', retryBaseMs: 40, pendingTransactionsPerAccount: 5 });
  services = await startTestServices(folder, {
    sandbox,
    send: (channel, payload) => {
      for (const harness of harnesses) harness.send(channel, payload);
    },
    // The native dialog of the app: answered here by the test, never by the page.
    confirm: (question) => {
      questions.push(question);
      return Promise.resolve(answerYes);
    },
  });
  router = harnessRouter(services, renderer.url);
});

test.afterAll(async () => {
  await services.stop();
  await sandbox.close().catch(() => undefined);
  await renderer.close();
  rmSync(folder, { recursive: true, force: true });
});

test('another host is reached only once the main process has confirmed it', async ({ browser }) => {
  const { context, page } = await openApp(browser, 'light');
  await listenerDefaults(page);
  await expect(page.getByText('No other host is allowed.')).toBeVisible();

  // Forward-to another host is refused beside the field, with what to do.
  await page.getByLabel('Forward to').fill(`${HANDLER}/webhooks`);
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText(/is not on the listener's allow-list/).first()).toBeVisible();

  // Asking is not granting: the user declines in the dialog main shows.
  const allow = page.getByRole('form', { name: 'Allow a host' });
  await allow.getByLabel('Host to allow').fill(`${HANDLER}/webhooks`);
  answerYes = false;
  await allow.getByRole('button', { name: 'Allow host…' }).click();
  await expect(page.getByText(`Not allowed: you declined to let the listener send to ${HANDLER}.`)).toBeVisible();
  expect(questions.at(-1)?.message).toBe(`Let forwards and replays reach ${HANDLER}?`);
  await expect(page.getByText('No other host is allowed.')).toBeVisible();
  await shoot(page, 'allow-declined-light');

  answerYes = true;
  await allow.getByRole('button', { name: 'Allow host…' }).click();
  const list = page.getByRole('list', { name: 'Allowed hosts' });
  await expect(list).toContainText(HANDLER);
  await expect(allow.getByLabel('Host to allow')).toHaveValue('');
  expect(questions).toHaveLength(2);

  // Now the forward address saves.
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Listener settings saved')).toBeVisible();
  await shoot(page, 'allow-list-light');
  await page.getByLabel('Forward to').fill('');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect(page.getByText('Listener settings saved').first()).toBeVisible();

  // Removing needs no question and is keyboard reachable; focus stays in the panel.
  await list.getByRole('button', { name: `Remove ${HANDLER}` }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('No other host is allowed.')).toBeVisible();
  expect(questions).toHaveLength(2);
  await context.close();

  const dark = await openApp(browser, 'dark');
  await listenerDefaults(dark.page);
  await dark.page.getByRole('form', { name: 'Allow a host' }).getByLabel('Host to allow').fill(HANDLER);
  await dark.page.getByRole('button', { name: 'Allow host…' }).click();
  await expect(dark.page.getByRole('list', { name: 'Allowed hosts' })).toContainText(HANDLER);
  await shoot(dark.page, 'allow-list-dark');
  await dark.context.close();
});

test('unverified notifications show their verdict and are reconciled apart, never as received', async ({ browser }) => {
  // Any free port, so other runs on this machine (holding 4880) cannot collide with this one.
  await services.handlers.listener.start(
    { port: 0 },
    { webContentsId: HARNESS_WEB_CONTENTS_ID, channel: 'listener.start' },
  );
  const { context, page } = await openApp(browser, 'light');
  await page.goto(`${renderer.url}#/listener`);
  await expect(page.getByText('listening')).toBeVisible();
  await register(page, ['ach.create']);

  // The bank delivers one notification, signed with the registration's credentials: ok.
  const simulated = await fetch(`${sandbox.baseUrl}/simulation`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64')}`,
    },
    body: JSON.stringify({
      type: 'ach.create',
      simulation: { account_id: sandbox.demo.accounts[0], amount: '5.00', direction: 'credit' },
    }),
  });
  expect(simulated.status).toBe(202);
  const requests = page.getByRole('grid', { name: 'Requests' });
  const delivered = requests.locator('.vtable-row', { hasText: 'ach.create' }).first();
  await expect(delivered).toContainText('ok', { timeout: 30_000 });

  // Two forged posts: one on the registration's path without credentials, one elsewhere
  // while the listener expects none of its own (not_configured: "unverified").
  const status = await services.handlers.listener.status(
    {},
    {
      webContentsId: HARNESS_WEB_CONTENTS_ID,
      channel: 'listener.status',
    },
  );
  const { rows } = await services.handlers.listener.listRequests(
    { limit: 1 },
    { webContentsId: HARNESS_WEB_CONTENTS_ID, channel: 'listener.listRequests' },
  );
  const registrationPath = rows[0]?.path ?? '';
  const forged = { event: 'ach.create', op: 'create', id: 'ach_FORGED', url: `${sandbox.baseUrl}/ach/ach_FORGED` };
  for (const path of [registrationPath, '/elsewhere']) {
    const answer = await fetch(`${status.url ?? ''}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(forged),
    });
    expect(answer.status).toBe(200);
  }
  await expect(requests.locator('.vtable-row', { hasText: 'no auth header' })).toHaveCount(1, { timeout: 30_000 });
  await expect(requests.locator('.vtable-row', { hasText: 'unverified' })).toHaveCount(1);
  await shoot(page, 'verdicts-light');
  // Not hydrated: nobody vouched for it, so the bank was not called.
  await requests.locator('.vtable-row', { hasText: 'no auth header' }).click();
  const drawer = page.getByRole('complementary', { name: 'Details' });
  await expect(drawer).toContainText('ach_FORGED');
  await expect(drawer).toContainText('Not fetched: only notifications whose credentials verified (ok) are fetched');
  await shoot(page, 'unverified-request-light');
  await page.getByRole('button', { name: 'Close details (Esc)' }).click();

  await page.getByRole('tab', { name: 'Reconciliation' }).click();
  await expect(page.getByRole('combobox', { name: 'Webhook to reconcile' })).toHaveValue(/^wh_/, { timeout: 30_000 });
  const stat = (label: string) => page.locator('.stat', { hasText: label }).locator('.stat-value');
  await expect(stat('Received, not verified')).toHaveText('1', { timeout: 30_000 });
  await expect(stat('Sent and received')).toHaveText('1');
  const table = page.getByRole('table', { name: 'Reconciliation' });
  const unverified = table.getByRole('row', { name: /Received, not verified/ });
  await expect(unverified).toContainText('ach_FORGED');
  await expect(unverified).toContainText('no auth header');
  await shoot(page, 'reconciliation-light');
  await context.close();

  const dark = await openApp(browser, 'dark');
  await dark.page.goto(`${renderer.url}#/listener`);
  await dark.page.getByRole('tab', { name: 'Reconciliation' }).click();
  // A fresh window knows the webhook from the cache, where main put it when it was registered.
  await expect(dark.page.getByRole('combobox', { name: 'Webhook to reconcile' })).toHaveValue(/^wh_/);
  await expect(dark.page.locator('.stat', { hasText: 'Received, not verified' }).locator('.stat-value')).toHaveText(
    '1',
    { timeout: 30_000 },
  );
  await shoot(dark.page, 'reconciliation-dark');
  await dark.context.close();
});

test('no console error or CSP violation', () => {
  expect(problems).toEqual([]);
});
