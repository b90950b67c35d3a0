/**
 * Web mode, really started for an e2e test: the web shell (src/main/web) on a data folder, with
 * its embedded sandbox in its own Node process, the real services and router, serving the built
 * renderer. Only the keychain is in memory (kept across restarts by passing the same store), and
 * nothing opens a browser: the test's Chromium opens the printed address.
 */
import { join } from 'node:path';
import { expect, type BrowserContext, type Page } from '@playwright/test';
import { InMemorySecretStore, type SecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import { forkSandboxChild } from '../../../src/main/web/forkSandbox.ts';
import type { SandboxChild } from '../../../src/main/app/embeddedSandbox.ts';
import { webPdfPrinter } from '../../../src/main/web/chromiumPdfPrinter.ts';
import { startWebShell, type RunningWebShell } from '../../../src/main/web/webShell.ts';

export interface WebModeApp {
  shell: RunningWebShell;
  /** Everything the shell logged: searched for secrets and tokens. */
  logged: string[];
}

export async function startWebModeApp(
  folder: string,
  secretStore: SecretStore = new InMemorySecretStore(),
  /** How the sandbox's process is forked (a test that ends it as a crash would keeps the child). */
  forkSandbox: () => SandboxChild = forkSandboxChild,
): Promise<WebModeApp> {
  const logged: string[] = [];
  const keep = (line: string): void => {
    logged.push(line);
  };
  const printer = webPdfPrinter();
  const shell = await startWebShell({
    dataFolder: folder,
    rendererRoot: join(process.cwd(), 'out', 'renderer'),
    secretStore,
    settings: new FileProfileStorage(folder),
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory keychain (tests)' }),
    forkSandbox,
    downloadsFolder: join(folder, 'downloads'),
    openExternal: () => false,
    // The machine's Chromium prints the review report, as `npm run serve` finds it.
    ...(printer === undefined ? {} : { printToPdf: printer }),
    app: { name: 'Ledgerdesk', version: '0.0.0-e2e', platform: process.platform },
    log: { info: keep, warn: keep, error: keep },
  });
  return { shell, logged };
}

/** Opens the printed address in a fresh page of `context` and waits for the app and its socket. */
export async function openWebMode(context: BrowserContext, address: string, problems: string[]): Promise<Page> {
  const page = await context.newPage();
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  await page.goto(address);
  await waitUntilConnected(page);
  return page;
}

/** The app's own readiness signals: the sidebar drawn and the web bridge's socket open. */
export async function waitUntilConnected(page: Page): Promise<void> {
  await expect(page.getByRole('navigation', { name: 'Screens' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-ledgerdesk-connection', 'open');
}
