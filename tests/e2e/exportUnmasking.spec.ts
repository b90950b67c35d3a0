/**
 * Settings → Profiles → Personal data in exports and reports (issue 24, item 4), in Chromium on
 * the real router, services, cache and sandbox: with the keyboard alone the officer ticks date of
 * birth and email and saves; the change is announced (the form's live line and the toast), the
 * audit log shows `profile.export-unmasked` with the classes before and after; unticking both
 * and saving again announces and audits "nothing". Pictured light and dark at 1280 px, each
 * through the accessibility gate. Any console error fails the run.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import type { Router } from '../../src/main/ipc/routerCore.ts';
import type { RunningServices } from '../../src/main/app/services.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { openHarnessPage, showScreen } from './support/harnessRouter.ts';
import { startHarnessServices } from './support/harnessServices.ts';
import type { LedgerdeskPage } from './support/ledgerdeskPage.ts';
import { serveRenderer, type RendererServer } from './support/rendererServer.ts';
import { SCREENS_FOLDER, shoot } from './support/screens.ts';

// Timeouts only stop a hung run; nothing here measures time.
test.describe.configure({ mode: 'serial', timeout: 300_000 });

let folder: string;
let sandbox: RunningSandbox;
let services: RunningServices;
let renderer: RendererServer;
let router: Router;
const harnesses: LedgerdeskPage[] = [];
const problems: string[] = [];

test.beforeAll(async () => {
  mkdirSync(SCREENS_FOLDER, { recursive: true });
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-e2e-unmasking-'));
  renderer = await serveRenderer();
  sandbox = await startSandbox({ port: 0, dataFile: join(folder, 'sandbox.db'), retryBaseMs: 40 });
  ({ services, router } = await startHarnessServices({
    folder,
    sandbox,
    rendererUrl: renderer.url,
    send: (channel, payload) => {
      for (const harness of harnesses) harness.send(channel, payload);
    },
  }));
});

test.afterAll(async () => {
  await services.stop();
  await sandbox.close().catch(() => undefined);
  await renderer.close();
  rmSync(folder, { recursive: true, force: true });
  expect(problems).toEqual([]);
});

/** Tabs forward from where the focus is until this element has it (bounded). */
async function tabTo(page: Page, name: string | RegExp, role: 'checkbox' | 'button'): Promise<void> {
  const target = page.getByRole(role, { name });
  for (let step = 0; step < 12; step += 1) {
    // Typed by hand: the e2e project typechecks without the DOM library.
    const focused = await target.evaluate(
      (element) =>
        (element as unknown as { ownerDocument: { activeElement: unknown } }).ownerDocument.activeElement === element,
    );
    if (focused) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

async function lastAuditEntry(page: Page): Promise<string> {
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const entry = page
    .getByRole('grid', { name: 'Audit log' })
    .locator('.vtable-row', { hasText: 'profile.export-unmasked' })
    .first();
  await expect(entry).toBeVisible();
  return (await entry.textContent()) ?? '';
}

for (const theme of ['light', 'dark'] as const) {
  test(`sets what exports and reports show unmasked by keyboard, announced and audited (${theme})`, async ({
    browser,
  }) => {
    const { context, page } = await openHarnessPage(browser, theme, {
      router,
      rendererUrl: renderer.url,
      record: { harnesses, problems },
    });
    await showScreen(page, renderer.url, 'settings');
    await page.getByRole('tab', { name: 'Profiles' }).click();
    const form = page.locator('form.export-unmasking');
    await expect(form).toBeVisible();
    const live = form.locator('[aria-live="polite"]');
    await expect(live).toHaveText('Now: nothing unmasked.');

    // Keyboard only: into the group, tick date of birth and email, on to Save.
    await page.getByRole('tab', { name: 'Profiles' }).focus();
    await tabTo(page, /^date of birth/, 'checkbox');
    await page.keyboard.press('Space');
    await tabTo(page, /^email/, 'checkbox');
    await page.keyboard.press('Space');
    await tabTo(page, 'Save', 'button');
    await page.keyboard.press('Enter');
    await expect(live).toHaveText('Now: date of birth, email unmasked.');
    await expect(page.getByText(/show unmasked: date of birth, email\./)).toBeVisible();
    await shoot(page, `unmasking-saved-${theme}-1280`);
    expect(await lastAuditEntry(page)).toContain(
      'exports and reports show unmasked: date of birth, email (was: nothing)',
    );
    await shoot(page, `unmasking-audit-${theme}-1280`);

    // And back to nothing, again by keyboard.
    await page.getByRole('tab', { name: 'Profiles' }).click();
    await page.getByRole('tab', { name: 'Profiles' }).focus();
    await tabTo(page, /^date of birth/, 'checkbox');
    await page.keyboard.press('Space');
    await tabTo(page, /^email/, 'checkbox');
    await page.keyboard.press('Space');
    await tabTo(page, 'Save', 'button');
    await page.keyboard.press('Enter');
    await expect(form.locator('[aria-live="polite"]')).toHaveText('Now: nothing unmasked.');
    expect(await lastAuditEntry(page)).toContain(
      'exports and reports show unmasked: nothing (was: date of birth, email)',
    );
    await context.close();
  });
}
