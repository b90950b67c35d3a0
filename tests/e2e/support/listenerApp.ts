/**
 * What the listener's e2e specs share (trigger.spec.ts, listenerRegistrations.spec.ts,
 * listenerLoop.spec.ts): a real sandbox bank on a data file, the real services behind the real
 * router with the listener on a port free right now, the renderer served, and a page opened on
 * the Listener screen in a theme; plus the two gestures every spec makes: register events from
 * the header's multi-select, and take a screenshot without the toasts over it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { Router } from '../../../src/main/ipc/routerCore.ts';
import { catalogEvents } from '../../../src/shared/eventCatalog/eventCatalog.ts';
import { startServices, type RunningServices } from '../../../src/main/app/services.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { InMemoryProfileStorage } from '../../../src/main/services/profiles/profileStorage.ts';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox/index.ts';
import { harnessRouter, openHarnessPage, showScreen } from './harnessRouter.ts';
import { HARNESS_WEB_CONTENTS_ID, type LedgerdeskPage } from './ledgerdeskPage.ts';
import { serveRenderer, type RendererServer } from './rendererServer.ts';
import { shoot } from './screens.ts';

export interface ListenerApp {
  folder: string;
  sandbox: RunningSandbox;
  services: RunningServices;
  renderer: RendererServer;
  router: Router;
  /** Console errors and failed requests of every page opened (a spec expects none). */
  problems: string[];
  /** A page on `screen` (the Listener by default), in the theme. */
  open(browser: Browser, theme: 'light' | 'dark', screen?: string): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

/** A port free right now: the listener's remembered default may be taken by another run on this machine. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  return port;
}

export async function startListenerApp(folderPrefix: string): Promise<ListenerApp> {
  const folder = mkdtempSync(join(tmpdir(), `ledgerdesk-e2e-${folderPrefix}-`));
  const harnesses: LedgerdeskPage[] = [];
  const problems: string[] = [];
  const renderer = await serveRenderer();
  const sandbox = await startSandbox({ port: 0, dataFile: join(folder, 'sandbox.db'), retryBaseMs: 40, accounts: 2 });
  const services = await startServices({
    dataFolder: folder,
    sandbox,
    secretStore: new InMemorySecretStore(),
    settings: new InMemoryProfileStorage(),
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory keychain (tests)' }),
    app: { name: 'Ledgerdesk', version: '0.0.0-e2e', platform: process.platform },
    send: (channel, payload) => {
      for (const harness of harnesses) harness.send(channel, payload);
    },
    chooseSavePath: (name) => Promise.resolve(join(folder, name)),
    openExternal: () => false,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  });
  const router = harnessRouter(services, renderer.url);
  await services.handlers.listener.configure(
    { port: await freePort() },
    { webContentsId: HARNESS_WEB_CONTENTS_ID, channel: 'listener.configure' },
  );
  return {
    folder,
    sandbox,
    services,
    renderer,
    router,
    problems,
    async open(browser, theme, screen = 'listener') {
      const opened = await openHarnessPage(browser, theme, {
        router,
        rendererUrl: renderer.url,
        record: { harnesses, problems },
      });
      await showScreen(opened.page, renderer.url, screen);
      return opened;
    },
    async close() {
      await services.stop();
      await sandbox.close().catch(() => undefined);
      await renderer.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Toasts stack over the result panel for seconds: dismiss them so the picture shows the screen. */
export async function shootWithoutToasts(page: Page, name: string): Promise<void> {
  const dismiss = page.locator('.toasts').getByRole('button', { name: 'Dismiss' });
  while ((await dismiss.count()) > 0) await dismiss.first().click();
  await shoot(page, name);
}

/**
 * Registers the listener for exactly `events` from the header: opens Events, ticks those
 * events and unticks the rest with the keyboard, closes with Escape, presses Register with
 * bank, and waits until the registration is announced.
 */
export async function register(page: Page, events: readonly string[]): Promise<void> {
  const toggle = page.getByRole('button', { name: /^Events: / });
  await toggle.click();
  const choices = page.getByRole('group', { name: 'Events to register' });
  for (const event of catalogEvents()) {
    const box = choices.getByRole('checkbox', { name: event, exact: true });
    if ((await box.isChecked()) !== events.includes(event)) {
      await box.focus();
      await page.keyboard.press('Space');
    }
  }
  await page.keyboard.press('Escape');
  await expect(toggle).toBeFocused();
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await page.getByRole('button', { name: 'Register with bank' }).click();
  // Registered, and said, in the catalog's order.
  const inOrder = catalogEvents().filter((event) => events.includes(event));
  // Each webhook named with its own address (issue 38): one listener path per registration.
  const said =
    events.length === 1
      ? new RegExp(
          `^Registered 1 webhook posting to \\S+: ${inOrder.map((event) => `${event.replace(/\./g, '\\.')} \\(wh_\\w+\\)`).join(', ')}\\.$`,
        )
      : new RegExp(
          `^Registered ${String(events.length)} webhooks: ${inOrder.map((event) => `${event.replace(/\./g, '\\.')} \\(wh_\\w+\\) posting to http://127\\.0\\.0\\.1:\\d+/\\S+`).join(', ')}\\.$`,
        );
  await expect(page.getByRole('status').filter({ hasText: said }).first()).toBeAttached();
}
