/**
 * One writer per data folder, across both shells: the desktop app's start (the shared
 * startLedgerdesk, as src/main/electron/index.ts calls it, with only the Electron edge replaced: the
 * sandbox forked as a Node child instead of a utilityProcess, settings in config.json instead of
 * electron-store, no native dialogs) and web mode (the real web shell). Each is refused while
 * the other writes, with the address of the one running, before it starts anything; the folder
 * is free again once the holder stops.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFolderInUse } from '../../../src/main/app/dataFolderLock.ts';
import { startLedgerdesk, type RunningLedgerdesk } from '../../../src/main/app/startLedgerdesk.ts';
import { writerRefusalOf } from '../../../src/main/app/writerRefusal.ts';
import { InMemorySecretStore } from '../../../src/main/services/credentials/secretStore.ts';
import { FileProfileStorage } from '../../../src/main/services/profiles/fileProfileStorage.ts';
import type { SandboxChild } from '../../../src/main/app/embeddedSandbox.ts';
import { forkSandboxChild } from '../../../src/main/web/forkSandbox.ts';
import { startWebShell, type RunningWebShell } from '../../../src/main/web/webShell.ts';
import { WEB_BRIDGE_FILE } from '../../../src/main/web/rendererFiles.ts';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
let folder: string;
let rendererRoot: string;
let forks = 0;
const running: { stop(): Promise<void> }[] = [];

function countedFork(): SandboxChild {
  forks += 1;
  return forkSandboxChild();
}

/** The desktop app's start, as index.ts makes it, with the Electron edge replaced. */
function startDesktop(): Promise<RunningLedgerdesk> {
  return startLedgerdesk({
    dataFolder: folder,
    shell: 'desktop',
    forkSandbox: countedFork,
    secretStore: new InMemorySecretStore(),
    settings: new FileProfileStorage(folder),
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory keychain (tests)' }),
    app: { name: 'Ledgerdesk', version: '0.0.0-test', platform: process.platform },
    senderPolicy: { isOwnWindow: () => false, allowedOrigins: ['app://ledgerdesk'] },
    send: () => undefined,
    chooseSavePath: () => Promise.resolve(null),
    openExternal: () => false,
    log: quiet,
  });
}

function startWeb(): Promise<RunningWebShell> {
  return startWebShell({
    dataFolder: folder,
    rendererRoot,
    secretStore: new InMemorySecretStore(),
    settings: new FileProfileStorage(folder),
    keychain: () => Promise.resolve({ available: true, backend: 'in-memory keychain (tests)' }),
    forkSandbox: countedFork,
    downloadsFolder: join(folder, 'downloads'),
    openExternal: () => false,
    app: { name: 'Ledgerdesk', version: '0.0.0-test', platform: process.platform },
    log: quiet,
  });
}

async function refusalOf(start: Promise<unknown>): Promise<DataFolderInUse> {
  try {
    running.push((await start) as { stop(): Promise<void> });
  } catch (error) {
    if (error instanceof DataFolderInUse) return error;
    throw error;
  }
  throw new Error('the second writer was not refused');
}

beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-one-writer-'));
  // The web shell checks only that the built renderer is there; this test does not open it.
  rendererRoot = join(folder, 'renderer');
  mkdirSync(rendererRoot);
  writeFileSync(join(rendererRoot, 'index.html'), '<!doctype html><title>Ledgerdesk</title>');
  writeFileSync(join(rendererRoot, WEB_BRIDGE_FILE), '');
  forks = 0;
});

afterEach(async () => {
  for (const app of running.splice(0)) await app.stop();
  rmSync(folder, { recursive: true, force: true });
});

describe('one writer per data folder, desktop app and web mode', () => {
  it('refuses the desktop app while web mode writes, with web mode’s address, before starting anything', async () => {
    const web = await startWeb();
    running.push(web);
    const forksBefore = forks;
    const refused = await refusalOf(startDesktop());
    expect(refused.address).toBe(web.origin);
    expect(refused.message).toContain(web.origin);
    expect(forks).toBe(forksBefore);
    // What the desktop app's dialog says, and the address its button opens.
    const refusal = writerRefusalOf(refused);
    expect(refusal?.message).toBe(`Ledgerdesk is already running in web mode, open at ${web.origin}.`);
    expect(refusal?.address).toBe(web.origin);
    expect(writerRefusalOf(new Error('keychain locked'))).toBeNull();

    await web.stop();
    running.splice(0);
    const desktop = await startDesktop();
    running.push(desktop);
    expect(desktop.sandbox).not.toBeNull();
  });

  it('refuses web mode while the desktop app writes, and says to use its window', async () => {
    const desktop = await startDesktop();
    running.push(desktop);
    const forksBefore = forks;
    const refused = await refusalOf(startWeb());
    expect(refused.shell).toBe('desktop');
    expect(refused.address).toBeNull();
    expect(refused.message).toMatch(/desktop app is already running on .*: use its window, or quit it first/);
    expect(forks).toBe(forksBefore);

    await desktop.stop();
    running.splice(0);
    expect(readdirSync(folder)).not.toContain('writer.lock');
    running.push(await startWeb());
  });
});
