/** One writer per data folder: refused with the running one's address; a lock left by a gone process is taken over. */
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataFolderInUse, LOCK_FILE, lockDataFolder } from '../../../src/main/web/dataFolderLock.ts';

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'ledgerdesk-lock-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('lockDataFolder', () => {
  it('refuses a second writer with the address of the first, and frees the folder on release', () => {
    const lock = lockDataFolder(folder);
    lock.announce('http://127.0.0.1:5123');
    expect(() => lockDataFolder(folder)).toThrow(DataFolderInUse);
    expect(() => lockDataFolder(folder)).toThrow('http://127.0.0.1:5123');
    lock.release();
    expect(existsSync(join(folder, LOCK_FILE))).toBe(false);
    lockDataFolder(folder).release();
  });

  it('says a starting writer is starting', () => {
    const lock = lockDataFolder(folder);
    expect(() => lockDataFolder(folder)).toThrow(/already starting/);
    lock.release();
  });

  it('takes over a lock left by a process that is gone, or an unreadable one', () => {
    // The largest pid Linux hands out is below 2^22: this one is not running.
    writeFileSync(join(folder, LOCK_FILE), JSON.stringify({ pid: 4_194_999, address: 'http://127.0.0.1:1' }));
    lockDataFolder(folder).release();
    writeFileSync(join(folder, LOCK_FILE), 'not json');
    lockDataFolder(folder).release();
  });
});
