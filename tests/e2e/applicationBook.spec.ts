/**
 * The application book end to end (issue 24), in Debian's Chromium: the built renderer,
 * `window.ledgerdesk` carried to the real IPC router, the real services and cache, and a real
 * sandbox bank as the app's own local sandbox profile (the profile a newcomer starts on). From an
 * empty cache the officer syncs the whole book, finds an application by an applicant's name,
 * reveals a masked field and sees the reveal in the audit log, and reviews an application with
 * the keyboard alone. Pictures at 1280 and 1024 px, light and dark, each through the axe gate
 * (test-results/screens/book-*.png, looked at by a person).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import type { Router } from '../../src/main/ipc/routerCore.ts';
import type { RunningServices } from '../../src/main/app/services.ts';
import { EMBEDDED_SANDBOX_PROFILE_ID } from '../../src/main/services/profiles/profile.ts';
import { startSandbox, type RunningSandbox } from '../../src/sandbox/index.ts';
import { openHarnessPage, showScreen } from './support/harnessRouter.ts';
import { holdsFocus } from './support/pageProbes.ts';
import { startHarnessServices } from './support/harnessServices.ts';
import { HARNESS_WEB_CONTENTS_ID, type LedgerdeskPage } from './support/ledgerdeskPage.ts';
import { serveRenderer, type RendererServer } from './support/rendererServer.ts';
import { SCREENS_FOLDER, shoot } from './support/screens.ts';
import { applicationRow } from './support/applicationRows.ts';

// Timeouts only stop a hung run; nothing here measures time.
test.describe.configure({ mode: 'serial', timeout: 300_000 });

const WIDTHS = [1280, 1024] as const;
const THEMES = ['light', 'dark'] as const;
const GRID = 'Account applications';

let folder: string;
let sandbox: RunningSandbox;
let services: RunningServices;
let renderer: RendererServer;
let router: Router;
const harnesses: LedgerdeskPage[] = [];
const problems: string[] = [];
const context1 = { webContentsId: HARNESS_WEB_CONTENTS_ID, channel: 'tests' };

/** The person the walk looks for, chosen from the bank after the sync: full name and id. */
let person: { name: string; id: string; applicationId: string; named: number } | null = null;

function openApp(browser: Browser, theme: 'light' | 'dark', width = 1280) {
  return openHarnessPage(
    browser,
    theme,
    { router, rendererUrl: renderer.url, record: { harnesses, problems } },
    { viewport: { width, height: 800 } },
  );
}

function grid(page: Page) {
  return page.getByRole('grid', { name: GRID });
}

async function activeRow(page: Page): Promise<number> {
  const id = await grid(page).getAttribute('aria-activedescendant');
  return Number(/vtable-row-(\d+)/.exec(id ?? '')?.[1] ?? -1);
}

/** How many applications the bank lists (the sandbox's own answer, walked by cursor). */
async function applicationsAtTheBank(): Promise<number> {
  const authorization = `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64')}`;
  let count = 0;
  let cursor: string | null = null;
  for (let page = 0; page < 100; page += 1) {
    const query: string = cursor === null ? '' : `&page_cursor=${encodeURIComponent(cursor)}`;
    const answer = await fetch(`${sandbox.baseUrl}/apply/account_application?page_size=100${query}`, {
      headers: { authorization },
    });
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { data: unknown[]; page_next?: string | null };
    count += body.data.length;
    cursor = body.page_next ?? null;
    if (cursor === null) return count;
  }
  throw new Error('the bank listed more than 100 pages of applications');
}

test.beforeAll(async () => {
  mkdirSync(SCREENS_FOLDER, { recursive: true });
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-e2e-book-'));
  renderer = await serveRenderer();
  sandbox = await startSandbox({ port: 0, dataFile: join(folder, 'sandbox.db'), retryBaseMs: 40 });
  // The sandbox as the app's embedded one: the services start on its profile, as the app does.
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

test('syncs the whole book from an empty cache, finds an application by an applicant’s name', async ({ browser }) => {
  const { activeProfileId } = await services.handlers.profiles.list({}, context1);
  expect(activeProfileId).toBe(EMBEDDED_SANDBOX_PROFILE_ID);
  const { context, page } = await openApp(browser, 'light');
  await showScreen(page, renderer.url, 'account-applications');
  await expect(page.getByText('No account applications cached')).toBeVisible();

  const total = await applicationsAtTheBank();
  expect(total).toBeGreaterThan(1);
  await page.getByRole('button', { name: 'Sync the book' }).click();
  await expect(page.locator('.list-footer')).toContainText(`${String(total)} rows`, { timeout: 120_000 });
  // The job ends (the button is given back), and every applicant named is in the cache.
  await expect(page.getByRole('button', { name: 'Sync the book' })).toBeEnabled({ timeout: 120_000 });
  const people = await services.handlers.applicants.list(
    { profileId: EMBEDDED_SANDBOX_PROFILE_ID, kind: 'person', limit: 500 },
    context1,
  );
  const named = people.rows.find(
    (row) => row.state === 'received' && typeof row.record?.['last_name'] === 'string' && row.applications.length > 0,
  );
  if (named === undefined) throw new Error('the sync kept no person named by an application');
  const record = named.record ?? {};
  person = {
    name: `${String(record['first_name'])} ${String(record['last_name'])}`,
    id: named.applicantId,
    applicationId: named.applications[0]?.applicationId ?? '',
    named: named.applications.length,
  };
  await shoot(page, 'book-synced-light-1280');

  await page.getByRole('searchbox', { name: 'Search applications' }).fill(person.name);
  // The search applies once typing pauses: the list narrows to the applications naming them.
  const rows = grid(page).locator('.vtable-row:not(.is-placeholder)');
  await expect.poll(() => rows.count()).toBeLessThan(total);
  await expect(applicationRow(grid(page), person.applicationId)).toBeVisible();
  expect(await rows.count()).toBe(person.named);
  await shoot(page, 'book-found-light-1280');
  await context.close();
});

test('reveals a masked field, and the reveal is in the audit log', async ({ browser }) => {
  if (person === null) throw new Error('the sync test found no person');
  const { context, page } = await openApp(browser, 'light');
  await showScreen(page, renderer.url, 'account-applications');
  await page.getByRole('searchbox', { name: 'Search applications' }).fill(person.name);
  await applicationRow(grid(page), person.applicationId).click();
  const drawer = page.getByRole('complementary', { name: 'Details' });
  const card = drawer.getByRole('article', { name: `Person ${person.name}` });
  await expect(card).toBeVisible();
  const birth = card.locator('[data-field="date_of_birth"]');
  await expect(birth).toContainText('••••');
  await card.getByRole('button', { name: `Reveal date of birth of ${person.name}` }).click();
  await expect(card.locator('.applicant-revealed[data-field="date_of_birth"]')).toContainText(/\d{4}-\d{2}-\d{2}/);
  await expect(drawer.getByRole('status').filter({ hasText: 'the reveal is in the audit log' })).toHaveCount(1);
  await shoot(page, 'book-revealed-light-1280');

  // Closing the drawer forgets the value: opened again, the field is masked.
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await applicationRow(grid(page), person.applicationId).click();
  await expect(
    drawer.getByRole('article', { name: `Person ${person.name}` }).locator('[data-field="date_of_birth"]'),
  ).toContainText('••••');
  await page.keyboard.press('Escape');

  await showScreen(page, renderer.url, 'settings');
  await page.getByRole('tab', { name: 'Audit log' }).click();
  const audit = page.getByRole('grid', { name: 'Audit log' });
  const entry = audit.locator('.vtable-row', { hasText: 'applicant.reveal' }).first();
  await expect(entry).toContainText(`applicant:${person.id}`);
  await expect(entry).toContainText('revealed date_of_birth');
  await shoot(page, 'book-audit-reveal-light-1280');
  await context.close();
});

test('reviews an application with the keyboard alone', async ({ browser }) => {
  if (person === null) throw new Error('the sync test found no person');
  const { context, page } = await openApp(browser, 'light');
  await showScreen(page, renderer.url, 'account-applications');
  // "/" reaches the search; Escape hands the keyboard to the list.
  await page.keyboard.press('/');
  await expect(page.getByRole('searchbox', { name: 'Search applications' })).toBeFocused();
  await page.keyboard.type(person.name);
  // As a person would: the narrowed list is on screen before the keyboard goes to it.
  await expect.poll(() => grid(page).locator('.vtable-row:not(.is-placeholder)').count()).toBe(person.named);
  await expect(applicationRow(grid(page), person.applicationId)).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(grid(page)).toBeFocused();
  await page.keyboard.press('j');
  await expect.poll(() => activeRow(page)).toBe(0);
  const first = grid(page).locator('#vtable-row-0');
  // The row leads with who applied; its id is in the applicant cell's tooltip (names first, issue 38).
  const firstId = ((await first.locator('[title^="Application "]').first().getAttribute('title')) ?? '').replace(
    /^Application /,
    '',
  );

  // Enter opens it; the keyboard stays on the list; f flags it.
  await page.keyboard.press('Enter');
  const drawer = page.getByRole('complementary', { name: 'Details' });
  await expect(drawer.getByText('No one has reviewed this item')).toBeVisible();
  await page.keyboard.press('f');
  await expect(first).toContainText('flagged');
  // n: a note kept with Ctrl+Enter.
  await page.keyboard.press('k');
  await expect.poll(() => activeRow(page)).toBe(0);
  await page.keyboard.press('n');
  const note = page.getByRole('dialog', { name: 'Note' });
  await expect(note.getByLabel('Note')).toBeFocused();
  await page.keyboard.type('Address differs from the ID; asked for a utility bill.');
  await page.keyboard.press('Control+Enter');
  await expect(note).toBeHidden();
  await expect(first.getByLabel('with a note')).toBeVisible();

  // Tab reaches a Reveal in the drawer; Enter reveals; Escape closes and focus is back on the list.
  await page.keyboard.press('Enter');
  await expect(drawer).toContainText('Address differs from the ID');
  const reveal = drawer.getByRole('button', { name: /^Reveal email of / }).first();
  for (let step = 0; step < 60 && !(await reveal.evaluate(holdsFocus)); step += 1) {
    await page.keyboard.press('Tab');
  }
  await expect(reveal).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(drawer.locator('.applicant-revealed[data-field="email_address"]').first()).toContainText('@');
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();
  await expect(grid(page)).toBeFocused();

  const review = await services.handlers.reviews.detail(
    { profileId: EMBEDDED_SANDBOX_PROFILE_ID, kind: 'application', ref: firstId },
    context1,
  );
  expect(review.review?.disposition).toBe('flagged');
  expect(review.review?.note).toBe('Address differs from the ID; asked for a utility bill.');
  await context.close();
});

for (const theme of THEMES) {
  for (const width of WIDTHS) {
    test(`the book and an applicant at ${String(width)} px (${theme})`, async ({ browser }) => {
      if (person === null) throw new Error('the sync test found no person');
      const { context, page } = await openApp(browser, theme, width);
      await showScreen(page, renderer.url, 'account-applications');
      await expect(grid(page).locator('.vtable-row:not(.is-placeholder)').first()).toBeVisible();
      await shoot(page, `book-list-${theme}-${String(width)}`);
      await page.getByRole('searchbox', { name: 'Search applications' }).fill(person.name);
      await applicationRow(grid(page), person.applicationId).click();
      const drawer = page.getByRole('complementary', { name: 'Details' });
      await expect(drawer.getByRole('article', { name: `Person ${person.name}` })).toBeVisible();
      await drawer.getByRole('heading', { name: 'Applicants' }).scrollIntoViewIfNeeded();
      await shoot(page, `book-applicant-${theme}-${String(width)}`);
      await drawer.getByRole('button', { name: 'Full width' }).click();
      await expect(drawer.getByRole('button', { name: 'Narrow' })).toBeVisible();
      await shoot(page, `book-applicant-wide-${theme}-${String(width)}`);
      await context.close();
    });
  }
}
