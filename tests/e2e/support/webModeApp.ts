/**
 * Web mode in a browser for an e2e test: started by webModeStart.ts, opened by the test's
 * Chromium at the printed address.
 */
import { expect, type BrowserContext, type Page } from '@playwright/test';

export { startWebModeApp, type WebModeApp } from './webModeStart.ts';

/** Opens the printed address in a fresh page of `context` and waits for the app and its socket. */
export async function openWebMode(context: BrowserContext, address: string, problems: string[]): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto(address);
  await waitUntilConnected(page);
  return page;
}

/** The app's own readiness signals: the sidebar drawn and the web bridge's socket open. */
export async function waitUntilConnected(page: Page): Promise<void> {
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-ledgerdesk-connection', 'open');
}
