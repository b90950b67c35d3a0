/**
 * Listener → Trigger and Events end to end, in Debian's Chromium on the real IPC router, the
 * real services, the real listener and a real sandbox bank: register the listener, trigger
 * an event from the panel and watch its notification arrive verified; run a shipped scenario
 * and watch each step's outcome appear; browse the events catalog and jump to the trigger;
 * on a remote profile the trigger asks first (and sends nothing when told no), on a
 * production one it is refused. Screenshots (light and dark) go to test-results/screens/.
 */
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { HARNESS_WEB_CONTENTS_ID } from './support/ledgerdeskPage.ts';
import { register, shootWithoutToasts, startListenerApp, type ListenerApp } from './support/listenerApp.ts';
import { shoot } from './support/screens.ts';
import { EVENT_CATALOG } from '../../src/shared/eventCatalog/eventCatalog.ts';

// Timeouts only stop a hung run; nothing here measures time.
test.describe.configure({ mode: 'serial', timeout: 180_000 });

let app: ListenerApp;
let sandbox: ListenerApp['sandbox'];
let services: ListenerApp['services'];
let problems: string[];

function openListener(browser: Browser, theme: 'light' | 'dark'): Promise<{ context: BrowserContext; page: Page }> {
  return app.open(browser, theme);
}

test.beforeAll(async () => {
  app = await startListenerApp('trigger');
  ({ sandbox, services, problems } = app);
});

test.afterAll(async () => {
  await app.close();
});

test('triggers an event from the Listener screen and watches its notification arrive', async ({ browser }) => {
  const { context, page } = await openListener(browser, 'light');
  await page.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByText('listening')).toBeVisible();
  await register(page, ['ach.update', 'ach.create', 'account_application.update']);

  await page.getByRole('tab', { name: 'Trigger' }).click();
  const form = page.getByRole('form', { name: 'Trigger an event' });
  await form.getByRole('combobox', { name: 'Event' }).selectOption('ach.update');
  await form.getByRole('combobox', { name: 'Move to' }).selectOption('sent');
  // Keyboard: the form submits with Enter from a field, like any form.
  await form.getByRole('textbox', { name: 'Account' }).fill(sandbox.demo.accounts[1] ?? '');
  await form.getByRole('textbox', { name: 'Account' }).press('Enter');
  const caused = page.getByRole('list', { name: 'Events caused' });
  await expect(caused.getByRole('listitem')).toHaveCount(4);
  await expect(caused).toContainText('ach.create');
  // The block under the heading "The object now" is a named region only while it scrolls (ScrollBlock).
  const objectNow = page.locator('pre.trigger-object');
  await expect(page.getByRole('heading', { name: 'The object now' })).toBeVisible();
  await expect(objectNow).toContainText('"status": "sent"');
  const achId = (await objectNow.textContent())?.match(/"id": "(ach_\w+)"/)?.[1] ?? '';
  expect(achId).toMatch(/^ach_/);
  // Each event caused says whether it reached the listener: ach.create and both ach.update did
  // (registered above); account.update is subscribed by nobody, and says so with what to do.
  await expect(caused.locator('[data-reach="reached"]')).toHaveCount(3, { timeout: 30_000 });
  await expect(caused.locator('[data-reach="reached"]').first()).toContainText('reached, verified');
  await expect(caused.locator('[data-reach="no_webhook"]')).toContainText(
    'no webhook subscribed Register with bank (above) for account.update.',
  );
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: new RegExp(`ach\\.update ${achId} reached, verified\\.`) })
      .first(),
  ).toBeAttached();
  await shootWithoutToasts(page, 'listener-trigger-result-light');

  // The notifications arrive at the listener, verified.
  await page.getByRole('tab', { name: /^Requests/ }).click();
  const requests = page.getByRole('grid', { name: 'Requests' });
  await expect(requests.locator('.vtable-row', { hasText: achId })).toHaveCount(3, { timeout: 30_000 });
  await expect(requests.locator('.vtable-row', { hasText: 'ach.update' }).first()).toContainText('ok');
  // Each arrival says retry or new event (issue 27), and when, to the millisecond.
  await expect(requests.locator('.vtable-row', { hasText: achId }).first()).toContainText('new event');
  await expect(requests.locator('.vtable-row', { hasText: achId }).first()).toContainText(/\d{2}:\d{2}:\d{2}\.\d{3}/);
  await shootWithoutToasts(page, 'listener-trigger-arrived-light');

  // A bad id is refused beside its field, nothing sent.
  await page.getByRole('tab', { name: 'Trigger' }).click();
  await form.getByRole('combobox', { name: 'Event' }).selectOption('ach.create');
  await form.getByRole('textbox', { name: 'Account' }).fill('nope');
  await form.getByRole('button', { name: 'Trigger' }).click();
  await expect(form.getByText('must be an id starting with acct_')).toBeVisible();
  await form.getByRole('textbox', { name: 'Account' }).fill('');

  // A shipped scenario: each step's outcome appears as it runs.
  await page.getByRole('button', { name: 'Run An application from submitted to approved' }).click();
  const steps = page.getByRole('list', { name: 'Scenario steps' });
  await expect(page.getByText('Completed: 7 steps')).toBeVisible({ timeout: 60_000 });
  await expect(steps.locator('.trigger-step.is-ok')).toHaveCount(7);
  await expect(steps).toContainText('Approved: the account opens');
  await expect(steps).toContainText('account.create');
  await shootWithoutToasts(page, 'listener-trigger-scenario-light');

  // A scenario file of one's own, from the Run a file… button: a bad one is refused before
  // anything is sent, naming the step and the field; a good one runs with its steps shown.
  const scenarios = page.locator('section', { has: page.getByRole('heading', { name: 'Scenarios' }) });
  const runFile = async (steps: unknown[]): Promise<void> => {
    const chooser = page.waitForEvent('filechooser');
    await scenarios.getByRole('button', { name: 'Run a file…' }).click();
    await (
      await chooser
    ).setFiles({
      name: 'mine.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify({ name: 'Mine', steps })),
    });
  };
  await runFile([{ action: 'trigger', event: 'ach.update', with: { status: 'approved' } }]);
  await expect(scenarios.getByRole('alert')).toContainText(
    'Scenario mine.json is not valid: steps[0].with.status: must be one of processing, sent, returned, canceled for ach.update.',
  );
  await runFile([
    { id: 'ach', action: 'trigger', event: 'ach.create', title: 'My ACH' },
    {
      action: 'trigger',
      event: 'ach.update',
      title: 'It settles',
      with: { achId: '{{ach.objectId}}', status: 'sent' },
    },
  ]);
  await expect(page.getByText('Completed: 2 steps')).toBeVisible({ timeout: 60_000 });
  await expect(steps).toContainText('It settles');
  await expect(scenarios.getByRole('alert')).toBeHidden();
  await page.getByRole('tab', { name: /^Requests/ }).click();
  await expect(requests.locator('.vtable-row', { hasText: 'account_application.update' })).toHaveCount(3, {
    timeout: 30_000,
  });
  await context.close();
});

test('imports what npm run listen exported, and says what was wrong with a bad file', async ({ browser }) => {
  const { context, page } = await openListener(browser, 'light');
  const requests = page.getByRole('grid', { name: 'Requests' });
  // What `npm run listen -- export FILE` wrote opens here: Import… keeps it, once.
  const exported = {
    id: 7,
    receivedAt: '2026-11-20T10:00:00.123Z',
    method: 'POST',
    path: '/',
    verdict: 'ok',
    presentedUser: 'bank',
    event: 'ach.update',
    objectId: 'ach_imported0001',
    op: 'update',
    bodyProblem: null,
    outcome: 'answered',
    status: 200,
    ruleId: null,
    durationMs: 3.2,
    occurrence: 1,
    outOfOrder: false,
    bodyBytes: 2,
    bodyTruncated: false,
    query: null,
    remoteAddress: '127.0.0.1',
    headers: [['content-type', 'application/json']],
    bodyText: '{}',
    bodyBase64: null,
    declaredBytes: 2,
    notification: null,
    snapshot: null,
    snapshotAt: null,
    snapshotError: null,
  };
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import…' }).click();
  await (
    await chooser
  ).setFiles({
    name: 'kept.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(JSON.stringify(exported) + '\n'),
  });
  await expect(page.getByText('Imported 1 request')).toBeVisible();
  await expect(requests.locator('.vtable-row', { hasText: 'ach_imported0001' })).toHaveCount(1, { timeout: 30_000 });
  // Imported rows carry no retry label: labels are decided only for the running listener's arrivals.
  await expect(requests.locator('.vtable-row', { hasText: 'ach_imported0001' })).toContainText('10:00:00.123');
  await shoot(page, 'listener-import-light');
  // A line that is not JSON: refused whole, the line named.
  const again = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Import…' }).click();
  await (
    await again
  ).setFiles({ name: 'bad.jsonl', mimeType: 'application/x-ndjson', buffer: Buffer.from('{}\nnot json\n') });
  await expect(page.getByText('Import refused: nothing was imported')).toBeVisible();
  await expect(page.locator('.toast-body', { hasText: 'Line 1' })).toBeVisible();
  await expect(page.getByRole('tab', { name: /^Requests/ })).toContainText('1');

  await context.close();
});

test('the events catalog, in dark, leads to the trigger', async ({ browser }) => {
  const { context, page } = await openListener(browser, 'dark');
  await page.getByRole('tab', { name: 'Events' }).click();
  const catalog = page.getByRole('list', { name: 'Events' });
  // Every event of the catalog (issue 37: the bank's whole list, real-service-only ones marked).
  await expect(catalog.getByRole('listitem')).toHaveCount(EVENT_CATALOG.length);
  // Its example under its heading (a named region only while it scrolls: ScrollBlock).
  const webhookUpdate = catalog
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { name: /^webhook\.update\b/ }) });
  await expect(webhookUpdate.locator('pre.json-view')).toContainText('"op": "update"');
  await expect(catalog).toContainText('real service only');
  await shootWithoutToasts(page, 'listener-events-dark');
  // The listener hears webhook.update too: the trigger moves another webhook (not this one).
  await register(page, ['webhook.update']);
  await page.getByRole('button', { name: 'Trigger webhook.update' }).click();
  const form = page.getByRole('form', { name: 'Trigger an event' });
  await expect(form.getByRole('combobox', { name: 'Event' })).toHaveValue('webhook.update');
  await expect(form.getByRole('combobox', { name: 'Move to' })).toBeVisible();
  await form.getByRole('button', { name: 'Trigger' }).click();
  const caused = page.getByRole('list', { name: 'Events caused' });
  await expect(caused.getByRole('listitem')).toHaveCount(2);
  const webhookId = (await caused.getByRole('listitem').first().textContent())?.match(/wh_[0-9a-z]{14}/)?.[0] ?? '';
  expect(webhookId).toMatch(/^wh_/);
  await shootWithoutToasts(page, 'listener-trigger-dark');

  // Both moves (into error, and back) arrive at the listener, verified.
  await page.getByRole('tab', { name: /^Requests/ }).click();
  const heard = page.getByRole('grid', { name: 'Requests' }).locator('.vtable-row', { hasText: webhookId });
  await expect(heard).toHaveCount(2, { timeout: 30_000 });
  for (const row of await heard.all()) {
    await expect(row).toContainText('webhook.update');
    await expect(row).toContainText('ok');
  }
  await shootWithoutToasts(page, 'listener-trigger-arrived-dark');
  await context.close();
  expect(problems).toEqual([]);
});

test('on a remote profile the trigger asks first, and a production profile is refused', async ({ browser }) => {
  const files = async (): Promise<number> => {
    const answer = await fetch(`${sandbox.baseUrl}/file`, {
      headers: { authorization: `Basic ${Buffer.from(`${sandbox.keyId}:${sandbox.keySecret}`).toString('base64')}` },
    });
    return ((await answer.json()) as { total_estimated: number }).total_estimated;
  };
  const caller = { webContentsId: HARNESS_WEB_CONTENTS_ID, channel: 'profiles.create' } as const;
  const profileOn = async (name: string, production: boolean): Promise<string> => {
    const profile = await services.handlers.profiles.create(
      { name, baseUrl: sandbox.baseUrl, authScheme: 'basic', keyId: sandbox.keyId, production },
      caller,
    );
    await services.handlers.credentials.set(
      { profileId: profile.id, secret: sandbox.keySecret },
      { webContentsId: HARNESS_WEB_CONTENTS_ID, channel: 'credentials.set' },
    );
    return profile.id;
  };
  const remoteId = await profileOn('Partner sandbox', false);
  const productionId = await profileOn('Acme Production', true);
  const { context, page } = await openListener(browser, 'light');
  await page.getByRole('combobox', { name: 'Profile' }).selectOption(remoteId);
  await page.getByRole('tab', { name: 'Trigger' }).click();
  const form = page.getByRole('form', { name: 'Trigger an event' });
  await form.getByRole('combobox', { name: 'Event' }).selectOption('file.create');
  const before = await files();

  // Told no: nothing happens at the bank.
  await form.getByRole('button', { name: 'Trigger' }).click();
  const asked = page.getByRole('dialog', { name: 'Trigger at a remote bank?' });
  await expect(asked).toContainText('Partner sandbox is a remote bank');
  await shootWithoutToasts(page, 'listener-trigger-remote-confirm-light');
  await asked.getByRole('button', { name: 'Cancel' }).click();
  await expect(asked).toBeHidden();
  expect(await files()).toBe(before);

  // Told yes (by keyboard): the file is made.
  await form.getByRole('button', { name: 'Trigger' }).click();
  await expect(asked).toBeVisible();
  await asked.getByRole('button', { name: 'Yes, trigger there' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: /^Triggered file\.create: file_/ })).toBeVisible();
  expect(await files()).toBe(before + 1);

  // Production: one sentence, nothing asked, nothing made.
  await page.getByRole('combobox', { name: 'Profile' }).selectOption(productionId);
  await page.getByRole('tab', { name: 'Trigger' }).click();
  // What was triggered at the other bank is not shown as this profile's.
  await expect(page.getByRole('heading', { name: /^Triggered / })).toBeHidden();
  await expect(page.getByText('Nothing triggered yet')).toBeVisible();
  await form.getByRole('combobox', { name: 'Event' }).selectOption('file.create');
  await form.getByRole('button', { name: 'Trigger' }).click();
  await expect(form).toContainText('is a production profile: trigger file.create is never run against production');
  await expect(page.getByRole('dialog')).toBeHidden();
  expect(await files()).toBe(before + 1);
  await shootWithoutToasts(page, 'listener-trigger-production-light');
  const embedded = (
    await services.handlers.profiles.list({}, { webContentsId: 1, channel: 'profiles.list' })
  ).profiles.find((profile) => profile.kind === 'embedded');
  await page.getByRole('combobox', { name: 'Profile' }).selectOption(embedded?.id ?? '');
  await context.close();
  expect(problems).toEqual([]);
});
