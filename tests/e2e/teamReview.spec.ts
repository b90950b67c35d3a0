/**
 * Team review in two officers' windows, in Debian's Chromium against one throwaway PostgreSQL
 * cluster (the same scripts/postgres/throwawayCluster.ts the `team` vitest project starts):
 * each officer has their own data folder, cache file and keychain behind the real IPC router.
 * Alice (the lead) ran `team init` on her laptop, which joined it; Bob joins from his invite file
 * in Settings › Team; each sees the other as a new member to acknowledge after comparing
 * fingerprints; Alice escalates an application and proposes closing it (four-eyes: it waits for
 * a second officer); her own Approve is refused by the server and comes back as a conflict; Bob
 * approves it from "Awaiting my approval"; Alice's window then shows who proposed, who approved
 * and when.
 * Screenshots of Settings › Team and the team queues, light and dark, through the axe gate.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { expect, test, type Browser, type Page } from '@playwright/test';
import pg from 'pg';
import { adminUrl, startThrowawayCluster, type RunningCluster } from '../../scripts/postgres/throwawayCluster.ts';
import type { Router } from '../../src/main/ipc/routerCore.ts';
import { InMemorySecretStore } from '../../src/main/services/credentials/secretStore.ts';
import { teamInit, type TeamInitReport } from '../../src/main/services/team/teamInit.ts';
import type { RunningServices } from '../../src/main/app/services.ts';
import { openHarnessPage, showScreen } from './support/harnessRouter.ts';
import { hiddenControls, lostContent } from './support/pageProbes.ts';
import { startHarnessServices } from './support/harnessServices.ts';
import type { LedgerdeskPage } from './support/ledgerdeskPage.ts';
import { serveRenderer, type RendererServer } from './support/rendererServer.ts';
import { shoot } from './support/screens.ts';

// Timeouts only stop a hung run (a cluster to start, two windows, a busy machine); nothing here measures time.
test.describe.configure({ mode: 'serial', timeout: 300_000 });

const REF = 'app_e2e_team_1';

interface Officer {
  login: string;
  folder: string;
  services: RunningServices;
  router: Router;
  harnesses: LedgerdeskPage[];
  secretStore: InMemorySecretStore;
  /** Bob's invite file (alice's laptop was joined by team init). */
  invite: string;
}

let cluster: RunningCluster;
let renderer: RendererServer;
let report: TeamInitReport;
const officers: Officer[] = [];
const problems: string[] = [];

test.beforeAll(async () => {
  cluster = await startThrowawayCluster();
  const admin = new pg.Client({ connectionString: adminUrl(cluster), ssl: { ca: cluster.caPem } });
  await admin.connect();
  await admin.query('CREATE DATABASE ledgerdesk_team_e2e');
  await admin.end();
  const outFolder = mkdtempSync(join(tmpdir(), 'ledgerdesk-e2e-invites-'));
  renderer = await serveRenderer();
  for (const login of ['alice', 'bob']) {
    const folder = mkdtempSync(join(tmpdir(), `ledgerdesk-e2e-team-${login}-`));
    const harnesses: LedgerdeskPage[] = [];
    // Each officer's own keychain: their signing keys and login password live only there.
    const secretStore = new InMemorySecretStore();
    const { services, router } = await startHarnessServices({
      folder,
      sandbox: null,
      secretStore,
      rendererUrl: renderer.url,
      send: (channel, payload) => {
        for (const harness of harnesses) harness.send(channel, payload);
      },
    });
    officers.push({ login, folder, services, router, harnesses, secretStore, invite: '' });
  }
  // Alice runs `team init` on her laptop (its cache file, its keychain): it joins as the lead.
  const alice = officer('alice');
  const cacheFile = new DatabaseSync(join(alice.folder, 'cache.db'));
  try {
    report = await teamInit({
      adminUrl: adminUrl(cluster, 'ledgerdesk_team_e2e'),
      caPem: cluster.caPem,
      workspace: 'e2e-compliance',
      officers: ['alice', 'bob'],
      outFolder,
      laptop: { dataFolder: alice.folder, secretStore: alice.secretStore, database: cacheFile },
    });
  } finally {
    cacheFile.close();
  }
  officer('bob').invite = report.invites.find((entry) => entry.login === 'bob')?.file ?? '';
});

test.afterAll(async () => {
  for (const officer of officers) {
    await officer.services.stop();
    rmSync(officer.folder, { recursive: true, force: true });
  }
  await renderer.close();
  await cluster.stop();
  expect(problems).toEqual([]);
});

function officer(login: string): Officer {
  const found = officers.find((entry) => entry.login === login);
  if (found === undefined) throw new Error(`no officer ${login}`);
  return found;
}

async function windowOf(browser: Browser, login: string, theme: 'light' | 'dark') {
  const { router, harnesses } = officer(login);
  return openHarnessPage(browser, theme, { router, rendererUrl: renderer.url, record: { harnesses, problems } });
}

async function openQueue(page: Page, queue: RegExp): Promise<void> {
  await showScreen(page, renderer.url, 'team-review');
  await page.getByRole('button', { name: 'Push and pull' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Everything is pushed' })).toBeVisible();
  await page.getByRole('tab', { name: queue }).click();
}

test('a laptop that has not joined says how to join: light, dark, 1024 px and 200% zoom', async ({ browser }) => {
  const { router, harnesses } = officer('bob');
  for (const [name, theme, options] of [
    ['light', 'light', {}],
    ['dark', 'dark', {}],
    ['1024-dark', 'dark', { viewport: { width: 1024, height: 768 } }],
    ['zoom200-light', 'light', { viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 }],
    ['zoom200-dark', 'dark', { viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 }],
  ] as const) {
    const { context, page } = await openHarnessPage(
      browser,
      theme,
      { router, rendererUrl: renderer.url, record: { harnesses, problems } },
      options,
    );
    await showScreen(page, renderer.url, 'team-review');
    await expect(page.getByText('This laptop works alone')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Join a team in Settings' })).toBeVisible();
    expect(await page.evaluate(lostContent), name).toEqual([]);
    expect(await page.evaluate(hiddenControls, null), name).toEqual([]);
    await shoot(page, `team-not-joined-${name}`);
    await context.close();
  }
});

test('bob joins from his invite file; each acknowledges the other after comparing fingerprints', async ({
  browser,
}) => {
  {
    const login = 'bob';
    const { context, page } = await windowOf(browser, login, 'light');
    await showScreen(page, renderer.url, 'team-review');
    await expect(page.getByText('This laptop works alone')).toBeVisible();
    await page.getByRole('button', { name: 'Join a team in Settings' }).click();
    await expect(page.getByRole('tab', { name: 'Team' })).toHaveAttribute('aria-selected', 'true');
    // An empty path and a file that is not there are refused beside the field; nothing is joined.
    await page.getByRole('button', { name: 'Join' }).click();
    await expect(page.getByText('Enter the path of the invite file')).toBeVisible();
    await page.getByLabel('Invite file').fill(join(officer(login).folder, 'no-such.invite'));
    await page.getByRole('button', { name: 'Join' }).click();
    await expect(page.locator('.field-error')).toBeVisible();
    await page.getByLabel('Invite file').fill(officer(login).invite);
    await page.getByRole('button', { name: 'Join' }).click();
    const members = page.getByRole('table', { name: 'Members' });
    await expect(members).toContainText(login);
    await expect(page.locator('.panel', { hasText: 'Signed in as' })).toContainText('e2e-compliance');
    // Both officers have joined: both signing keys' fingerprints are listed.
    await expect(members.locator('.team-fingerprint')).toHaveCount(2);
    // Alice is new to bob's laptop: a notice to compare her fingerprint, then acknowledge.
    const notice = page.getByRole('article', { name: 'New member: alice (lead)' });
    await expect(notice).toContainText(report.lead.signingKey);
    const acknowledge = notice.getByRole('button', { name: 'Acknowledge alice' });
    await expect(acknowledge).toHaveAttribute('aria-disabled', 'true');
    await shoot(page, 'settings-team-new-member-light');
    await notice.getByRole('checkbox', { name: /^The fingerprint alice read me is the one above/ }).check();
    await acknowledge.click();
    await expect(notice).toBeHidden();
    await expect(members.getByRole('row', { name: /^alice \(alice\)/ })).toContainText('acknowledged');
    // Bob is no lead: he reads the four-eyes policy, he cannot change it.
    const policy = page.locator('.panel', { hasText: 'Four-eyes policy' });
    await expect(policy).toContainText('Closing an escalation');
    await expect(policy.getByRole('checkbox')).toHaveCount(0);
    await shoot(page, 'settings-team-light');
    await context.close();
  }
  const { context, page } = await windowOf(browser, 'alice', 'dark');
  await showScreen(page, renderer.url, 'settings');
  await page.getByRole('tab', { name: 'Team' }).click();
  await expect(page.getByRole('table', { name: 'Members' }).locator('.team-fingerprint')).toHaveCount(2);
  const notice = page.getByRole('article', { name: 'New member: bob (officer, invited by alice)' });
  await expect(notice).toBeVisible();
  await shoot(page, 'settings-team-new-member-dark');
  await notice.getByRole('checkbox', { name: /^The fingerprint bob read me is the one above/ }).check();
  await notice.getByRole('button', { name: 'Acknowledge bob' }).click();
  await expect(notice).toBeHidden();
  // Alice is the lead: she adds a move to the four-eyes policy (stricter: in force at once).
  const policy = page.locator('.panel', { hasText: 'Four-eyes policy' });
  await expect(policy.getByLabel('Closing an escalation')).toBeChecked();
  await policy.getByLabel('Clearing an item nobody has reviewed').check();
  await policy.getByRole('button', { name: 'Save policy' }).click();
  await expect(page.getByText('Four-eyes policy changed')).toBeVisible();
  // The genesis, bob's join, the two confirmations and the policy change: verified up to it.
  await expect(page.locator('.panel', { hasText: 'Signed in as' })).toContainText('up to event #5');
  await expect(policy.getByRole('button', { name: 'Save policy' })).toHaveAttribute('aria-disabled', 'true');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Events' })).toContainText('verified');
  await shoot(page, 'settings-team-dark');
  await context.close();
});

test('alice escalates an application and proposes closing it: it waits for a second officer', async ({ browser }) => {
  const { context, page } = await windowOf(browser, 'alice', 'light');
  await showScreen(page, renderer.url, 'team-review');
  await page.getByRole('button', { name: 'Propose on an item' }).click();
  const dialog = page.getByRole('dialog', { name: 'Propose on an item' });
  await dialog.getByLabel('Kind').selectOption('application');
  await dialog.getByLabel('Reference').fill(REF);
  await dialog.getByLabel('Disposition').selectOption('escalated');
  await dialog.getByRole('button', { name: 'Propose' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('tab', { name: /Unassigned/ }).click();
  const unassigned = page.getByRole('table', { name: 'Unassigned' });
  await expect(unassigned).toContainText(REF);
  await expect(unassigned).toContainText('escalated by alice');

  await unassigned.getByRole('button', { name: `Propose on Account application ${REF}` }).click();
  const second = page.getByRole('dialog', { name: 'Propose a disposition' });
  await second.getByLabel('Disposition').selectOption('closed');
  await second.getByLabel('Note').fill('the bank confirmed the applicant');
  await second.getByRole('button', { name: 'Propose' }).click();
  await expect(second).toBeHidden();
  await expect(unassigned).toContainText('proposed');
  await expect(unassigned).toContainText('closed by alice');
  await context.close();
});

test('bob approves it from "Awaiting my approval" (light and dark)', async ({ browser }) => {
  const dark = await windowOf(browser, 'bob', 'dark');
  await openQueue(dark.page, /Awaiting my approval \(1\)/);
  const awaiting = dark.page.getByRole('table', { name: 'Awaiting my approval' });
  await expect(awaiting).toContainText(REF);
  await expect(awaiting).toContainText('closed by alice');
  await shoot(dark.page, 'team-queues-awaiting-dark');
  await dark.context.close();

  // At 1024 px and at 200% zoom nothing is cut off and every control can be reached.
  for (const [size, options] of [
    ['1024', { viewport: { width: 1024, height: 768 } }],
    ['zoom200', { viewport: { width: 640, height: 400 }, deviceScaleFactor: 2 }],
  ] as const) {
    const { router, harnesses } = officer('bob');
    const sized = await openHarnessPage(
      browser,
      'light',
      { router, rendererUrl: renderer.url, record: { harnesses, problems } },
      options,
    );
    await openQueue(sized.page, /Awaiting my approval \(1\)/);
    // The sync's toast covers the corner for a few seconds by design; probe the screen under it.
    await expect(sized.page.locator('.toast')).toHaveCount(0);
    expect(await sized.page.evaluate(lostContent), size).toEqual([]);
    expect(await sized.page.evaluate(hiddenControls, null), size).toEqual([]);
    await shoot(sized.page, `team-queues-awaiting-${size}-light`);
    await sized.context.close();
  }

  const { context, page } = await windowOf(browser, 'bob', 'light');
  await openQueue(page, /Awaiting my approval \(1\)/);
  await shoot(page, 'team-queues-awaiting-light');
  await page.getByRole('button', { name: `Approve closed on Account application ${REF}` }).click();
  await expect(page.getByRole('tab', { name: /Awaiting my approval \(0\)/ })).toBeVisible();
  await context.close();
});

test('alice sees who proposed, who approved and when, and the history with her note', async ({ browser }) => {
  for (const theme of ['light', 'dark'] as const) {
    const { context, page } = await windowOf(browser, 'alice', theme);
    await openQueue(page, /Recently decided \(1\)/);
    const decided = page.getByRole('table', { name: 'Recently decided' });
    await expect(decided).toContainText(REF);
    await expect(decided).toContainText('closed by alice');
    await expect(decided).toContainText('by bob');
    await shoot(page, `team-queues-decided-${theme}`);
    await decided.getByRole('button', { name: `History of Account application ${REF}` }).click();
    const history = page.getByRole('dialog', { name: `History of Account application ${REF}` });
    const events = history.getByRole('list', { name: 'Events, oldest first' }).getByRole('listitem');
    await expect(events).toHaveCount(3);
    await expect(events.nth(0)).toContainText('alice proposed escalated');
    await expect(events.nth(1)).toContainText('alice proposed closed');
    await expect(events.nth(1)).toContainText('the bank confirmed the applicant');
    await expect(events.nth(2)).toContainText('bob approved');
    await shoot(page, `team-history-${theme}`);
    await history.getByRole('button', { name: 'Close' }).click();
    // Focus goes back to the button that opened the dialog.
    await expect(decided.getByRole('button', { name: `History of Account application ${REF}` })).toBeFocused();
    await context.close();
  }
});

test("a self-approval sent anyway is refused by the server and lands in alice's Conflicts", async ({ browser }) => {
  // The window offers Approve only to other officers; the server refuses it even when sent.
  const { context, page } = await windowOf(browser, 'alice', 'light');
  await showScreen(page, renderer.url, 'team-review');
  await page.getByRole('button', { name: 'Propose on an item' }).click();
  const dialog = page.getByRole('dialog', { name: 'Propose on an item' });
  await dialog.getByLabel('Reference').fill(`${REF}_2`);
  await dialog.getByLabel('Disposition').selectOption('flagged');
  await dialog.getByRole('button', { name: 'Propose' }).click();
  await expect(dialog).toBeHidden();
  const outcome = await page.evaluate(
    async (ref) =>
      (
        globalThis as unknown as {
          ledgerdesk: { team: { act: (input: unknown) => Promise<{ state: string; detail: string | null }> } };
        }
      ).ledgerdesk.team.act({ kind: 'application', ref, action: 'propose', disposition: 'cleared' }),
    `${REF}_2`,
  );
  expect(outcome.state).toBe('ok');
  const self = await page.evaluate(
    async (ref) =>
      (
        globalThis as unknown as {
          ledgerdesk: { team: { act: (input: unknown) => Promise<{ state: string; detail: string | null }> } };
        }
      ).ledgerdesk.team.act({ kind: 'application', ref, action: 'approve' }),
    `${REF}_2`,
  );
  expect(self).toMatchObject({
    state: 'refused',
    detail: 'four-eyes: the officer who proposed a disposition cannot approve it',
  });
  await openQueue(page, /Conflicts \(1\)/);
  const conflicts = page.getByRole('table', { name: 'Conflicts' });
  await expect(conflicts).toContainText('four-eyes: the officer who proposed a disposition cannot approve it');
  await shoot(page, 'team-queues-conflicts-light');
  await conflicts.getByRole('button', { name: /Dismiss the refused/ }).click();
  await expect(page.getByRole('tab', { name: /Conflicts \(0\)/ })).toBeVisible();
  await context.close();
});
