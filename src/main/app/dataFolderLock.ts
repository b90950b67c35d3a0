/**
 * One writer per data folder: whichever shell runs (the desktop app or web mode) holds
 * `writer.lock` in the data folder, naming its process, which shell it is and, for web mode,
 * its address (never its token). A second start on the same folder, by either shell, is refused
 * with the address of the one running (or, for the desktop app, that its window is open). A lock
 * left by a process that is gone (a crash, a power cut) is taken over.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const LOCK_FILE = 'writer.lock';

/** Which shell holds the folder. */
export type WriterShell = 'desktop' | 'web';

const lockContent = z.object({
  pid: z.number().int().positive(),
  address: z.string().nullable(),
  // Absent in locks written before the desktop app took one: web mode's.
  shell: z.enum(['desktop', 'web']).default('web'),
});
type LockContent = z.infer<typeof lockContent>;

export class DataFolderInUse extends Error {
  readonly address: string | null;
  readonly pid: number;
  readonly shell: WriterShell;
  constructor(folder: string, holder: LockContent) {
    super(
      holder.address !== null
        ? `Ledgerdesk is already running on ${folder}: it is open at ${holder.address} (a data folder has one writer).`
        : holder.shell === 'desktop'
          ? `Ledgerdesk's desktop app is already running on ${folder} (process ${String(holder.pid)}): use its window, or quit it first (a data folder has one writer).`
          : `Ledgerdesk is already starting on ${folder} (process ${String(holder.pid)}); a data folder has one writer.`,
    );
    this.name = 'DataFolderInUse';
    this.address = holder.address;
    this.pid = holder.pid;
    this.shell = holder.shell;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): LockContent | null {
  try {
    const parsed = lockContent.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export interface DataFolderLock {
  /** Says where the running server is open (for the next start to point at). */
  announce(address: string): void;
  release(): void;
}

export function lockDataFolder(folder: string, shell: WriterShell, pid: number = process.pid): DataFolderLock {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const file = join(folder, LOCK_FILE);
  const write = (content: LockContent, flag: 'wx' | 'w'): void => {
    writeFileSync(file, JSON.stringify(content) + '\n', { flag, mode: 0o600 });
  };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      write({ pid, address: null, shell }, 'wx');
      let released = false;
      return {
        announce: (address) => {
          if (!released) write({ pid, address, shell }, 'w');
        },
        release: () => {
          if (released) return;
          released = true;
          if (readHolder(file)?.pid === pid) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = readHolder(file);
      if (holder !== null && alive(holder.pid)) throw new DataFolderInUse(folder, holder);
      // Left by a process that is gone (or unreadable): taken over.
      rmSync(file, { force: true });
    }
  }
  throw new Error(`The lock ${file} could not be taken; remove it if no Ledgerdesk is running.`);
}
