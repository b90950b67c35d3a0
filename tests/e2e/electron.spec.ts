/**
 * Electron smoke test: the real app, launched by Playwright's `_electron`: the window appears
 * on app://ledgerdesk, the preload's bridge answers, and the pending transactions of the
 * embedded sandbox bank are synced and listed on screen.
 *
 * It needs the Electron binary, which the project's build machines cannot download: there it
 * skips, saying so. The binary is looked for without importing electron (which would try to
 * download it): ELECTRON_OVERRIDE_DIST_PATH, or node_modules/electron/path.txt and dist/.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';
import type { LedgerdeskApi } from '../../src/shared/ipc/bridge.ts';

function electronBinary(): string | null {
  const electronDir = join(process.cwd(), 'node_modules', 'electron');
  const pathFile = join(electronDir, 'path.txt');
  const relativeBinary = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : null;
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH'];
  if (override !== undefined && override !== '') {
    const binary = join(override, relativeBinary ?? 'electron');
    return existsSync(binary) ? binary : null;
  }
  if (relativeBinary === null) return null;
  const binary = join(electronDir, 'dist', relativeBinary);
  return existsSync(binary) ? binary : null;
}

const binary = electronBinary();

test.describe('the Electron app', () => {
  test.skip(
    binary === null,
    'No Electron binary on this machine (node_modules/electron/dist is missing and its download is blocked); ' +
      'set ELECTRON_OVERRIDE_DIST_PATH to an Electron build to run this test.',
  );

  let app: ElectronApplication;
  let userData: string;

  test.beforeAll(async () => {
    if (!existsSync(join(process.cwd(), 'out', 'main', 'index.js'))) {
      throw new Error('out/ is missing: run npm run build before the end-to-end tests.');
    }
    userData = mkdtempSync(join(tmpdir(), 'ledgerdesk-electron-'));
    app = await electron.launch({
      executablePath: binary ?? undefined,
      args: [process.cwd(), ...(process.platform === 'linux' ? ['--no-sandbox'] : [])],
      env: { ...process.env, LEDGERDESK_USER_DATA: userData, ELECTRON_ENABLE_LOGGING: '1' },
      timeout: 60_000,
    });
  });

  test.afterAll(async () => {
    await app.close();
    rmSync(userData, { recursive: true, force: true });
  });

  test('the window appears on app://ledgerdesk and lists the sandbox’s pending transactions', async () => {
    const page = await app.firstWindow();
    await expect(page).toHaveTitle(/Ledgerdesk/);
    expect(page.url()).toMatch(/^app:\/\/ledgerdesk\//);

    // The bridge of the preload, through the router, to the services and the embedded sandbox.
    const synced = await page.evaluate(async () => {
      const api = (globalThis as unknown as { ledgerdesk: LedgerdeskApi }).ledgerdesk;
      const { activeProfileId } = await api.profiles.list();
      const profileId = activeProfileId ?? '';
      const accounts = await api.accounts.list({ profileId });
      const accountId = accounts.rows[0]?.id ?? '';
      const job = await api.sync.start({ profileId, job: { kind: 'pendingTransactions', accountId } });
      for (let round = 0; round < 600; round += 1) {
        const { jobs } = await api.sync.status({ profileId });
        if (!jobs.some((running) => running.jobId === job.jobId && running.state === 'running')) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const listed = await api.pendingTransactions.list({ profileId, accountId, limit: 10 });
      return { rows: listed.rows.length, generic: Object.keys(api).includes('invoke') };
    });
    expect(synced).toEqual({ rows: 10, generic: false });

    // In-page navigation (the shell denies every cross-document one).
    await page.evaluate(() => {
      (globalThis as unknown as { location: { hash: string } }).location.hash = '#/pending-transactions';
    });
    const grid = page.getByRole('grid', { name: 'Pending transactions' });
    await expect(grid.getByRole('row').nth(3)).toBeVisible({ timeout: 60_000 });
  });
});
