/**
 * `npm start` where Electron cannot run (this machine has neither its binary nor a display):
 * it says so in plain sentences, builds only when a source is newer than out/, starts web mode
 * and, on a first open from an empty data folder, the app shows the embedded sandbox's pending
 * transactions without anyone pressing Sync. The real script in its own process; the test's
 * Chromium plays the browser the script would have opened.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { expect, test } from '@playwright/test';

// A hang guard: building, loading and a first sync took minutes under load 30 on two cores.
test.describe.configure({ mode: 'serial', timeout: 600_000 });

interface Started {
  child: ChildProcessByStdio<null, Readable, Readable>;
  output: () => string;
  exited: Promise<number | null>;
}

/** `npm start -- ARGS`, as npm runs it (the script on this Node), with no display. */
function npmStart(...args: string[]): Started {
  const child = spawn(process.execPath, [join('scripts', 'start.mjs'), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '', DBUS_SESSION_BUS_ADDRESS: '' },
    // Its own process group, as a terminal's: Ctrl+C reaches the script and web mode together.
    detached: true,
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      resolve(code);
    });
  });
  return { child, output: () => out, exited };
}

let folder: string;
test.beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-npm-start-'));
});
test.afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

test('ends with the app open in the browser, showing the sandbox’s pending transactions on first open', async ({
  browser,
}) => {
  const started = npmStart('--no-open', '--data', folder);
  try {
    // The app's own signal that it is open: the line with its address.
    await expect
      .poll(() => /Ledgerdesk is open at (\S+)/.exec(started.output())?.[1] ?? null, { timeout: 240_000 })
      .not.toBeNull();
    const output = started.output();
    expect(output).toContain('This machine has no display for the desktop window');
    expect(output).toContain('Ledgerdesk opens in your browser instead (web mode).');
    expect(output).toContain('To get the desktop app:');
    expect(output).not.toContain('TypeError');
    // A quiet start (issue 38): what opens, where and how to stop it, in a few lines, not the
    // bundler's output (a build, when one runs, goes to out/build.log: tests/unit/shell/quietBuild.test.ts).
    const before = output.slice(0, output.indexOf('Ledgerdesk is open at')).trim().split('\n');
    expect(before.length, before.join('\n')).toBeLessThanOrEqual(8);
    expect(output).not.toMatch(/vite v\d|modules transformed/);
    await expect.poll(() => started.output(), { timeout: 30_000 }).toContain('Ctrl+C stops Ledgerdesk.');
    expect(started.output()).toContain(`Data folder: ${folder}`);
    const address = /Ledgerdesk is open at (\S+)/.exec(output)?.[1] ?? '';

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(address);
    await expect(page.locator('html')).toHaveAttribute('data-ledgerdesk-connection', 'open');
    await expect(page.getByRole('heading', { name: 'Pending transactions', level: 1 })).toBeVisible();
    // Nobody presses Sync: the first open synced the sandbox's first account by itself.
    const grid = page.getByRole('grid', { name: 'Pending transactions' });
    await expect(grid.getByRole('row').nth(3)).toBeVisible({ timeout: 120_000 });
    await expect(page.locator('.list-footer')).toContainText('250 rows', { timeout: 120_000 });
    await context.close();
  } finally {
    // Ctrl+C in the terminal: SIGINT to the whole process group.
    process.kill(-(started.child.pid ?? 0), 'SIGINT');
  }
  expect(await started.exited).toBe(0);
  expect(started.output()).toContain('Ledgerdesk stopped. Nothing was lost.');
});

test('does not build again when out/ is newer than every source', async () => {
  const again = npmStart('--help');
  expect(await again.exited).toBe(0);
  expect(again.output()).toContain('The build in out/ is newer than every source: not built again.');
  expect(again.output()).toContain('Usage: npm run serve');
});
