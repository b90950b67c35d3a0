/**
 * Settings → Audit log → Tamper evidence, in Debian's Chromium against the real IPC router and
 * services: Verify (by keyboard) shows the log verified with its entries and chain head; after
 * an entry is edited in the cache file behind the app's back (another SQLite connection, the
 * triggers dropped), Verify names that entry. Screenshots in light and dark under
 * test-results/screens/.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { Router } from '../../src/main/ipc/routerCore.ts';
import { actorText } from '../../src/main/services/audit/actor.ts';
import { OfflineCache } from '../../src/main/services/cache/offlineCache.ts';
import { Credentials } from '../../src/main/services/credentials/credentials.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { osUserName } from '../../src/main/services/review/reviewer.ts';
import type { RunningServices } from '../../src/main/app/services.ts';
import { openHarnessPage } from './support/harnessRouter.ts';
import { startHarnessServices } from './support/harnessServices.ts';
import type { LedgerdeskPage } from './support/ledgerdeskPage.ts';
import { serveRenderer, type RendererServer } from './support/rendererServer.ts';
import { shoot } from './support/screens.ts';

// Timeouts only stop a hung run; nothing here measures time.
test.describe.configure({ mode: 'serial', timeout: 120_000 });

const ENTRIES = 12;

let folder: string;
let services: RunningServices;
let renderer: RendererServer;
let router: Router;
let head: string | null;
const harnesses: LedgerdeskPage[] = [];
const problems: string[] = [];

test.beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-e2e-audit-'));
  const secretStore = new InMemorySecretStore();
  // A log written by earlier sessions: writes and review actions of two profiles. The documents
  // name who made them (the app, the OS login reviewing under its own name); the webhook
  // updates are of a build before entries recorded who acted.
  const cache = await OfflineCache.open({ folder, credentials: new Credentials(secretStore), writer: 'inline' });
  const officer = actorText('app', cache.audit.reviewerRef(osUserName()));
  for (let n = 1; n <= ENTRIES; n += 1) {
    cache.audit.record({
      ...(n % 3 === 0 ? {} : { actor: officer }),
      profileId: n % 2 === 0 ? 'prof_ops' : 'prof_eu',
      profileName: n % 2 === 0 ? 'Operations' : 'Compliance EU',
      action: n % 3 === 0 ? 'webhook.update' : 'document.create',
      target: `target_${String(n)}`,
      result: 'ok',
    });
  }
  head = cache.audit.chainHead().head;
  await cache.close();
  renderer = await serveRenderer();
  ({ services, router } = await startHarnessServices({
    folder,
    sandbox: null,
    secretStore,
    rendererUrl: renderer.url,
    send: (channel, payload) => {
      for (const harness of harnesses) harness.send(channel, payload);
    },
  }));
});

test.afterAll(async () => {
  await services.stop();
  await renderer.close();
  rmSync(folder, { recursive: true, force: true });
  expect(problems).toEqual([]);
});

async function openAuditTab(
  browser: Browser,
  theme: 'light' | 'dark',
): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await openHarnessPage(browser, theme, {
    router,
    rendererUrl: renderer.url,
    record: { harnesses, problems },
  });
  const { page } = opened;
  await page.goto(`${renderer.url}#/settings`);
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const audit = page.getByRole('grid', { name: 'Audit log' });
  await expect(audit).toContainText('document.create');
  // Who acted, as the entry records it (issue 38): the officer's login, who reviews under it here.
  await expect(audit.getByRole('columnheader', { name: 'Who' })).toBeVisible();
  await expect(audit.locator('.vtable-row', { hasText: 'document.create' }).first()).toContainText(osUserName());
  await expect(audit.locator('.vtable-row', { hasText: 'webhook.update' }).first()).toContainText('not recorded');
  return opened;
}

/** Verify, pressed from the keyboard: focus stays on the button while it runs and after. */
async function verifyByKeyboard(page: Page): Promise<void> {
  const button = page.getByRole('button', { name: 'Verify' });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Checked' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Verify' })).toBeFocused();
}

for (const theme of ['light', 'dark'] as const) {
  test(`verifies the untouched log and shows its entries and head (${theme})`, async ({ browser }) => {
    const { context, page } = await openAuditTab(browser, theme);
    const panel = page.locator('.panel', { hasText: 'Tamper evidence' });
    await expect(panel).toContainText('Verify checks the whole log');
    await verifyByKeyboard(page);
    const status = page.getByRole('status').filter({ hasText: 'Checked' });
    await expect(status).toContainText('verified');
    await expect(status).toContainText(String(ENTRIES));
    await expect(status).toContainText(head ?? 'no head');
    await shoot(page, `settings-audit-verified-${theme}`);
    await context.close();
  });
}

test('names the entry edited in the record’s file behind the app’s back', async ({ browser }) => {
  // The app's first open moved the log into the officer's record (issue 34): edited there.
  const raw = new DatabaseSync(join(folder, 'record.sqlite'));
  raw.exec('DROP TRIGGER audit_log_no_update; DROP TRIGGER audit_log_no_delete;');
  raw.exec("UPDATE audit_log SET result = 'failed' WHERE id = 7");
  raw.close();
  for (const theme of ['dark', 'light'] as const) {
    const { context, page } = await openAuditTab(browser, theme);
    await verifyByKeyboard(page);
    const status = page.getByRole('status').filter({ hasText: 'Checked' });
    await expect(status).toContainText('broken');
    await expect(status).toContainText('#7 · document.create target_7');
    await expect(status).toContainText('entry #7');
    await shoot(page, `settings-audit-broken-${theme}`);
    await context.close();
  }
});
