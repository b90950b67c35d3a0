/** The real IPC router for the harness's page (it trusts only that page, served from the renderer's origin), and opening such a page. */
import { expect, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from '@playwright/test';
import { createRouter, type Router } from '../../../src/main/ipc/routerCore.ts';
import type { RunningServices } from '../../../src/main/app/services.ts';
import { HARNESS_WEB_CONTENTS_ID, installLedgerdesk, type LedgerdeskPage } from './ledgerdeskPage.ts';

export function harnessRouter(services: RunningServices, rendererUrl: string): Router {
  return createRouter({
    handlers: services.handlers,
    senderPolicy: {
      isOwnWindow: (id) => id === HARNESS_WEB_CONTENTS_ID,
      allowedOrigins: [new URL(rendererUrl).origin],
    },
    knownSecrets: () => services.knownSecrets(),
  });
}

/** Where a harness page reports to: the pages to push events to, and console errors seen. */
export interface HarnessRecord {
  harnesses: LedgerdeskPage[];
  problems: string[];
}

/**
 * A fresh window (context) at the app's default size, on the real router, with its console
 * watched. `options` adds to the context: forced colours, reduced motion, another viewport.
 */
export async function openHarnessPage(
  browser: Browser,
  theme: 'light' | 'dark',
  at: { router: Router; rendererUrl: string; record: HarnessRecord },
  options: BrowserContextOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    colorScheme: theme,
    viewport: { width: 1280, height: 800 },
    ...options,
  });
  at.record.harnesses.push(await installLedgerdesk(context, at.router));
  const page = await context.newPage();
  page.on('console', (message) => {
    if (message.type() === 'error') at.record.problems.push(`${theme}: ${message.text()}`);
  });
  page.on('pageerror', (error) => at.record.problems.push(`${theme}: ${error.message}`));
  await page.goto(at.rendererUrl);
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();
  return { context, page };
}

/** Goes to a screen by its address and waits until the sidebar marks it as the one shown. */
export async function showScreen(page: Page, rendererUrl: string, screen: string): Promise<void> {
  await page.goto(`${rendererUrl}#/${screen}`);
  await expect(page.locator('.nav-item.is-active')).toHaveAttribute('href', new RegExp(`#/${screen}$`));
  // A screen's chunk loads on first use (screenViews.tsx): keys pressed before it is drawn reach
  // the "Opening…" state, not the screen, as they would for a person who did not wait for it.
  await expect(page.locator('#screen [data-screen-loading]')).toHaveCount(0);
}
