/**
 * The app's listener loop end to end (issue 27, item 6), in Debian's Chromium on the real IPC
 * router, services, listener and sandbox: several events registered at once from the header's
 * multi-select with the keyboard (each choice and the registration announced); the Webhooks
 * screen lists them at once (never "No webhooks" after a registration) with each one's 24-hour
 * deliveries and a link to its send log; the registrations list shows status, last delivery and
 * success rate once the send log is synced; Settings → Listener defaults switches forwarding
 * of unverified posts off and on, audited. Every picture (light and dark, 1280 and 1024 px)
 * goes through the axe gate.
 */
import { expect, test, type Page } from '@playwright/test';
import { HARNESS_WEB_CONTENTS_ID } from './support/ledgerdeskPage.ts';
import { register, shootWithoutToasts, startListenerApp, type ListenerApp } from './support/listenerApp.ts';
import { EVENT_CATALOG } from '../../src/shared/eventCatalog/eventCatalog.ts';

// Timeouts only stop a hung run; nothing here measures time.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

let app: ListenerApp;

test.beforeAll(async () => {
  app = await startListenerApp('listener-loop');
});

test.afterAll(async () => {
  await app.close();
});

/**
 * The state at 1280 and 1024 px, and at 200% zoom of the default 1280 × 800 window (a 640 × 400
 * CSS viewport: the layout the zoomed window gets), each through the accessibility gate.
 */
async function atWidths(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await shootWithoutToasts(page, `${name}-1280`);
  await page.setViewportSize({ width: 1024, height: 768 });
  await shootWithoutToasts(page, `${name}-1024`);
  await page.setViewportSize({ width: 640, height: 400 });
  await shootWithoutToasts(page, `${name}-zoom-200`);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('registers several events at once by keyboard; the Webhooks screen and the registrations show their deliveries', async ({
  browser,
}) => {
  const { context, page } = await app.open(browser, 'light');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByText('listening')).toBeVisible();

  // The multi-select: each choice is said, Escape closes it and focus goes back to its button.
  const toggle = page.getByRole('button', { name: /^Events: / });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const achCreate = page.getByRole('checkbox', { name: 'ach.create', exact: true });
  // The list is the events catalog's, in its order (issue 37): its first event takes the focus.
  await expect(page.getByRole('checkbox', { name: EVENT_CATALOG[0]?.event ?? 'no event', exact: true })).toBeFocused();
  await achCreate.focus();
  await page.keyboard.press('Space');
  await expect(achCreate).toBeChecked();
  await expect(page.getByRole('status').filter({ hasText: 'ach.create chosen: 2 events to register.' })).toBeAttached();
  await shootWithoutToasts(page, 'listener-register-events-open-light');
  // (Dismissing the toasts for the picture moved focus: back into the list, then Escape.)
  await achCreate.focus();
  await page.keyboard.press('Escape');
  await expect(toggle).toBeFocused();
  await expect(toggle).toHaveText('Events: ach.create, ach.update');

  await register(page, ['ach.create', 'ach.update', 'account.update']);
  await page.getByRole('tab', { name: 'Setup' }).click();
  const list = page.getByRole('list', { name: 'Webhooks of this listener' });
  await expect(list.getByRole('listitem')).toHaveCount(3);
  // Status from the cached list (kept at registration), no delivery yet.
  await expect(list.getByRole('listitem').first()).toContainText('enabled');
  await expect(list.getByRole('listitem').first()).toContainText('No attempt in 24 h');

  // Something to deliver: an ACH created, then a sync of the send log fills the figures.
  await page.getByRole('tab', { name: 'Trigger' }).click();
  const form = page.getByRole('form', { name: 'Trigger an event' });
  await form.getByRole('combobox', { name: 'Event' }).selectOption('ach.create');
  await form.getByRole('button', { name: 'Trigger' }).click();
  const caused = page.getByRole('list', { name: 'Events caused' });
  await expect(caused.locator('[data-reach="reached"]').first()).toContainText('reached, verified', {
    timeout: 30_000,
  });
  await page.getByRole('tab', { name: 'Setup' }).click();
  await page.getByRole('button', { name: 'Sync send log' }).click();
  const achCreateRow = list.getByRole('listitem').filter({ hasText: 'ach.create' });
  await expect(achCreateRow).toContainText('100% delivered', { timeout: 30_000 });
  await expect(achCreateRow).toContainText('Last attempt sent at');
  await atWidths(page, 'listener-registrations-figures-light');

  // The Webhooks screen lists them without a sync, with deliveries and a link to the send log.
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Webhooks', exact: true }).click();
  const table = page.getByRole('table', { name: 'Webhooks' });
  await expect(table.getByRole('row').filter({ hasText: 'ach.create' })).toContainText('100% delivered');
  await expect(page.getByText('No webhooks')).toHaveCount(0);
  await atWidths(page, 'webhooks-deliveries-light');
  const webhookId =
    (await table.getByRole('row').filter({ hasText: 'ach.create' }).textContent())?.match(/wh_\w{14}/)?.[0] ?? '';
  await table.getByRole('button', { name: `Send log of webhook ${webhookId}` }).click();
  await expect(page).toHaveURL(/#\/webhook-sends/);
  await expect(page.getByRole('heading', { name: 'Webhook send log' })).toBeVisible();
  // Filtered to that webhook.
  await expect(page.getByRole('combobox', { name: 'Webhook' })).toHaveValue(webhookId);
  await context.close();
  expect(app.problems).toEqual([]);
});

test('the Webhooks screen and the registrations in dark', async ({ browser }) => {
  const { context, page } = await app.open(browser, 'dark', 'webhooks');
  await expect(page.getByRole('table', { name: 'Webhooks' })).toContainText('delivered');
  await atWidths(page, 'webhooks-deliveries-dark');
  await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Listener', exact: true }).click();
  await page.getByRole('tab', { name: 'Setup' }).click();
  await expect(page.getByRole('list', { name: 'Webhooks of this listener' }).getByRole('listitem')).toHaveCount(3);
  await atWidths(page, 'listener-registrations-figures-dark');
  await context.close();
  expect(app.problems).toEqual([]);
});

test('Settings → Listener defaults switches forwarding of unverified posts, audited', async ({ browser }) => {
  const { context, page } = await app.open(browser, 'light', 'settings');
  await page.getByRole('tab', { name: 'Listener defaults' }).click();
  const forward = page.getByRole('checkbox', { name: /Forward unverified posts too/ });
  await expect(forward).toBeChecked();
  await forward.focus();
  await page.keyboard.press('Space');
  await expect(forward).not.toBeChecked();
  await page.getByRole('button', { name: 'Save settings' }).click();
  const caller = { webContentsId: HARNESS_WEB_CONTENTS_ID, channel: 'listener.getConfig' } as const;
  await expect
    .poll(async () => (await app.services.handlers.listener.getConfig({}, caller)).forwardUnverified)
    .toBe(false);
  const audit = await app.services.handlers.audit.list(
    { action: 'listener.configure', limit: 10 },
    { webContentsId: HARNESS_WEB_CONTENTS_ID, channel: 'audit.list' },
  );
  // The form saves all its fields: the entry names this change among them.
  expect(audit.rows[0]?.message).toContain('unverified posts not forwarded');
  await shootWithoutToasts(page, 'settings-listener-forward-unverified-light');
  await forward.focus();
  await page.keyboard.press('Space');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await expect
    .poll(async () => (await app.services.handlers.listener.getConfig({}, caller)).forwardUnverified)
    .toBe(true);
  await context.close();
  expect(app.problems).toEqual([]);
});
