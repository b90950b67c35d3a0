/**
 * Tables that keep their columns (issue 25 item 5), in Debian's Chromium on the built renderer,
 * the real router and services and a real sandbox bank:
 * - the Account applications table with its filters at 1280 px, no drawer: every column drawn
 *   inside the grid, the kept ones (Status, Application, Review) among them, the filters inside
 *   the window;
 * - the Webhooks table at 200% zoom of the default window: every column and each row's
 *   Disable and Delete reachable (the table scrolls sideways inside its list; nothing clipped);
 * - a drawer opens where it can be seen (issue 38) at 1280 and 1024 px, at 200% zoom and at
 *   320 px, on the pending transactions and the account applications, and follows j there.
 * Light and dark, pictured and through the accessibility gate.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type BrowserContextOptions } from '@playwright/test';
import type { Router } from '../../src/main/ipc/routerCore.ts';
import type { RunningServices } from '../../src/main/app/services.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { openHarnessPage, showScreen } from './support/harnessRouter.ts';
import { startHarnessServices } from './support/harnessServices.ts';
import { HARNESS_WEB_CONTENTS_ID, type LedgerdeskPage } from './support/ledgerdeskPage.ts';
import { serveRenderer, type RendererServer } from './support/rendererServer.ts';
import { SCREENS_FOLDER, shoot } from './support/screens.ts';

// Timeouts only stop a hung run; nothing here measures time.
test.describe.configure({ mode: 'serial', timeout: 600_000 });

const ZOOM_200: BrowserContextOptions = { viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 };
const context1 = { webContentsId: HARNESS_WEB_CONTENTS_ID, channel: 'tests' };

let folder: string;
let sandbox: RunningSandbox;
let services: RunningServices;
let renderer: RendererServer;
let router: Router;
const harnesses: LedgerdeskPage[] = [];
const problems: string[] = [];

function openApp(browser: Browser, theme: 'light' | 'dark', options: BrowserContextOptions = {}) {
  return openHarnessPage(
    browser,
    theme,
    { router, rendererUrl: renderer.url, record: { harnesses, problems } },
    options,
  );
}

async function profileId(): Promise<string> {
  const { activeProfileId } = await services.handlers.profiles.list({}, context1);
  return activeProfileId ?? '';
}

async function synced(job: Parameters<RunningServices['handlers']['sync']['start']>[0]['job']): Promise<void> {
  const id = await profileId();
  const started = await services.handlers.sync.start({ profileId: id, job }, context1);
  await expect
    .poll(
      async () => {
        const { jobs } = await services.handlers.sync.status({ profileId: id }, context1);
        return jobs.some((candidate) => candidate.jobId === started.jobId && candidate.state === 'running');
      },
      { timeout: 120_000 },
    )
    .toBe(false);
}

test.beforeAll(async () => {
  test.setTimeout(600_000);
  mkdirSync(SCREENS_FOLDER, { recursive: true });
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-e2e-layouts-'));
  renderer = await serveRenderer();
  sandbox = await startSandbox({ port: 0, dataFile: join(folder, 'sandbox.db'), pendingTransactionsPerAccount: 20 });
  ({ services, router } = await startHarnessServices({
    folder,
    sandbox,
    rendererUrl: renderer.url,
    send: (channel, payload) => {
      for (const harness of harnesses) harness.send(channel, payload);
    },
  }));
  const id = await profileId();
  for (const [event, path] of [
    ['ach.create', 'ach'],
    ['account_application.update', 'applications-and-a-longer-path-a-receiver-might-use'],
    ['wire.create', 'wires'],
  ] as const) {
    await services.handlers.webhooks.create(
      {
        profileId: id,
        request: {
          event,
          url: `http://127.0.0.1:9/ledgerdesk/${path}`,
          basic_user: 'ops-hooks',
          basic_secret: 'hook-secret-for-layout-test',
        },
      },
      context1,
    );
  }
  await synced({ kind: 'webhooks' });
  await synced({ kind: 'applications' });
  // Every account's: the pending list opens on whichever the picker chooses first.
  for (const accountId of sandbox.demo.accounts) await synced({ kind: 'pendingTransactions', accountId });
});

test.afterAll(async () => {
  await services.stop();
  await sandbox.close().catch(() => undefined);
  await renderer.close();
  rmSync(folder, { recursive: true, force: true });
  expect(problems).toEqual([]);
});

test('the Account applications table with its filters fits at 1280 px: every column inside, the kept ones there', async ({
  browser,
}) => {
  for (const theme of ['light', 'dark'] as const) {
    const { context, page } = await openApp(browser, theme, { viewport: { width: 1280, height: 800 } });
    await showScreen(page, renderer.url, 'account-applications');
    const grid = page.getByRole('grid', { name: 'Account applications' });
    await expect(grid.locator('.vtable-row').first()).toBeVisible({ timeout: 60_000 });
    const box = await grid.boundingBox();
    if (box === null) throw new Error('the applications grid is not drawn');
    await expect(async () => {
      const drawn: { name: string; inside: boolean }[] = [];
      for (const header of await grid.getByRole('columnheader').all()) {
        const own = await header.boundingBox();
        drawn.push({
          name: (await header.innerText()).trim(),
          inside: own !== null && own.x + own.width <= box.x + box.width + 1,
        });
      }
      for (const name of ['Status', 'Applicant', 'Review'])
        expect(
          drawn.find((column) => column.name === name),
          name,
        ).toEqual({ name, inside: true });
      expect(drawn.filter((column) => !column.inside)).toEqual([]);
    }).toPass({ timeout: 20_000 });
    // The filters, each inside the window.
    for (const filter of [
      page.getByRole('combobox', { name: 'Status', exact: true }),
      page.getByRole('combobox', { name: 'Ownership', exact: true }),
      page.getByRole('textbox', { name: 'Account product id' }),
      page.getByRole('textbox', { name: 'From date' }),
      page.getByRole('textbox', { name: 'To date (exclusive)' }),
      page.getByRole('combobox', { name: 'Review', exact: true }),
      page.getByRole('searchbox', { name: 'Search applications' }),
    ]) {
      await expect(filter).toBeInViewport({ ratio: 1 });
    }
    await shoot(page, `desk-columns-account-applications-1280-${theme}`);
    await context.close();
  }
});

test('the Webhooks table at 200% zoom: every column and each row’s actions can be scrolled to, nothing clipped', async ({
  browser,
}) => {
  for (const theme of ['light', 'dark'] as const) {
    const { context, page } = await openApp(browser, theme, ZOOM_200);
    await showScreen(page, renderer.url, 'webhooks');
    const table = page.getByRole('table', { name: 'Webhooks' });
    await expect(table.getByRole('row')).toHaveCount(4, { timeout: 60_000 });
    for (const header of await table.getByRole('columnheader').all()) {
      await header.scrollIntoViewIfNeeded();
      await expect(header).toBeInViewport({ ratio: 0.9 });
    }
    const first = table.getByRole('row').nth(1);
    for (const action of [
      first.getByRole('button', { name: 'Disable' }),
      first.getByRole('button', { name: /^Delete webhook/ }),
    ]) {
      await action.scrollIntoViewIfNeeded();
      await expect(action).toBeInViewport({ ratio: 1 });
    }
    // The Basic user stands under the address (issue 27 gave its column to the deliveries).
    await expect(first.getByRole('cell').nth(2)).toContainText('Basic user ops-hooks');
    await shoot(page, `desk-webhooks-zoom-200-${theme}`);
    await context.close();
  }
});

/** The windows a drawer must open into view in (issue 38): wide, narrow, 200% zoom, a phone's 320 px. */
const DRAWER_WINDOWS: readonly { name: string; options: BrowserContextOptions }[] = [
  { name: '1280', options: { viewport: { width: 1280, height: 800 } } },
  { name: '1024', options: { viewport: { width: 1024, height: 768 } } },
  { name: 'zoom-200', options: ZOOM_200 },
  { name: '320', options: { viewport: { width: 320, height: 640 } } },
];

test('a drawer opens where it can be seen at 1280 and 1024 px, 200% zoom and 320 px, and follows j there', async ({
  browser,
}) => {
  for (const theme of ['light', 'dark'] as const) {
    for (const size of DRAWER_WINDOWS) {
      const { context, page } = await openApp(browser, theme, size.options);
      for (const [screen, label, opened] of [
        ['pending-transactions', 'Pending transactions', 'Every field'],
        ['account-applications', 'Account applications', 'Status history'],
      ] as const) {
        await showScreen(page, renderer.url, screen);
        const grid = page.getByRole('grid', { name: label });
        const rows = grid.locator('.vtable-row');
        await expect(rows.nth(1)).toBeAttached({ timeout: 60_000 });
        // From the keyboard, as the README's walkthrough does: j steps onto the first row, Enter
        // opens it. (At 320 px the list's few visible rows sit under its sticky header.)
        await grid.focus({ timeout: 30_000 });
        await page.keyboard.press('j');
        await page.keyboard.press('Enter');
        const drawer = page.getByRole('complementary', { name: 'Details' });
        await expect(drawer).toContainText(opened);
        // Its heading is on screen as it opens: beside the list where there is room, brought
        // into view under it where there is not. No scrolling by the test.
        await expect(drawer.locator('.drawer-header')).toBeInViewport({ ratio: 1 });
        const first = await drawer.locator('.drawer-header').innerText();
        // j moves the cursor; the drawer shows the next item and stays in view.
        await grid.focus({ timeout: 30_000 });
        await page.keyboard.press('j');
        await expect(drawer.locator('.drawer-header')).not.toHaveText(first);
        await expect(drawer.locator('.drawer-header')).toBeInViewport({ ratio: 1 });
        await shoot(page, `desk-drawer-${screen}-${size.name}-${theme}`);
        await page.keyboard.press('Escape');
        await expect(drawer).toBeHidden();
      }
      await context.close();
    }
  }
});
