/**
 * The unlock page (issue 34), in real Chromium against the real `npm run serve` process: on a
 * machine without a keychain, with no terminal and no passphrase file, web mode's first page asks
 * for the key file's passphrase before any service starts. A wrong one is refused on the page in
 * one sentence and the key file's bytes are unchanged; the right one starts web mode on the same
 * port and signs the browser in (the reviews kept across restarts: keysWithoutKeychain.test.ts).
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { expect, test } from '@playwright/test';

test.describe.configure({ mode: 'serial', timeout: 300_000 });

const PASSPHRASE = 'the unlock page passphrase';

interface Served {
  child: ChildProcessByStdio<null, Readable, Readable>;
  output: () => string;
  exited: Promise<number | null>;
}

let temp: string;
let folder: string;

function serve(...args: string[]): Served {
  const child = spawn(process.execPath, [join('scripts', 'serve.mjs'), '--no-open', '--data', folder, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      DBUS_SESSION_BUS_ADDRESS: '',
      LEDGERDESK_PASSPHRASE_FILE: '',
      LEDGERDESK_RECOVERY_KEY_FOLDER: temp,
    },
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

test.beforeAll(() => {
  temp = mkdtempSync(join(tmpdir(), 'ledgerdesk-unlock-'));
  folder = join(temp, 'data');
});

test.afterAll(() => {
  rmSync(temp, { recursive: true, force: true });
});

test('the key file is made on the page, refuses a wrong passphrase unchanged, and unlocks web mode with the right one', async ({
  page,
}) => {
  // First start: the page asks for a new passphrase, twice, and the app opens on it.
  const first = serve();
  await expect
    .poll(() => /Open (http:\/\/127\.0\.0\.1:\d+\/\?unlock=\S+) in your browser/.exec(first.output())?.[1] ?? '', {
      timeout: 120_000,
    })
    .not.toBe('');
  const made = /Open (http:\/\/127\.0\.0\.1:\d+\/\?unlock=\S+) in your browser/.exec(first.output())?.[1] ?? '';
  await page.goto(made);
  await expect(page.getByRole('heading', { name: 'Choose a passphrase for Ledgerdesk' })).toBeVisible();
  await page.getByLabel('New passphrase (12 characters or more)').fill(PASSPHRASE);
  await page.getByLabel('The same passphrase again').fill(PASSPHRASE);
  await page.getByRole('button', { name: 'Make the key file and start' }).click();
  // Sent on to web mode's own sign-in, on the same port: the app's first screen.
  await expect(page.getByRole('grid', { name: 'Pending transactions' })).toBeVisible({ timeout: 120_000 });
  expect(new URL(page.url()).port).toBe(new URL(made).port);
  expect(first.output()).toMatch(/ledgerdesk-recovery-key-v1:/);
  first.child.kill('SIGINT');
  expect(await first.exited).toBe(0);

  // Second start: the unlock page; a wrong passphrase changes nothing.
  const keyFile = join(folder, 'keys.json');
  const before = readFileSync(keyFile);
  const second = serve();
  await expect
    .poll(() => /Open (http:\/\/127\.0\.0\.1:\d+\/\?unlock=\S+) in your browser/.exec(second.output())?.[1] ?? '', {
      timeout: 120_000,
    })
    .not.toBe('');
  const unlock = /Open (http:\/\/127\.0\.0\.1:\d+\/\?unlock=\S+) in your browser/.exec(second.output())?.[1] ?? '';
  await page.goto(unlock);
  await expect(page.getByRole('heading', { name: 'Unlock Ledgerdesk' })).toBeVisible();
  await page.getByLabel('Passphrase').fill('not the passphrase');
  await page.getByRole('button', { name: 'Unlock and start' }).click();
  await expect(page.getByRole('alert')).toHaveText(/That passphrase does not open .*keys\.json: nothing was changed\./);
  expect(readFileSync(keyFile).equals(before)).toBe(true);
  await page.screenshot({ path: join('test-results', 'e2e', 'unlock-page-wrong-passphrase.png') });

  await page.getByLabel('Passphrase').fill(PASSPHRASE);
  await page.getByRole('button', { name: 'Unlock and start' }).click();
  await expect(page.getByRole('grid', { name: 'Pending transactions' })).toBeVisible({ timeout: 120_000 });
  await page.screenshot({ path: join('test-results', 'e2e', 'unlock-page-unlocked.png') });
  second.child.kill('SIGINT');
  expect(await second.exited).toBe(0);
  expect(second.output()).toContain('Ledgerdesk stopped. Nothing was lost.');
});

test('an unlock address with another token opens nothing, and a stop before the unlock opens nothing', async () => {
  const third = serve();
  await expect.poll(() => third.output().includes('?unlock='), { timeout: 120_000 }).toBe(true);
  const address = /Open (http:\/\/127\.0\.0\.1:\d+)\/\?unlock=\S+ in your browser/.exec(third.output())?.[1] ?? '';
  const refused = await fetch(`${address}/?unlock=an-address-of-another-start`);
  expect(refused.status).toBe(403);
  third.child.kill('SIGINT');
  expect(await third.exited).toBe(0);
  expect(third.output()).toContain('Ledgerdesk stopped before it was unlocked: nothing was opened.');
});
