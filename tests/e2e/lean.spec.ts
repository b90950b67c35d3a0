/**
 * The app end to end against `npm run sandbox -- --lean` (the sandbox answering in the real
 * service's shapes, in a process of its own), in Chromium: a profile added in Settings for it,
 * then sync and browse pending transactions (a list with no page_next, rows with no id),
 * applications without ownership or account number, a document created with a lean answer,
 * card art for card products with no name, a webhook registered (no basic_user key in the
 * answer) and its deliveries, and Settings → Bank compatibility saying what the bank left
 * out. Screenshots of the lean records in light and dark land in test-results/screens/lean-*.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { Router } from '../../src/main/ipc/routerCore.ts';
import type { RunningServices } from '../../src/main/app/services.ts';
import { openHarnessPage, showScreen } from './support/harnessRouter.ts';
import { startHarnessServices } from './support/harnessServices.ts';
import type { LedgerdeskPage } from './support/ledgerdeskPage.ts';
import { serveRenderer, type RendererServer } from './support/rendererServer.ts';
import { applicationRow } from './support/applicationRows.ts';

test.describe.configure({ mode: 'serial', timeout: 240_000 });

const NOT_SENT = 'not sent by the bank';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const SCREENS_FOLDER = join(process.cwd(), 'test-results', 'screens');
const SCREENS = [
  'pending-transactions',
  'account-applications',
  'documents',
  'card-art',
  'webhooks',
  'webhook-sends',
  'settings',
] as const;
const PENDING = 400;

interface LeanSandbox {
  baseUrl: string;
  keyId: string;
  keySecret: string;
  accounts: string[];
  accountApplications: string[];
  lean: boolean;
}

let folder: string;
let child: ChildProcessWithoutNullStreams;
let bank: LeanSandbox;
let services: RunningServices;
let renderer: RendererServer;
let router: Router;
let receiver: Server;
let receiverUrl: string;
let received = 0;
const harnesses: LedgerdeskPage[] = [];
const problems: string[] = [];

/** `npm run sandbox -- --lean --json …`, without npm in between: its JSON line says where it is. */
function startLeanSandbox(dataFile: string): Promise<LeanSandbox> {
  child = spawn(
    process.execPath,
    [
      join(process.cwd(), 'src', 'sandbox', 'cli.ts'),
      '--lean',
      '--json',
      '--data',
      dataFile,
      '--accounts',
      '2',
      '--pending-per-account',
      String(PENDING),
      '--retry-base-ms',
      '40',
    ],
    { stdio: 'pipe' },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    let errors = '';
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const [line] = output.split('\n');
      if (output.includes('\n') && line !== undefined) resolve(JSON.parse(line) as LeanSandbox);
    });
    child.on('exit', (code) => {
      reject(new Error(`npm run sandbox -- --lean exited (${String(code)}): ${errors}`));
    });
  });
}

function openApp(browser: Browser, theme: 'light' | 'dark') {
  return openHarnessPage(browser, theme, { router, rendererUrl: renderer.url, record: { harnesses, problems } });
}

function go(page: Page, screen: (typeof SCREENS)[number]): Promise<void> {
  return showScreen(page, renderer.url, screen);
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(SCREENS_FOLDER, `lean-${name}.png`) });
}

async function useLeanProfile(page: Page): Promise<void> {
  await page.getByRole('combobox', { name: 'Profile' }).selectOption({ label: 'Lean bank' });
  await expect(page.getByRole('combobox', { name: 'Profile' })).toHaveValue(/^prof_/);
}

async function simulate(body: unknown): Promise<void> {
  const answer = await fetch(`${bank.baseUrl}/simulation`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Basic ${Buffer.from(`${bank.keyId}:${bank.keySecret}`).toString('base64')}`,
    },
    body: JSON.stringify(body),
  });
  expect(answer.status, await answer.clone().text()).toBe(202);
}

test.beforeAll(async () => {
  mkdirSync(SCREENS_FOLDER, { recursive: true });
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-e2e-lean-'));
  renderer = await serveRenderer();
  bank = await startLeanSandbox(join(folder, 'lean-sandbox.db'));
  receiver = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      received += 1;
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}/lean-hook`;
  ({ services, router } = await startHarnessServices({
    folder,
    sandbox: null,
    rendererUrl: renderer.url,
    send: (channel, payload) => {
      for (const harness of harnesses) harness.send(channel, payload);
    },
  }));
});

test.afterAll(async () => {
  await services.stop();
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  await new Promise<void>((resolve) => {
    receiver.closeAllConnections();
    receiver.close(() => {
      resolve();
    });
  });
  await renderer.close();
  rmSync(folder, { recursive: true, force: true });
});

test('the bank is the sandbox in its lean shapes', () => {
  expect(bank.lean).toBe(true);
});

test('adds a profile for the lean bank in Settings', async ({ browser }) => {
  const { context, page } = await openApp(browser, 'light');
  await go(page, 'settings');
  await page.getByRole('button', { name: 'Add profile' }).click();
  const form = page.getByRole('form', { name: 'New profile' });
  await form.getByLabel('Name').fill('Lean bank');
  await form.getByLabel('Base URL').fill(bank.baseUrl);
  await form.getByLabel('API key id').fill(bank.keyId);
  await form.getByLabel('API key secret').fill(bank.keySecret);
  await form.getByRole('button', { name: 'Add profile' }).click();
  const added = page.getByRole('table', { name: 'Profiles' }).getByRole('row', { name: /Lean bank/ });
  await expect(added).toContainText('set');
  await added.getByRole('button', { name: 'Test' }).click();
  await expect(added.getByText(/^ok · \d+ ms$/)).toBeVisible();
  await useLeanProfile(page);
  await context.close();
});

test('syncs and browses pending transactions whose list has no page_next and whose rows have no id', async ({
  browser,
}) => {
  const { context, page } = await openApp(browser, 'light');
  await useLeanProfile(page);
  await go(page, 'pending-transactions');
  await page.getByRole('button', { name: 'Sync', exact: true }).click();
  const grid = page.getByRole('grid', { name: 'Pending transactions' });
  await expect(page.locator('.list-footer')).toContainText(`${String(PENDING)} rows`, { timeout: 60_000 });
  await page.getByRole('button', { name: 'Export CSV' }).click();
  await expect(page.getByText(`Exported ${String(PENDING)} rows`)).toBeVisible();
  await grid.locator('.vtable-row:not(.is-placeholder)').nth(1).click();
  const drawer = page.getByRole('complementary', { name: 'Details' });
  await expect(drawer).toContainText('partner_deposit_id');
  await expect(drawer).toContainText(NOT_SENT);
  await shoot(page, 'pending-transactions-drawer-light');
  await context.close();
});

test('opens lean account applications: no ownership, no account number', async ({ browser }) => {
  const { context, page } = await openApp(browser, 'dark');
  await useLeanProfile(page);
  await go(page, 'account-applications');
  for (const id of bank.accountApplications.slice(0, 4)) {
    await page.getByRole('textbox', { name: 'Application id' }).fill(id);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await expect(applicationRow(page.getByRole('grid', { name: 'Account applications' }), id)).toHaveCount(1, {
      timeout: 30_000,
    });
  }
  // With the drawer open at 1280 px the list keeps its identifying columns and says the others
  // (Ownership, Account number) are in the drawer: that is where the lean answer shows.
  await expect(page.getByText(/Ownership.*Account number.*in the drawer at this width/)).toBeVisible();
  const drawer = page.getByRole('complementary', { name: 'Details' });
  await expect(drawer).toContainText('Ownership');
  await expect(drawer).toContainText('Account number');
  await expect(drawer).toContainText(NOT_SENT);
  await shoot(page, 'account-applications-drawer-dark');
  await context.close();
});

test('creates a document; the lean answer shows what the bank left out', async ({ browser }) => {
  const { context, page } = await openApp(browser, 'light');
  await useLeanProfile(page);
  await go(page, 'documents');
  const form = page.getByRole('form', { name: 'New document' });
  await form.getByLabel('Name').fill('Passport of a lean applicant');
  await form.getByLabel('Date of birth').fill('1990-01-31');
  await form.getByTestId('file-input').setInputFiles({ name: 'passport.png', mimeType: 'image/png', buffer: PNG });
  await expect(form.getByPlaceholder('file_…')).toHaveValue(/^file_/);
  await form.getByRole('button', { name: 'Create document' }).click();
  const created = page.locator('.panel', { hasText: 'Created' }).first();
  await expect(created).toContainText(/doc_/);
  await expect(created).toContainText(`Bank${NOT_SENT}`);
  await expect(created).toContainText(`Organization${NOT_SENT}`);
  await expect(page.getByRole('table', { name: 'Documents created from this app' })).toContainText(
    'Passport of a lean applicant',
  );
  await shoot(page, 'documents-created-light');
  await context.close();
});

test('uploads card art to a card product of the real shape (no name)', async ({ browser }) => {
  const { context, page } = await openApp(browser, 'dark');
  await useLeanProfile(page);
  await go(page, 'card-art');
  const form = page.getByRole('form', { name: 'Upload card art' });
  const product = form.getByLabel('Card product');
  await expect(product).not.toHaveValue('');
  // The real record has no name: the picker names a product by its type and art.
  await expect(product.locator('option', { hasText: /^(physical|virtual) card · cdpt_/ }).first()).toBeAttached();
  await form.getByLabel('Asset').selectOption('front');
  await form.getByTestId('file-input').setInputFiles({ name: 'front.png', mimeType: 'image/png', buffer: PNG });
  await expect(form.getByPlaceholder('file_…')).toHaveValue(/^file_/);
  await form.getByRole('button', { name: 'Submit card art' }).click();
  await expect(page.getByRole('table', { name: 'Card art uploaded from this app' })).toContainText('front');
  await shoot(page, 'card-art-uploaded-dark');
  await context.close();
});

test('registers a webhook, and reads its lean record and its deliveries', async ({ browser }) => {
  const { context, page } = await openApp(browser, 'light');
  await useLeanProfile(page);
  await go(page, 'webhooks');
  await page.getByRole('button', { name: 'New webhook' }).first().click();
  const form = page.getByRole('form', { name: 'New webhook' });
  await form.getByLabel('Event').fill('account.update');
  await form.getByLabel('URL').fill(receiverUrl);
  // The lean bank is a Ledgerdesk sandbox on loopback: it delivers to this machine (issue 37).
  await form.getByRole('checkbox', { name: /^A sandbox of my own that delivers to this machine/ }).check();
  await form.getByRole('button', { name: 'Create webhook' }).click();
  const row = page.getByRole('row', { name: /account\.update/ });
  await expect(row).toContainText('enabled');
  // The lean record has no basic_user key: said as such, not blank.
  await expect(row).toContainText(NOT_SENT);
  await shoot(page, 'webhooks-light');

  await simulate({ type: 'account.pending_transaction', simulation: { account_id: bank.accounts[0], amount: '9.99' } });
  await expect.poll(() => received, { timeout: 30_000 }).toBeGreaterThan(0);
  await go(page, 'webhook-sends');
  await page.getByRole('button', { name: 'Sync', exact: true }).click();
  await expect(page.getByRole('grid').first()).toContainText('sent', { timeout: 30_000 });
  await shoot(page, 'webhook-sends-light');
  await context.close();
});

test('Settings → Bank compatibility says what the lean bank left out', async ({ browser }) => {
  for (const theme of ['light', 'dark'] as const) {
    const { context, page } = await openApp(browser, theme);
    await useLeanProfile(page);
    await go(page, 'settings');
    const panel = page.locator('section', {
      has: page.getByRole('heading', { name: 'Bank compatibility · Lean bank' }),
    });
    await panel.getByRole('button', { name: 'Refresh' }).click();
    const table = panel.getByRole('table', { name: 'Bank compatibility by resource' });
    const resource = (name: string) => table.locator(`tr[data-resource="${name}"]`);
    await expect(resource('account_application')).toContainText('ownership_type');
    await expect(resource('pending_transaction list')).toContainText('page_next');
    await expect(resource('pending_transaction')).toContainText('partner_deposit_id');
    await expect(resource('document')).toContainText('organization_id');
    await expect(resource('card_product')).toContainText('as the interface lists it');
    await panel.scrollIntoViewIfNeeded();
    await shoot(page, `settings-bank-compatibility-${theme}`);
    await context.close();
  }
});

test('walks every screen on the lean bank in dark', async ({ browser }) => {
  const app = await openApp(browser, 'dark');
  await useLeanProfile(app.page);
  for (const screen of SCREENS) {
    await go(app.page, screen);
    await expect(app.page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(app.page.locator('.state .spinner-lg')).toHaveCount(0, { timeout: 30_000 });
    await expect(app.page.locator('body')).not.toContainText('undefined');
    await shoot(app.page, `${screen}-dark`);
  }
  await app.context.close();
});

test('no console error or CSP violation on any page', () => {
  expect(problems).toEqual([]);
});
