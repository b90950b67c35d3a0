/** The built renderer loads in real Chromium under its strict CSP and draws the shell. */
import { expect, test } from '@playwright/test';
import { serveRenderer, type RendererServer } from './support/rendererServer.ts';
import { shoot } from './support/screens.ts';

let renderer: RendererServer;

test.beforeAll(async () => {
  renderer = await serveRenderer();
});

test.afterAll(async () => {
  await renderer.close();
});

test('the window shows Ledgerdesk with no console errors or CSP violations', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(renderer.url);
  await expect(page.getByRole('heading', { name: 'Ledgerdesk' })).toBeVisible();
  await shoot(page, 'shell-placeholder');
  expect(problems).toEqual([]);
});
