/** One writer per data folder: refused with the running one's address; a lock left by a gone process is taken over. */
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFolderInUse, LOCK_FILE, lockDataFolder } from '../../../src/main/app/dataFolderLock.ts';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-lock-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('lockDataFolder', () => {
  it('refuses a second writer with the address of the first, and frees the folder on release', () => {
    const lock = lockDataFolder(folder, 'web');
    lock.announce('http://127.0.0.1:5123');
    expect(() => lockDataFolder(folder, 'web')).toThrow(DataFolderInUse);
    expect(() => lockDataFolder(folder, 'web')).toThrow('http://127.0.0.1:5123');
    lock.release();
    expect(existsSync(join(folder, LOCK_FILE))).toBe(false);
    lockDataFolder(folder, 'web').release();
  });

  it('refuses web mode while the desktop app writes, and the desktop app while web mode does', () => {
    const desktop = lockDataFolder(folder, 'desktop');
    const refusal = (() => {
      try {
        lockDataFolder(folder, 'web');
      } catch (error) {
        return error;
      }
      return null;
    })();
    expect(refusal).toBeInstanceOf(DataFolderInUse);
    expect((refusal as DataFolderInUse).shell).toBe('desktop');
    expect((refusal as DataFolderInUse).message).toMatch(
      /desktop app is already running .* use its window, or quit it first/,
    );
    desktop.release();
    const web = lockDataFolder(folder, 'web');
    web.announce('http://127.0.0.1:6001');
    expect(() => lockDataFolder(folder, 'desktop')).toThrow('it is open at http://127.0.0.1:6001');
    web.release();
  });

  it('reads a lock written before it named its shell as web mode’s', () => {
    writeFileSync(join(folder, LOCK_FILE), JSON.stringify({ pid: process.pid, address: 'http://127.0.0.1:7' }));
    expect(() => lockDataFolder(folder, 'desktop')).toThrow('it is open at http://127.0.0.1:7');
  });

  it('says a starting writer is starting', () => {
    const lock = lockDataFolder(folder, 'web');
    expect(() => lockDataFolder(folder, 'web')).toThrow(/already starting/);
    lock.release();
  });

  it('takes over a lock left by a process that is gone, or an unreadable one', () => {
    // The largest pid Linux hands out is below 2^22: this one is not running.
    writeFileSync(join(folder, LOCK_FILE), JSON.stringify({ pid: 4_194_999, address: 'http://127.0.0.1:1' }));
    lockDataFolder(folder, 'web').release();
    writeFileSync(join(folder, LOCK_FILE), 'not json');
    lockDataFolder(folder, 'web').release();
  });
});
