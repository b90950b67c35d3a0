/**
 * Settings › Local sandbox bank › Restart, in Chromium on the real thing: web mode started on a
 * data folder (the same startLedgerdesk the desktop shell runs), its sandbox process ended from
 * outside as a crash would, the top bar saying so in people's words with the way to Settings
 * beside it; that way lands on Restart with the keyboard's focus; Enter restarts the sandbox
 * on its own data, the outcome is shown and announced, and the Online badge comes back. Light
 * and dark pictures, through the accessibility gate.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { SandboxChild } from '../../src/main/app/embeddedSandbox.ts';
import { forkSandboxChild } from '../../src/main/web/forkSandbox.ts';
import { shoot } from './support/screens.ts';
import { openWebMode, startWebModeApp, type WebModeApp } from './support/webModeApp.ts';

test.describe.configure({ mode: 'serial', timeout: 240_000 });

let folder: string;
let app: WebModeApp;
let context: BrowserContext;
let page: Page;
const children: SandboxChild[] = [];
const problems: string[] = [];

test.beforeAll(async ({ browser }: { browser: Browser }) => {
  test.setTimeout(240_000);
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-sandbox-restart-'));
  app = await startWebModeApp(folder, undefined, () => {
    const child = forkSandboxChild();
    children.push(child);
    return child;
  });
  await app.shell.ledgerdesk.firstOpenSync;
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await openWebMode(context, app.shell.entryUrl, problems);
});

test.afterAll(async () => {
  await context.close().catch(() => undefined);
  await app.shell.stop();
  rmSync(folder, { recursive: true, force: true });
});

test('a sandbox that stopped is restarted from Settings by keyboard, from the way the top bar offers', async () => {
  const before = app.shell.ledgerdesk.sandbox?.baseUrl ?? null;
  expect(before).not.toBeNull();
  await expect(page.locator('.connectivity')).toHaveText(/Online/, { timeout: 60_000 });

  // A crash: the sandbox's process ends without being asked.
  expect(children).toHaveLength(1);
  children[0]?.kill();
  // The window learns it at the next request: the Online badge's own check, or a screen's reload.
  await page.locator('.nav-item[href$="#/webhooks"]').click();
  const offline = page.locator('.connectivity-offline');
  await expect(offline).toBeVisible({ timeout: 120_000 });
  await expect(offline).toHaveAttribute(
    'aria-label',
    'Offline. The local sandbox bank is not running. Restart it from Settings; cached data stays available.',
  );
  const way = page.getByRole('button', { name: 'Restart sandbox' });
  await expect(way).toBeVisible();
  await shoot(page, 'sandbox-stopped-top-bar-light');

  // The way there, by keyboard: Settings › Profiles, focus on Restart.
  await way.focus();
  await page.keyboard.press('Enter');
  const restart = page.getByRole('button', { name: 'Restart the sandbox bank' });
  await expect(restart).toBeFocused();
  const panel = page.locator('section.panel', { has: page.getByRole('heading', { name: 'Local sandbox bank' }) });
  await expect(panel).toContainText('not running');
  await expect(panel).toContainText(/stopped on its own/);
  await shoot(page, 'sandbox-settings-stopped-light');

  await page.keyboard.press('Enter');
  await expect(panel).toContainText(/The local sandbox bank is running again \(restarted in [\d.]+ s\) and answers/, {
    timeout: 120_000,
  });
  await expect(panel).toContainText('running');
  await expect(restart).toBeFocused();
  await expect(page.locator('[data-announcer]')).toContainText(/running again/);
  await expect(page.locator('.connectivity')).toHaveText(/Online/, { timeout: 60_000 });
  await expect(page.getByRole('button', { name: 'Restart sandbox' })).toHaveCount(0);
  const after = app.shell.ledgerdesk.sandbox?.baseUrl ?? null;
  expect(after).not.toBeNull();
  expect(after).not.toBe(before);
  expect(children).toHaveLength(2);
  await expect(panel).toContainText(after ?? '');
  // The profile's address in the table above is the new one too.
  await expect(page.locator('tr[data-profile-id="local-sandbox"]')).toContainText(after ?? '');
  await shoot(page, 'sandbox-settings-restarted-light');

  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await shoot(page, 'sandbox-settings-restarted-dark');
  expect(problems).toEqual([]);
});
