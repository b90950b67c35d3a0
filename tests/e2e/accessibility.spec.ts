/**
 * Accessibility of the window (issue 18, audit ../shared/reviews/a11y-279ea12.md), in Debian's
 * Chromium on the real IPC router, services, listener and sandbox bank:
 * - the axe gate (support/a11y.ts) over every screen and state the audit scanned, in light and dark;
 * - keyboard walks that fail if a finding of the audit returns (K1–K10, each named in its test);
 * - the user's settings: reduced motion, forced colours, and 200% zoom at the default window.
 * Pictures in test-results/screens/a11y-*.png, looked at by a person.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type BrowserContextOptions, type Locator, type Page } from '@playwright/test';
import type { Router } from '../../src/main/ipc/routerCore.ts';
import type { RunningServices } from '../../src/main/app/services.ts';
import { SCREENS as SCREEN_LIST, type ScreenId } from '../../src/renderer/src/lib/screens.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { startTestServices } from '../support/testServices.ts';
import { harnessRouter, openHarnessPage } from './support/harnessRouter.ts';
import { HARNESS_WEB_CONTENTS_ID, type LedgerdeskPage } from './support/ledgerdeskPage.ts';
import { serveRenderer, type RendererServer } from './support/rendererServer.ts';
import {
  animationsDone,
  busyWatchResult,
  describeFocus,
  dropFocus,
  forcedColorsActive,
  hiddenControls,
  holdsFocus,
  lostContent,
  styleOf,
  watchBusy,
} from './support/pageProbes.ts';
import { simulate } from './support/sandboxSimulation.ts';
import { expectNoEngineErrors } from './support/a11yEngines.ts';
import { shoot as shootWithAxe } from './support/screens.ts';
import { register } from './support/listenerApp.ts';
import { applicationRow } from './support/applicationRows.ts';

// Timeouts only stop a hung run; nothing here measures time. The axe gate walks every screen
// twice (light, dark) with axe on each shot: ~3.5 min on a busy two-core machine, so 10 min.
test.describe.configure({ mode: 'serial', timeout: 600_000 });

const SCREENS: readonly ScreenId[] = SCREEN_LIST.map((screen) => screen.id);
const THEMES = ['light', 'dark'] as const;
/** The app's default window (windowState.ts) at 200% zoom: half the CSS pixels, twice the density. */
const ZOOM_200: BrowserContextOptions = { viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 };

let folder: string;
let sandbox: RunningSandbox;
let services: RunningServices;
let renderer: RendererServer;
let router: Router;
let productionId = '';
let embeddedId = '';
const harnesses: LedgerdeskPage[] = [];
const problems: string[] = [];

/**
 * Every state this spec visits is pictured and checked by three engines: axe (in screens.ts's
 * shoot), HTML_CodeSniffer and IBM Equal Access (support/a11yEngines.ts, issue 38).
 */
async function shoot(page: Page, name: string): Promise<void> {
  await shootWithAxe(page, name);
  await expectNoEngineErrors(page, name);
}

function openApp(browser: Browser, theme: 'light' | 'dark', options: BrowserContextOptions = {}) {
  return openHarnessPage(
    browser,
    theme,
    { router, rendererUrl: renderer.url, record: { harnesses, problems } },
    options,
  );
}

async function go(page: Page, screen: ScreenId): Promise<void> {
  await page.goto(`${renderer.url}#/${screen}`);
  await expect(page.locator('.nav-item.is-active')).toHaveAttribute('href', new RegExp(`#/${screen}$`));
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.locator('.state .spinner-lg')).toHaveCount(0, { timeout: 30_000 });
}

async function focused(page: Page): Promise<string> {
  return page.evaluate(describeFocus);
}

async function expectFocusIn(locator: Locator): Promise<void> {
  await expect.poll(() => locator.evaluate(holdsFocus), { message: 'focus should be inside the element' }).toBe(true);
}

test.beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-e2e-a11y-'));
  renderer = await serveRenderer();
  sandbox = await startSandbox({
    port: 0,
    dataFile: join(folder, 'sandbox.db'),
    retryBaseMs: 40,
    accounts: 2,
    pendingTransactionsPerAccount: 600,
  });
  services = await startTestServices(folder, {
    sandbox,
    send: (channel, payload) => {
      for (const harness of harnesses) harness.send(channel, payload);
    },
  });
  router = harnessRouter(services, renderer.url);
  const context = { webContentsId: HARNESS_WEB_CONTENTS_ID, channel: 'profiles.create' };
  const production = await services.handlers.profiles.create(
    { name: 'Acme Production', baseUrl: sandbox.baseUrl, authScheme: 'basic', keyId: sandbox.keyId, production: true },
    context,
  );
  productionId = production.id;
  await services.handlers.credentials.set(
    { profileId: production.id, secret: sandbox.keySecret },
    { webContentsId: HARNESS_WEB_CONTENTS_ID, channel: 'credentials.set' },
  );
  const profiles = await services.handlers.profiles.list({}, { ...context, channel: 'profiles.list' });
  embeddedId = profiles.profiles.find((profile) => profile.kind === 'embedded')?.id ?? '';
});

test.afterAll(async () => {
  await services.stop();
  await sandbox.close().catch(() => undefined);
  await renderer.close();
  rmSync(folder, { recursive: true, force: true });
});

test('seeds what the screens show: pending transactions, listener requests with retries, a document, card art', async ({
  browser,
}) => {
  const { context, page } = await openApp(browser, 'light');
  await go(page, 'pending-transactions');
  await page.getByRole('button', { name: 'Sync', exact: true }).click();
  await expect(page.locator('.list-footer')).toContainText('600 rows', { timeout: 60_000 });

  await go(page, 'listener');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByText('listening')).toBeVisible();
  await register(page, ['ach.create']);
  await page.getByRole('tab', { name: 'Response rules' }).click();
  await page.getByRole('button', { name: 'Add rule' }).click();
  const rule = page.getByRole('group', { name: 'Rule 1' });
  await rule.getByLabel('Rule name').fill('Fail ACH twice');
  await rule.getByLabel('Event').fill('ach.create');
  await rule.getByLabel('Times', { exact: true }).fill('2');
  await rule.getByLabel('Status', { exact: true }).fill('503');
  await page.getByRole('button', { name: 'Save rules' }).click();
  await expect(page.getByText('Response rules saved')).toBeVisible();
  await simulate(sandbox, {
    type: 'ach.create',
    simulation: { account_id: sandbox.demo.accounts[0], amount: '12.34', direction: 'credit' },
  });
  await page.getByRole('tab', { name: /^Requests/ }).click();
  const requests = page.getByRole('grid', { name: 'Requests' });
  await expect(requests.locator('.vtable-row', { hasText: 'ok' }).first()).toBeVisible({ timeout: 60_000 });

  await go(page, 'webhook-sends');
  await page.getByRole('button', { name: 'Sync', exact: true }).click();
  await expect(
    page.getByRole('grid', { name: 'Attempts' }).locator('.vtable-row', { hasText: '503' }).first(),
  ).toBeVisible({ timeout: 60_000 });

  await go(page, 'account-applications');
  const id = sandbox.demo.accountApplications.find((candidate) => candidate !== '') ?? '';
  await page.getByRole('textbox', { name: 'Application id' }).fill(id);
  await page.getByRole('button', { name: 'Open', exact: true }).click();
  await expect(page.getByRole('complementary', { name: 'Details' })).toContainText('Status history', {
    timeout: 30_000,
  });
  await expect(applicationRow(page.getByRole('grid', { name: 'Account applications' }), id)).toHaveCount(1);
  await context.close();
});

test('the axe gate passes on every screen and state, in light and dark', async ({ browser }) => {
  for (const theme of THEMES) {
    const { context, page } = await openApp(browser, theme);
    const at = (state: string) => `a11y-${state}-${theme}`;

    await go(page, 'pending-transactions');
    const grid = page.getByRole('grid', { name: 'Pending transactions' });
    await expect(grid.locator('.vtable-row').nth(3)).toBeVisible();
    await shoot(page, at('pending-list'));
    await grid.locator('.vtable-row').nth(2).click();
    const drawer = page.getByRole('complementary', { name: 'Details' });
    await expect(drawer).toContainText('Every field');
    await shoot(page, at('pending-drawer'));
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await expect(page.getByText('Exported 600 rows')).toBeVisible();
    await shoot(page, at('pending-toast'));
    await page.keyboard.press('Escape');

    await page.keyboard.press('Control+k');
    await expect(page.getByRole('dialog', { name: 'Command palette' })).toBeVisible();
    await shoot(page, at('palette-open'));
    await page.keyboard.type('web');
    await shoot(page, at('palette-filtered'));
    await page.keyboard.press('Escape');

    await go(page, 'account-applications');
    await shoot(page, at('applications-list'));
    await page.getByRole('grid', { name: 'Account applications' }).locator('.vtable-row').first().click();
    await expect(page.getByRole('complementary', { name: 'Details' })).toContainText('Status history');
    await shoot(page, at('applications-opened'));

    await go(page, 'documents');
    await shoot(page, at('documents-form'));
    await page.getByRole('button', { name: 'Create document' }).click();
    await expect(page.getByText('must not be empty').first()).toBeVisible();
    await shoot(page, at('documents-errors'));

    await go(page, 'card-art');
    await shoot(page, at('card-art'));

    await go(page, 'webhooks');
    await shoot(page, at('webhooks-list'));
    await page.getByRole('button', { name: 'New webhook' }).first().click();
    await expect(page.getByRole('form', { name: 'New webhook' })).toBeVisible();
    await shoot(page, at('webhooks-new'));
    await page.keyboard.press('Escape');

    await go(page, 'webhook-sends');
    const attempts = page.getByRole('grid', { name: 'Attempts' });
    await expect(attempts.locator('.vtable-row').first()).toBeVisible();
    await shoot(page, at('send-log-attempts'));
    await attempts.locator('.vtable-row').first().click();
    await expect(page.getByRole('complementary', { name: 'Details' })).toContainText('Attempts over time');
    await shoot(page, at('send-log-timeline'));
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: 'By notification' }).click();
    await expect(page.getByRole('grid', { name: 'Notifications' }).locator('.vtable-row').first()).toBeVisible();
    await shoot(page, at('send-log-groups'));

    await go(page, 'listener');
    const requests = page.getByRole('grid', { name: 'Requests' });
    await expect(requests.locator('.vtable-row').first()).toBeVisible();
    await shoot(page, at('listener-requests'));
    await requests.locator('.vtable-row', { hasText: 'ok' }).first().click();
    const request = page.getByRole('complementary', { name: 'Details' });
    await expect(request).toContainText('Hydrated object');
    await shoot(page, at('listener-drawer'));
    await request.getByRole('button', { name: 'Edit and replay' }).click();
    await expect(page.getByRole('dialog', { name: 'Edit and replay' })).toBeVisible();
    await shoot(page, at('listener-edit-replay'));
    await page.getByRole('dialog', { name: 'Edit and replay' }).getByRole('button', { name: 'Cancel' }).click();
    for (const [tab, name] of [
      ['Response rules', 'rules'],
      ['Reconciliation', 'reconciliation'],
      ['Setup', 'setup'],
      ['Trigger', 'trigger'],
      ['Events', 'events'],
    ] as const) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('tabpanel')).toBeVisible();
      await expect(page.locator('.state .spinner-lg')).toHaveCount(0, { timeout: 30_000 });
      await shoot(page, at(`listener-${name}`));
    }

    await go(page, 'settings');
    for (const [tab, name] of [
      ['Profiles', 'profiles'],
      ['Cache', 'cache'],
      ['Record', 'record'],
      ['Screening', 'screening'],
      ['Listener defaults', 'listener-defaults'],
      ['Audit log', 'audit'],
      ['Appearance', 'appearance'],
    ] as const) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.locator('.state .spinner-lg')).toHaveCount(0, { timeout: 30_000 });
      await shoot(page, at(`settings-${name}`));
    }

    // A Production profile: the banner, then the confirmation of a write (cancelled).
    await go(page, 'webhooks');
    await page.getByRole('combobox', { name: 'Profile' }).selectOption(productionId);
    await expect(page.getByRole('alert', { name: /Production profile/ })).toBeVisible();
    await shoot(page, at('production-banner'));
    await page.getByRole('button', { name: 'New webhook' }).first().click();
    await page.getByLabel('URL').fill('https://hooks.example/never-created');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await expect(page.getByRole('dialog', { name: 'Change Production?' })).toBeVisible();
    await shoot(page, at('production-confirmation'));
    await page.getByRole('dialog', { name: 'Change Production?' }).getByRole('button', { name: 'Cancel' }).click();
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: 'Profile' }).selectOption(embeddedId);
    await expect(page.getByRole('alert', { name: /Production profile/ })).toBeHidden();
    await context.close();
  }
});

test('K1: once a row is selected, Enter still works every button and link', async ({ browser }) => {
  const { context, page } = await openApp(browser, 'light');
  await go(page, 'pending-transactions');
  const grid = page.getByRole('grid', { name: 'Pending transactions' });
  await expect(grid.locator('.vtable-row').nth(3)).toBeVisible();
  await page.evaluate(dropFocus);
  await page.keyboard.press('j');
  await expect(grid).toHaveAttribute('aria-activedescendant', 'vtable-row-0');
  const drawer = page.getByRole('complementary', { name: 'Details' });

  // Export CSV exports; the drawer stays closed.
  await page.getByRole('button', { name: 'Export CSV' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('Exported 600 rows')).toBeVisible();
  await expect(drawer).toBeHidden();

  // The drawer's own Close button closes it.
  await page.evaluate(dropFocus);
  await page.keyboard.press('Enter');
  await expect(drawer).toBeVisible();
  await drawer.getByRole('button', { name: 'Close details (Esc)' }).focus();
  await page.keyboard.press('Enter');
  await expect(drawer).toBeHidden();

  // A sidebar link navigates.
  await page.getByRole('link', { name: 'Webhooks' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/webhooks$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();

  // Replay in the listener's request drawer opens its dialog.
  await go(page, 'listener');
  const requests = page.getByRole('grid', { name: 'Requests' });
  await requests.locator('.vtable-row', { hasText: 'ok' }).first().click();
  await page
    .getByRole('complementary', { name: 'Details' })
    .getByRole('button', { name: 'Replay', exact: true })
    .focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Replay' })).toBeVisible();
  await page.keyboard.press('Escape');
  await context.close();
});

test('K2: focus stays on a busy button and inside the top dialog; Escape closes each dialog in turn', async ({
  browser,
}) => {
  const { context, page } = await openApp(browser, 'dark');
  // K2b: Sync is busy (aria-disabled) while it runs, and keeps focus.
  await go(page, 'pending-transactions');
  const sync = page.getByRole('button', { name: 'Sync', exact: true });
  await sync.focus();
  await sync.evaluate(watchBusy);
  await page.keyboard.press('Enter');
  // The sync is quick: watched from inside the page, it turned unavailable and kept focus.
  await expect.poll(async () => (await page.evaluate(busyWatchResult))?.unavailable ?? 0).toBeGreaterThan(0);
  await expect(sync).not.toHaveAttribute('aria-disabled', 'true', { timeout: 60_000 });
  const watched = await page.evaluate(busyWatchResult);
  expect(watched?.keptFocus).toBe(watched?.unavailable);
  await expect(sync).toBeFocused();

  await page.getByRole('combobox', { name: 'Profile' }).selectOption(productionId);
  await go(page, 'webhooks');
  const newWebhook = page.getByRole('button', { name: 'New webhook' }).first();
  await newWebhook.focus();
  await page.keyboard.press('Enter');
  const form = page.getByRole('dialog', { name: 'New webhook' });
  await expect(form).toBeVisible();
  // The page behind is inert: no Tab, click or screen reader reaches it.
  await expect(page.locator('#root')).toHaveAttribute('inert', '');
  await form.getByLabel('URL').fill('https://hooks.example/k2');
  const create = form.getByRole('button', { name: 'Create webhook' });
  await create.focus();
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Change Production?' });
  await expect(confirm).toBeVisible();
  // K8: Cancel is where focus starts, so a stray Enter answers no.
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await shoot(page, 'a11y-k2-stacked-dialogs-dark');

  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(form).toBeVisible();
  await expect(create, `focus went to ${await focused(page)}`).toBeFocused();
  for (let press = 0; press < 12; press += 1) {
    await page.keyboard.press(press % 3 === 2 ? 'Shift+Tab' : 'Tab');
    await expectFocusIn(form);
  }
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  await expect(newWebhook).toBeFocused();
  await expect(page.locator('#root')).not.toHaveAttribute('inert', '');

  // Escape closes the top dialog even with focus nowhere.
  await newWebhook.press('Enter');
  await expect(form).toBeVisible();
  await page.evaluate(dropFocus);
  expect(await focused(page)).toBe('body');
  await page.keyboard.press('Escape');
  await expect(form).toBeHidden();
  await page.getByRole('combobox', { name: 'Profile' }).selectOption(embeddedId);
  await context.close();
});

test('K3: a JSON editor indents with Tab and lets go after Escape; the hint says so', async ({ browser }) => {
  const { context, page } = await openApp(browser, 'light');
  await go(page, 'documents');
  const form = page.getByRole('form', { name: 'New document' });
  const other = form.getByLabel('Other fields');
  const bankdata = form.getByLabel('bankdata');
  const userdata = form.getByLabel('userdata');
  await expect(other).toHaveAccessibleDescription(/Press Esc, then Tab, to move to the next field/);
  await other.focus();
  await page.keyboard.type('{');
  await page.keyboard.press('Tab');
  await expect(other).toBeFocused();
  await expect(other).toHaveValue('{  ');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(bankdata).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(other).toBeFocused();
  await bankdata.focus();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(userdata).toBeFocused();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(form.getByRole('button', { name: 'Create document' })).toBeFocused();

  // In a dialog the Escape that lets go of Tab does not close it; the next one does.
  await go(page, 'listener');
  await page.getByRole('grid', { name: 'Requests' }).locator('.vtable-row', { hasText: 'ok' }).first().click();
  await page.getByRole('complementary', { name: 'Details' }).getByRole('button', { name: 'Edit and replay' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit and replay' });
  await dialog.getByLabel('Body').focus();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Tab');
  await expectFocusIn(dialog.locator('.dialog-footer'));
  await dialog.getByLabel('Body').focus();
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await context.close();
});

test('K4: the open drawer covers no control, at the default window and at 200% zoom', async ({ browser }) => {
  for (const options of [{}, ZOOM_200]) {
    const { context, page } = await openApp(browser, 'light', options);
    await go(page, 'pending-transactions');
    await page.getByRole('grid', { name: 'Pending transactions' }).locator('.vtable-row').nth(1).click();
    await expect(page.getByRole('complementary', { name: 'Details' })).toBeVisible();
    expect(await page.evaluate(hiddenControls, null)).toEqual([]);
    await go(page, 'listener');
    await page.getByRole('grid', { name: 'Requests' }).locator('.vtable-row').first().click();
    await expect(page.getByRole('complementary', { name: 'Details' })).toContainText('Hydrated object');
    expect(await page.evaluate(hiddenControls, null)).toEqual([]);
    await context.close();
  }
});

test('K5: closing a drawer, or Escape in search, gives focus back to the list on the row it showed', async ({
  browser,
}) => {
  const { context, page } = await openApp(browser, 'dark');
  await go(page, 'pending-transactions');
  const grid = page.getByRole('grid', { name: 'Pending transactions' });
  const drawer = page.getByRole('complementary', { name: 'Details' });
  await grid.focus();
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await page.keyboard.press('Enter');
  await expect(drawer).toBeVisible();
  // Close by keyboard from inside the drawer: focus back on the grid, on row 2.
  await drawer.getByRole('button', { name: 'Close details (Esc)' }).focus();
  await page.keyboard.press('Enter');
  await expect(drawer).toBeHidden();
  await expect(grid).toBeFocused();
  await expect(grid).toHaveAttribute('aria-activedescendant', 'vtable-row-1');
  // Escape with focus in the drawer's text.
  await page.keyboard.press('Enter');
  await drawer.getByRole('region').first().focus();
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(grid).toBeFocused();
  // Escape in the search box.
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Search descriptions and summaries' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(grid).toBeFocused();

  // A drawer opened by a button gives focus back to that button.
  await go(page, 'account-applications');
  const id = sandbox.demo.accountApplications.find((candidate) => candidate !== '') ?? '';
  await page.getByLabel('Application id').fill(id);
  const open = page.getByRole('button', { name: 'Open', exact: true });
  await open.focus();
  await page.keyboard.press('Enter');
  await expect(drawer).toContainText('Status history');
  await drawer.getByRole('button', { name: 'Close details (Esc)' }).click();
  await expect(drawer).toBeHidden();
  await expect(open, `focus went to ${await focused(page)}`).toBeFocused();
  await context.close();
});

test('K6: the grid is the focusable element, names its rows and counts, and points at the active row', async ({
  browser,
}) => {
  const { context, page } = await openApp(browser, 'light');
  await go(page, 'pending-transactions');
  const grid = page.getByRole('grid', { name: 'Pending transactions' });
  await expect(grid).toHaveAttribute('tabindex', '0');
  await expect(grid).toHaveAttribute('aria-rowcount', '601');
  // Seven fields of the bank and the review column.
  await expect(grid).toHaveAttribute('aria-colcount', '8');
  await grid.focus();
  await page.keyboard.press('End');
  await expect(grid).toHaveAttribute('aria-activedescendant', 'vtable-row-599');
  const active = page.locator('#vtable-row-599');
  await expect(active).toHaveAttribute('role', 'row');
  await expect(active).toHaveAttribute('aria-selected', 'true');
  await expect(active).toHaveAttribute('aria-rowindex', '601');
  await expect(grid.locator('#vtable-row-599')).toHaveCount(1);
  await page.keyboard.press('Home');
  await expect(grid).toHaveAttribute('aria-activedescendant', 'vtable-row-0');
  // Opening the drawer leaves focus on the grid, so its opening is said in a live region.
  await page.keyboard.press('Enter');
  const title = (await page.getByRole('complementary', { name: 'Details' }).locator('h2').textContent()) ?? '';
  await expect(page.locator('.list-screen > [role="status"]')).toHaveText(`Details: ${title}`);
  await expect(grid).toBeFocused();
  await context.close();
});

test('K7: every tab list is one Tab stop, moved with arrows, Home and End, each tab naming its panel', async ({
  browser,
}) => {
  const { context, page } = await openApp(browser, 'light');
  for (const [screen, list] of [
    ['settings', 'Settings'],
    ['listener', 'Listener'],
    ['webhook-sends', 'View'],
    ['webhooks', 'Status'],
  ] as const) {
    await go(page, screen);
    const tablist = page.getByRole('tablist', { name: list });
    const tabs = tablist.getByRole('tab');
    const count = await tabs.count();
    const selected = tablist.getByRole('tab', { selected: true });
    await expect(tablist.locator('[role="tab"][tabindex="0"]')).toHaveCount(1);
    await selected.focus();
    const first = (await tabs.first().textContent()) ?? '';
    await page.keyboard.press('ArrowRight');
    await expect(tabs.nth(1)).toBeFocused();
    await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('End');
    await expect(tabs.nth(count - 1)).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(tabs.first()).toBeFocused();
    await page.keyboard.press('ArrowLeft');
    await expect(tabs.nth(count - 1)).toBeFocused();
    await page.keyboard.press('Home');
    await expect(tabs.first()).toBeFocused();
    await expect(tablist.locator('[role="tab"][tabindex="0"]')).toHaveCount(1);
    const panel = page.getByRole('tabpanel');
    await expect(panel).toHaveAttribute('aria-labelledby', (await tabs.first().getAttribute('id')) ?? 'none');
    await expect(tabs.first()).toHaveAttribute('aria-controls', (await panel.getAttribute('id')) ?? 'none');
    expect(first).not.toBe('');
  }
  await context.close();
});

test('K8: the palette is a combobox; going to a screen names it in the title and moves focus to its heading', async ({
  browser,
}) => {
  const { context, page } = await openApp(browser, 'dark');
  await go(page, 'pending-transactions');
  await expect(page).toHaveTitle('Pending transactions — Ledgerdesk');
  await page.keyboard.press('Control+k');
  const input = page.getByRole('combobox', { name: 'Command' });
  await expect(input).toBeFocused();
  await expect(input).toHaveAttribute('aria-expanded', 'true');
  await expect(input).toHaveAttribute('aria-controls', 'palette-list');
  await page.keyboard.type('webhooks');
  await expect(input).toHaveAttribute('aria-activedescendant', 'palette-go-webhooks');
  await page.keyboard.press('Enter');
  await expect(page).toHaveTitle('Webhooks — Ledgerdesk');
  await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeFocused();
  // G then a letter, from the heading.
  await page.keyboard.press('g');
  await page.keyboard.press('l');
  await expect(page).toHaveTitle('Listener — Ledgerdesk');
  await expect(page.getByRole('heading', { level: 1, name: 'Listener' })).toBeFocused();
  await context.close();
});

test('K9, K10: Go to is named as shown; a skip link; named scroll regions; a quiet list footer', async ({
  browser,
}) => {
  const { context, page } = await openApp(browser, 'light');
  await go(page, 'pending-transactions');
  const goTo = page.getByRole('button', { name: /^Go to… (Ctrl|⌘)\+?K$/ });
  await expect(goTo).toBeVisible();
  await expect(goTo).toHaveAttribute('aria-keyshortcuts', /K$/);

  // The first Tab stop skips to the screen.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to Pending transactions' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Pending transactions' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeFocused();
  await expect(page).toHaveURL(/#\/pending-transactions$/);

  // Scroll regions are Tab stops with names: the drawer's body and the JSON of every field.
  await page.getByRole('grid', { name: 'Pending transactions' }).locator('.vtable-row').first().click();
  const drawer = page.getByRole('complementary', { name: 'Details' });
  const title = (await drawer.getByRole('heading', { level: 2 }).textContent()) ?? '';
  await expect(drawer.getByRole('region', { name: title })).toHaveAttribute('tabindex', '0');
  await expect(drawer.getByRole('region', { name: 'Every field' })).toHaveAttribute('tabindex', '0');

  // Only the row count is a live region, not the age of the cache that changes by itself.
  // (The other live region there is the selection count, empty until rows are Shift-selected.)
  const footer = page.locator('.list-footer');
  await expect(footer).toContainText('cached, as of');
  await expect(footer.locator('[role="status"]')).toHaveText(['600 rows', '']);
  await expect(footer).not.toHaveAttribute('role', 'status');

  // "Application id" has a visible label, not a placeholder alone.
  await go(page, 'account-applications');
  await expect(page.getByLabel('Application id')).toHaveAttribute('placeholder', 'aact_…');
  await expect(page.locator('label', { hasText: 'Application id' })).toBeVisible();
  await context.close();
});

test('reduced motion: nothing slides in; without the setting the drawer does', async ({ browser }) => {
  for (const reducedMotion of ['reduce', 'no-preference'] as const) {
    const { context, page } = await openApp(browser, 'light', { reducedMotion });
    await go(page, 'pending-transactions');
    await page.getByRole('grid', { name: 'Pending transactions' }).locator('.vtable-row').first().click();
    const drawer = page.locator('.drawer');
    await expect(drawer).toBeVisible();
    const animation = (await drawer.evaluate(styleOf)).animationName;
    const transition = (await page.getByRole('button', { name: 'Export CSV' }).evaluate(styleOf)).transitionDuration;
    if (reducedMotion === 'reduce') {
      expect(animation).toBe('none');
      expect(transition).toBe('0s');
    } else {
      expect(animation).toBe('drawer-in');
      expect(transition).not.toBe('0s');
    }
    await context.close();
  }
});

test('forced colours: focus, the active row and selections stay visible (pictures)', async ({ browser }) => {
  for (const theme of THEMES) {
    const { context, page } = await openApp(browser, theme, { forcedColors: 'active' });
    expect(await page.evaluate(forcedColorsActive)).toBe(true);
    await go(page, 'pending-transactions');
    const grid = page.getByRole('grid', { name: 'Pending transactions' });
    await grid.focus();
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('Shift+j');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('complementary', { name: 'Details' })).toBeVisible();
    await grid.focus();
    // A focus ring the system palette keeps: an outline, not a shadow.
    expect((await grid.evaluate(styleOf)).outlineStyle).toBe('solid');
    expect((await page.locator('.vtable-row.is-active').evaluate(styleOf)).outlineStyle).toBe('solid');
    await shoot(page, `a11y-forced-colors-pending-${theme}`);
    await go(page, 'settings');
    await page.getByRole('tab', { name: 'Profiles' }).focus();
    await shoot(page, `a11y-forced-colors-settings-${theme}`);
    await go(page, 'webhooks');
    await page.getByRole('button', { name: 'New webhook' }).first().click();
    await shoot(page, `a11y-forced-colors-dialog-${theme}`);
    await context.close();
  }
});

test('at the default window and at 200% zoom, every screen keeps all its content and controls', async ({ browser }) => {
  for (const [size, options] of [
    ['default', {}],
    ['zoom200', ZOOM_200],
  ] as const) {
    for (const theme of THEMES) {
      const { context, page } = await openApp(browser, theme, options);
      for (const screen of SCREENS) {
        await go(page, screen);
        expect(await page.evaluate(lostContent), `${screen} (${size}, ${theme})`).toEqual([]);
        expect(await page.evaluate(hiddenControls, null), `${screen} (${size}, ${theme})`).toEqual([]);
        if (size === 'zoom200') await shoot(page, `a11y-zoom200-${screen}-${theme}`);
      }
      // A drawer at this size: beside the list, or under it when narrow; it covers nothing.
      await go(page, 'pending-transactions');
      await page.getByRole('grid', { name: 'Pending transactions' }).locator('.vtable-row').first().click();
      await page.getByRole('complementary', { name: 'Details' }).evaluate(animationsDone);
      expect(await page.evaluate(lostContent), `drawer (${size}, ${theme})`).toEqual([]);
      if (size === 'zoom200') await shoot(page, `a11y-zoom200-pending-drawer-${theme}`);
      await context.close();
    }
  }
});

test('no console error or CSP violation', () => {
  expect(problems).toEqual([]);
});
