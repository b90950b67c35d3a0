/**
 * `npm run serve` as a user runs it: the real command in its own process, on a throwaway data
 * folder. Its first line is the only one that ever holds the token; --json speaks one line per
 * event; a second serve on the same folder is refused with the first one's address; Ctrl+C
 * stops it cleanly and the folder is free again.
 */
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { statusOf } from './support/rawRequests.ts';

test.describe.configure({ mode: 'serial', timeout: 180_000 });

interface Served {
  child: ChildProcess;
  output: () => string;
  errors: () => string;
  exited: Promise<number | null>;
}

function serve(folder: string, ...args: string[]): Served {
  return serveWith({}, folder, '--no-open', ...args);
}

/**
 * No keychain here (the session bus points nowhere): the data folder's key file takes its
 * passphrase from a file, as the README says for such machines (the unlock page: unlockPage.spec.ts).
 */
const keysFolder = mkdtempSync(join(tmpdir(), 'ledgerdesk-serve-keys-'));
const passphraseFile = join(keysFolder, 'passphrase');
writeFileSync(passphraseFile, 'web serve spec passphrase\n', { mode: 0o600 });

/** What `npm run serve` runs (package.json): web mode from its bundle, out/web. */
const NPM_RUN_SERVE = [join('scripts', 'serve.mjs')];

function serveWith(environment: NodeJS.ProcessEnv, folder: string, ...args: string[]): Served {
  return commandWith(NPM_RUN_SERVE, environment, folder, ...args);
}

function commandWith(command: string[], environment: NodeJS.ProcessEnv, folder: string, ...args: string[]): Served {
  const child: ChildProcessByStdio<null, Readable, Readable> = spawn(
    process.execPath,
    [...command, '--data', folder, ...args],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        DBUS_SESSION_BUS_ADDRESS: '',
        LEDGERDESK_PASSPHRASE_FILE: passphraseFile,
        LEDGERDESK_RECOVERY_KEY_FOLDER: keysFolder,
        ...environment,
      },
    },
  );
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => {
    child.on('exit', (code) => {
      resolve(code);
    });
  });
  return { child, output: () => out, errors: () => err, exited };
}

/** Waits for the app's own signal that it is open: its first line. */
async function firstLine(served: Served): Promise<string> {
  await expect.poll(() => served.output().includes('\n'), { timeout: 120_000 }).toBe(true);
  return served.output().split('\n')[0] ?? '';
}

let folder: string;

test.beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-serve-'));
});

test.afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
  rmSync(keysFolder, { recursive: true, force: true });
});

test('prints where it is open once, refuses a second writer, stops cleanly on Ctrl+C, never repeats the token', async () => {
  const first = serve(folder);
  const line = await firstLine(first);
  const match = /^Ledgerdesk is open at (http:\/\/127\.0\.0\.1:(\d+))\/\?token=([A-Za-z0-9_-]{43})$/.exec(line);
  expect(match, line).not.toBeNull();
  const [, origin = '', portText = '', token = ''] = match ?? [];
  const port = Number(portText);

  // The token logs a browser in once; every refusal on the way is logged nowhere with the token.
  const host = `127.0.0.1:${portText}`;
  expect((await statusOf(port, `/?token=${token}`, { host: `evil.example:${portText}` })).status).toBe(421);
  const exchanged = await statusOf(port, `/?token=${token}`, { host });
  expect(exchanged.status).toBe(200);
  expect(String(exchanged.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict$/);
  expect(exchanged.body).toMatch(/<meta name="ledgerdesk-tab-key" content="[A-Za-z0-9_-]{43}">/);
  expect(exchanged.headers['cache-control']).toBe('no-store');
  expect((await statusOf(port, `/?token=${token}`, { host })).status).toBe(401);

  // One writer per data folder: the second is told where the first one is.
  const second = serve(folder, '--json');
  expect(await second.exited).toBe(1);
  const refusal = JSON.parse(second.output().trim()) as { event: string; address: string; message: string };
  expect(refusal.event).toBe('refused');
  expect(refusal.address).toBe(origin);
  expect(refusal.message).toContain(origin);

  first.child.kill('SIGINT');
  expect(await first.exited).toBe(0);
  expect(first.output()).toContain('Ledgerdesk stopped. Nothing was lost.');
  const afterFirstLine =
    first.output().split('\n').slice(1).join('\n') + first.errors() + second.output() + second.errors();
  expect(afterFirstLine).not.toContain(token);

  // The folder is free again; --json says where it is, then that it stopped.
  const third = serve(folder, '--json');
  const opened = JSON.parse(await firstLine(third)) as {
    event: string;
    url: string;
    origin: string;
    dataFolder: string;
  };
  expect(opened.event).toBe('open');
  expect(opened.url.startsWith(`${opened.origin}/?token=`)).toBe(true);
  expect(opened.dataFolder).toBe(folder);
  third.child.kill('SIGTERM');
  expect(await third.exited).toBe(0);
  const lines = third.output().trim().split('\n');
  expect(JSON.parse(lines[lines.length - 1] ?? '{}')).toEqual({ event: 'stopped' });
});

test('ledger serve is the same web mode from the same bundle, and its start times name only phases', async () => {
  // LEDGERDESK_START_TIMES=1: each phase of the start prints its time (src/main/app/startTimes.ts).
  const served = commandWith(
    [join('src', 'main', 'cli', 'ledger', 'ledger.ts'), 'serve'],
    { LEDGERDESK_START_TIMES: '1' },
    folder,
    '--no-open',
    '--json',
  );
  await expect.poll(() => served.output().includes('\n'), { timeout: 120_000 }).toBe(true);
  const opened = JSON.parse(served.output().split('\n')[0] ?? '{}') as { event: string; url: string };
  expect(opened.event).toBe('open');
  const token = new URL(opened.url).searchParams.get('token') ?? '';
  expect(token).toHaveLength(43);
  served.child.kill('SIGINT');
  expect(await served.exited).toBe(0);
  const phases = served
    .errors()
    .split('\n')
    .filter((line) => line.startsWith('ledgerdesk-start '));
  for (const line of phases) expect(line).toMatch(/^ledgerdesk-start [a-z-]+ \d+\.\d$/);
  const names = phases.map((line) => line.split(' ')[1]);
  // Through the launcher npm run serve runs (it checks the build, then loads out/web/serve.js),
  // then every phase up to the first line, the sandbox's process included.
  expect(names).toEqual(
    expect.arrayContaining([
      'launcher-loaded',
      'build-checked',
      'web-server-code-loaded',
      'sandbox-forked',
      'services-code-loaded',
      'sandbox-process-code-loaded',
      'sandbox-bank-listening',
      'listening',
      'open-printed',
    ]),
  );
  expect(names.indexOf('build-checked')).toBeLessThan(names.indexOf('web-server-code-loaded'));
  // Nothing after the first line, start times included, holds the token.
  expect(served.output().split('\n').slice(1).join('\n') + served.errors()).not.toContain(token);
});

test('bad options get one clear line and the usage', async () => {
  const wrong = serve(folder, '--port', 'eighty');
  expect(await wrong.exited).toBe(2);
  expect(wrong.errors()).toContain('--port must be a number from 0 to 65535, not "eighty".');
  expect(wrong.errors()).toContain('Usage: npm run serve');
  // Beyond loopback only over TLS (W3): refused before anything starts or listens.
  const exposed = serve(folder, '--expose', '0.0.0.0');
  expect(await exposed.exited).toBe(2);
  expect(exposed.errors()).toContain('--expose needs --tls-cert and --tls-key');
  expect(exposed.output()).toBe('');
});

/** Every process's command line on this machine, as any user can read it. */
function everyCommandLine(): string[] {
  const lines: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      lines.push(readFileSync(join('/proc', entry, 'cmdline'), 'utf8').replaceAll('\0', ' '));
    } catch {
      // the process ended meanwhile
    }
  }
  return lines;
}

test('opens the browser without the token on any command line, through a page only this user can read', async () => {
  // A stand-in for xdg-open on a desktop: writes down its arguments and stays up (as a browser
  // launcher does) until the test lets it go, so its command line can be read meanwhile.
  const opener = mkdtempSync(join(tmpdir(), 'ledgerdesk-opener-'));
  const record = join(opener, 'arguments.txt');
  const release = join(opener, 'release');
  writeFileSync(
    join(opener, 'xdg-open'),
    `#!/bin/sh\nprintf '%s\\n' "$@" > "${record}.part" && mv "${record}.part" "${record}"\n` +
      `i=0; while [ ! -e "${release}" ] && [ $i -lt 300 ]; do sleep 1; i=$((i+1)); done\n`,
    { mode: 0o755 },
  );
  const served = serveWith(
    { PATH: `${opener}:${process.env['PATH'] ?? ''}`, DISPLAY: ':99', WAYLAND_DISPLAY: '' },
    folder,
  );
  try {
    const line = await firstLine(served);
    const token = /token=([A-Za-z0-9_-]{43})$/.exec(line)?.[1] ?? '';
    expect(token, line).toHaveLength(43);
    expect(served.output()).toContain('Opened in your browser.');
    await expect.poll(() => existsSync(record), { timeout: 60_000 }).toBe(true);

    // The opener was given a file, not the address; no process on the machine shows the token.
    const given = readFileSync(record, 'utf8').trim().split('\n');
    expect(given).toHaveLength(1);
    expect(given.join(' ')).not.toContain(token);
    expect(everyCommandLine().filter((commandLine) => commandLine.includes(token))).toEqual([]);
    const page = fileURLToPath(given[0] ?? '');
    expect(statSync(page).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(page)).mode & 0o777).toBe(0o700);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain(`http-equiv="refresh" content="0;url=${line.replace('Ledgerdesk is open at ', '')}"`);

    served.child.kill('SIGINT');
    expect(await served.exited).toBe(0);
    // Gone with the run; nothing after the first line holds the token.
    expect(existsSync(page)).toBe(false);
    expect(served.output().split('\n').slice(1).join('\n') + served.errors()).not.toContain(token);
  } finally {
    writeFileSync(release, '');
    served.child.kill('SIGKILL');
    rmSync(opener, { recursive: true, force: true });
  }
});
