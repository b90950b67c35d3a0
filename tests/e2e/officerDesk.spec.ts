/**
 * The officer's desk in Debian's Chromium, on the built renderer, the real IPC router and
 * services, and a real sandbox bank (two accounts synced, a webhook's sends synced):
 * - the Overview: review progress, pending volume by day, webhook deliveries, freshness; each
 *   chart has its sentence and a table view; at 1024, 1280 and 1680 px and at 200% zoom, light
 *   and dark, through the accessibility gate;
 * - a one-item disposition from the list footer is announced with the item and where the
 *   keyboard is now, and a saved note likewise;
 * - the note dialog at 200% zoom and at 320 px keeps its buttons in the window;
 * - Theme is one radio group the arrow keys move through;
 * - a toast never stands over the focused control.
 * Screenshots land in test-results/screens/ (looked at by a person).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type BrowserContextOptions, type Page } from '@playwright/test';
import type { Router } from '../../src/main/ipc/routerCore.ts';
import type { RunningServices } from '../../src/main/app/services.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { openHarnessPage, showScreen } from './support/harnessRouter.ts';
import { startHarnessServices } from './support/harnessServices.ts';
import { HARNESS_WEB_CONTENTS_ID, type LedgerdeskPage } from './support/ledgerdeskPage.ts';
import { serveRenderer, type RendererServer } from './support/rendererServer.ts';
import { SCREENS_FOLDER, shoot } from './support/screens.ts';

// Timeouts only stop a hung run; nothing here measures time.
test.describe.configure({ mode: 'serial', timeout: 240_000 });

const ZOOM_200: BrowserContextOptions = { viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 };
const REFLOW_320: BrowserContextOptions = { viewport: { width: 320, height: 256 } };
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

function go(page: Page, screen: string): Promise<void> {
  return showScreen(page, renderer.url, screen);
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

/** The little of the page's globals used below (Node-side files are checked without the DOM library). */
interface PageNode {
  textContent: string | null;
  contains(other: PageNode | null): boolean;
  getBoundingClientRect(): { left: number; top: number; width: number; height: number };
}
interface PageGlobals {
  document: {
    querySelector(selector: string): PageNode | null;
    elementFromPoint(x: number, y: number): PageNode | null;
  };
  MutationObserver: new (callback: () => void) => {
    observe(target: PageNode, options: { childList: boolean; subtree: boolean; characterData: boolean }): void;
  };
  said: string[];
}

/** The polite status region's sentences, as they are said. */
async function listenToAnnouncements(page: Page): Promise<void> {
  await page.evaluate(() => {
    const page_ = globalThis as unknown as PageGlobals;
    const said: string[] = [];
    page_.said = said;
    const region = page_.document.querySelector('[data-announcer]');
    if (region === null) throw new Error('no announcer');
    new page_.MutationObserver(() => {
      const text = region.textContent ?? '';
      if (text !== '') said.push(text);
    }).observe(region, { childList: true, subtree: true, characterData: true });
  });
}

function announcements(page: Page): Promise<string[]> {
  return page.evaluate(() => (globalThis as unknown as PageGlobals).said);
}

test.beforeAll(async () => {
  mkdirSync(SCREENS_FOLDER, { recursive: true });
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-e2e-desk-'));
  renderer = await serveRenderer();
  sandbox = await startSandbox({
    port: 0,
    dataFile: join(folder, 'sandbox.db'),
    retryBaseMs: 40,
    pendingTransactionsPerAccount: 120,
  });
  ({ services, router } = await startHarnessServices({
    folder,
    sandbox,
    rendererUrl: renderer.url,
    send: (channel, payload) => {
      for (const harness of harnesses) harness.send(channel, payload);
    },
  }));
  for (const accountId of sandbox.demo.accounts) await synced({ kind: 'pendingTransactions', accountId });
  const counts = await services.handlers.reviewQueue.counts({ profileId: await profileId() }, context1);
  expect(counts.accountIds).toHaveLength(sandbox.demo.accounts.length);
});

test.afterAll(async () => {
  await services.stop();
  await sandbox.close().catch(() => undefined);
  await renderer.close();
  rmSync(folder, { recursive: true, force: true });
  expect(problems).toEqual([]);
});

test('a one-item disposition from the footer and a saved note are announced, with where the keyboard is now', async ({
  browser,
}) => {
  const { context, page } = await openApp(browser, 'light');
  await go(page, 'pending-transactions');
  const grid = page.getByRole('grid', { name: 'Pending transactions' });
  await grid.locator('.vtable-row').first().click();
  await listenToAnnouncements(page);
  const description = (await grid.locator('.vtable-row').first().innerText()).split('\n');
  await page.locator('.list-footer').getByRole('button', { name: 'Escalate' }).click();
  await expect.poll(() => announcements(page)).toEqual([expect.stringMatching(/^Escalated .+\. Now on .+\.$/)]);
  const [said = ''] = await announcements(page);
  // The item named is the row that was active, by its description.
  expect(description.some((cell) => cell.length > 3 && said.includes(cell.trim()))).toBe(true);
  // The keys are the grid's: the active row there is the one just announced as "now on".
  await grid.focus();
  await page.keyboard.press('n');
  const note = page.getByRole('dialog', { name: 'Note' });
  await expect(note).toBeVisible();
  await note.getByRole('textbox', { name: 'Note' }).fill('Checked with the branch.');
  // The counter is a description, said only near the limit: quiet now.
  await expect(note.locator('[role="status"]')).toHaveText('');
  // The note goes with a disposition: preset to the item's own, chosen for an unreviewed one (issue 38).
  const preset = await note.getByRole('radio', { checked: true }).count();
  if (preset === 0) await note.getByRole('radio', { name: 'Flagged' }).check();
  await note.getByRole('button', { name: /with this note$/ }).click();
  await expect(note).toBeHidden();
  await expect
    .poll(async () => (await announcements(page)).at(-1))
    .toMatch(/^Saved the note; (flagged|cleared|escalated) .+\. (Now on .+|Nothing below needs a person)\.$/);
  await context.close();
});

test('the note dialog keeps its buttons in the window at 200% zoom and at 320 px', async ({ browser }) => {
  for (const [name, options] of [
    ['zoom-200', ZOOM_200],
    ['reflow-320', REFLOW_320],
  ] as const) {
    const { context, page } = await openApp(browser, 'light', options);
    await go(page, 'pending-transactions');
    const grid = page.getByRole('grid', { name: 'Pending transactions' });
    // By keyboard: at 320 px the grid may show no whole row to click.
    await expect(grid.locator('.vtable-row').first()).toBeAttached();
    await grid.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('n');
    const dialog = page.getByRole('dialog', { name: 'Note' });
    await expect(dialog).toBeVisible();
    // An unreviewed row's note waits for its disposition (issue 38): the button is "Save the note" until then.
    const save = dialog.getByRole('button', { name: /(with this note|Save the note)$/ });
    const cancel = dialog.getByRole('button', { name: 'Cancel' });
    const viewport = page.viewportSize() ?? { width: 0, height: 0 };
    for (const button of [save, cancel]) {
      const box = await button.boundingBox();
      expect(box, name).not.toBeNull();
      expect((box?.y ?? 0) + (box?.height ?? 0), `${name}: bottom of the button`).toBeLessThanOrEqual(viewport.height);
      expect((box?.x ?? 0) + (box?.width ?? 0), `${name}: right of the button`).toBeLessThanOrEqual(viewport.width);
      // What is at the button's centre is the button itself (nothing covers it).
      const hit = await button.evaluate((element: unknown) => {
        const node = element as PageNode;
        const rect = node.getBoundingClientRect();
        const { document } = globalThis as unknown as PageGlobals;
        const top = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
        return top !== null && node.contains(top);
      });
      expect(hit, name).toBe(true);
    }
    await shoot(page, `desk-note-dialog-${name}`);
    await cancel.click();
    await context.close();
  }
});

test('Theme is one radio group: one Tab stop, the arrows choose', async ({ browser }) => {
  const { context, page } = await openApp(browser, 'light');
  await go(page, 'settings');
  await page.getByRole('tab', { name: 'Appearance' }).click();
  const group = page.getByRole('group', { name: 'Theme' });
  const light = group.getByRole('radio', { name: 'Light' });
  await light.check();
  await light.focus();
  await page.keyboard.press('ArrowRight');
  await expect(group.getByRole('radio', { name: 'Dark' })).toBeChecked();
  await expect(group.getByRole('radio', { name: 'Dark' })).toBeFocused();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.keyboard.press('Tab');
  await expect(group.getByRole('radio')).toHaveCount(3);
  for (const radio of await group.getByRole('radio').all()) await expect(radio).not.toBeFocused();
  await shoot(page, 'desk-theme-dark');
  await context.close();
});

test('the Overview: progress, volume by day, deliveries, freshness, at every width, light and dark', async ({
  browser,
}) => {
  // Seven windows, each through the axe gate, on a shared machine: a hang guard, not a measure.
  test.setTimeout(900_000);
  const id = await profileId();
  const before = await services.handlers.overview.get({ profileId: id }, context1);
  expect(before.pendingByAccount.map((account) => account.accountId).sort()).toEqual([...sandbox.demo.accounts].sort());
  for (const [width, height] of [
    [1024, 768],
    [1280, 800],
    [1680, 1000],
  ] as const) {
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await openApp(browser, theme, { viewport: { width, height } });
      await go(page, 'overview');
      await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Review progress' })).toBeVisible();
      // An account's volume by day, said in a sentence that leads with its name (issue 38).
      await expect(
        page
          .locator('.overview-figure-summary', {
            hasText: /, \d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}: \d+ credits? of /,
          })
          .first(),
      ).toBeVisible();
      // Charts are drawn (SVG bars), and their sentence is on the page.
      await expect(page.locator('.overview-chart svg').first()).toBeVisible();
      await shoot(page, `desk-overview-${String(width)}-${theme}`);
      await context.close();
    }
  }
  const { context, page } = await openApp(browser, 'light', ZOOM_200);
  await go(page, 'overview');
  await expect(page.getByRole('heading', { name: 'Review progress' })).toBeVisible();
  await shoot(page, 'desk-overview-zoom-200');
  // A chart's table view: the same numbers, by keyboard.
  const toggle = page.getByRole('button', { name: 'Show as a table' }).first();
  await toggle.focus();
  await page.keyboard.press('Enter');
  const table = page.getByRole('table', { name: 'Review progress by kind' });
  await expect(table).toBeVisible();
  const total = before.progress.find((row) => row.kind === 'pending-transaction')?.total ?? 0;
  await expect(table.getByRole('row', { name: /Pending transactions/ })).toContainText(total.toLocaleString('en-US'));
  await shoot(page, 'desk-overview-table-zoom-200');
  await context.close();
});

test('the queue and the report an auditor reads, as the README shows them', async ({ browser }) => {
  const { context, page } = await openApp(browser, 'light');
  await go(page, 'review-queue');
  const part = page.getByRole('combobox', { name: 'Part' });
  await expect(part).not.toHaveValue('');
  await expect(page.getByRole('grid', { name: 'Review queue items' }).locator('.vtable-row').first()).toBeVisible();
  await shoot(page, 'desk-review-queue-1280-light');
  await page.getByRole('button', { name: 'Write the report…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Write the review report' });
  await dialog.getByLabel('HTML').check();
  await dialog.getByRole('button', { name: 'Save HTML…' }).click();
  const toast = page.locator('.toast', { hasText: /\.html/ });
  await expect(toast).toBeVisible({ timeout: 60_000 });
  const path = (await toast.innerText()).match(/\S+\.html/)?.[0] ?? '';
  const html = readFileSync(path, 'utf8');
  // The escalation and the note given in the first test are in it, in the reader's columns.
  expect(html).toContain('Checked with the branch.');
  const reader = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await reader.setContent(html);
  await expect(reader.getByRole('heading', { name: /Summary/ })).toBeVisible();
  await reader.screenshot({ path: join(SCREENS_FOLDER, 'desk-report-html.png') });
  await reader.close();
  await context.close();
});

/** The grid's column headers as drawn, and whether each ends inside the grid's own box. */
async function drawnColumns(page: Page, grid: string): Promise<{ name: string; inside: boolean }[]> {
  const table = page.getByRole('grid', { name: grid });
  const box = await table.boundingBox();
  if (box === null) throw new Error(`the grid ${grid} is not drawn`);
  const headers = table.getByRole('columnheader');
  const drawn: { name: string; inside: boolean }[] = [];
  for (const header of await headers.all()) {
    const own = await header.boundingBox();
    drawn.push({
      name: (await header.innerText()).trim(),
      inside: own !== null && own.x + own.width <= box.x + box.width + 1,
    });
  }
  return drawn;
}

test('lists keep their identifying column, amount or status and review at 1024 px, and at 1280 px with the drawer open', async ({
  browser,
}) => {
  test.setTimeout(900_000);
  const lists = [
    {
      screen: 'pending-transactions',
      grid: 'Pending transactions',
      kept: ['Date · local time', 'Description', 'Amount', 'Review'],
    },
    { screen: 'review-queue', grid: 'Review queue items', kept: ['Review', 'Date · local time', 'Amount', 'Item'] },
  ];
  for (const [width, height, drawer] of [
    [1024, 768, false],
    [1280, 800, true],
  ] as const) {
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await openApp(browser, theme, { viewport: { width, height } });
      for (const list of lists) {
        await go(page, list.screen);
        const grid = page.getByRole('grid', { name: list.grid });
        await expect(grid.locator('.vtable-row').first()).toBeVisible();
        if (drawer) {
          await grid.locator('.vtable-row').first().click();
          await expect(page.getByRole('complementary', { name: 'Details' })).toBeVisible();
        }
        // Each row is named by its row header.
        await expect(grid.getByRole('rowheader').first()).toBeVisible();
        await expect(async () => {
          const drawn = await drawnColumns(page, list.grid);
          for (const name of list.kept) {
            expect(
              drawn.find((column) => column.name === name),
              `${list.grid} ${name}`,
            ).toEqual({ name, inside: true });
          }
          // Nothing drawn past the grid's edge: what does not fit has left, and says so.
          expect(drawn.filter((column) => !column.inside)).toEqual([]);
        }).toPass({ timeout: 20_000 });
        await shoot(page, `desk-columns-${list.screen}-${String(width)}${drawer ? '-drawer' : ''}-${theme}`);
      }
      await context.close();
    }
  }
});

test('at 320 px the top bar keeps every control in the window and the lists show rows', async ({ browser }) => {
  test.setTimeout(600_000);
  for (const theme of ['light', 'dark'] as const) {
    const { context, page } = await openApp(browser, theme, REFLOW_320);
    await go(page, 'pending-transactions');
    for (const control of [
      page.getByRole('button', { name: /Switch to (light|dark) theme/ }),
      page.getByRole('button', { name: /Go to…/ }),
      page.getByRole('combobox', { name: 'Profile' }),
    ]) {
      const box = await control.boundingBox();
      expect(box, 'drawn').not.toBeNull();
      if (box !== null) expect(box.x + box.width).toBeLessThanOrEqual(321);
    }
    // The grid has room for rows: its first row is drawn inside the grid's own box.
    const grid = page.getByRole('grid', { name: 'Pending transactions' });
    const row = grid.locator('.vtable-row').first();
    await row.scrollIntoViewIfNeeded();
    await expect(row).toBeVisible();
    await page.screenshot({ path: join(SCREENS_FOLDER, `desk-reflow-320-pending-row-${theme}.png`) });
    const [gridBox, rowBox] = [await grid.boundingBox(), await row.boundingBox()];
    expect(gridBox !== null && rowBox !== null && rowBox.y + rowBox.height <= gridBox.y + gridBox.height + 1).toBe(
      true,
    );
    await shoot(page, `desk-reflow-320-pending-${theme}`);
    await context.close();
  }
});
