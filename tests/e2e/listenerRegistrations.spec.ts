/**
 * Listener → Setup → Registered webhooks end to end (issue 27, item 6), in Debian's Chromium on
 * the real IPC router, services, listener and sandbox: two registrations are listed; one is
 * removed with the keyboard after confirmation, the removal is announced and focus lands on the
 * remaining row's Remove. The axe gate runs on the list; screenshots go to test-results/screens/.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { register, shootWithoutToasts, startListenerApp, type ListenerApp } from './support/listenerApp.ts';
import { expectAccessible } from './support/a11y.ts';

// Timeouts only stop a hung run; nothing here measures time.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

let app: ListenerApp;
let problems: string[];

function openListener(browser: Browser, theme: 'light' | 'dark'): Promise<{ context: BrowserContext; page: Page }> {
  return app.open(browser, theme);
}

test.beforeAll(async () => {
  app = await startListenerApp('registrations');
  ({ problems } = app);
});

test.afterAll(async () => {
  await app.close();
});

test('lists the listener’s registrations and removes one with the keyboard', async ({ browser }) => {
  const { context, page } = await openListener(browser, 'light');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByText('listening')).toBeVisible();
  // Both at once, from the header's multi-select.
  await register(page, ['ach.update', 'account_application.update']);

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
