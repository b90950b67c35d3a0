/**
 * One writer per data folder, from every entry point: whichever runs (the desktop app, web
 * mode, `npm run listen`, or one `ledger` command) holds `writer.lock` in the data folder,
 * naming its process, which it is, for web mode its address (never its token), and the path of
 * its control socket (controlSocket.ts), where a `ledger` command is sent to be run by it. A
 * second start on the same folder is refused with one sentence naming the one running. A lock
 * left by a process that is gone (a crash, a power cut, kill -9) is taken over.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

export const LOCK_FILE = 'writer.lock';

/** Which entry point holds the folder. */
export type WriterShell = 'desktop' | 'web' | 'listener' | 'cli';

const lockContent = z.object({
  pid: z.number().int().positive(),
  address: z.string().nullable(),
  // Absent in locks written before the desktop app took one: web mode's.
  shell: z.enum(['desktop', 'web', 'listener', 'cli']).default('web'),
  // Absent in locks written before the control socket: nothing can be sent to that holder.
  socket: z.string().nullable().default(null),
});
type LockContent = z.infer<typeof lockContent>;

/** The running holder, in the words a refusal uses: "Ledgerdesk's desktop app (process 4242)". */
export function holderName(holder: Pick<LockContent, 'shell' | 'pid'>): string {
  const what =
    holder.shell === 'desktop'
      ? "Ledgerdesk's desktop app"
      : holder.shell === 'web'
        ? "Ledgerdesk's web mode"
        : holder.shell === 'listener'
          ? 'the webhook listener (npm run listen)'
          : 'another ledger command';
  return `${what} (process ${String(holder.pid)})`;
}

export class DataFolderInUse extends Error {
  readonly address: string | null;
  readonly pid: number;
  readonly shell: WriterShell;
  /** Where the holder takes `ledger` commands (controlSocket.ts); null when it takes none. */
  readonly socket: string | null;
  constructor(folder: string, holder: LockContent) {
    super(
      holder.address !== null
        ? `Ledgerdesk is already running on ${folder}: it is open at ${holder.address} (a data folder has one writer).`
        : holder.shell === 'desktop'
          ? `Ledgerdesk's desktop app is already running on ${folder} (process ${String(holder.pid)}): use its window, or quit it first (a data folder has one writer).`
          : holder.shell === 'web'
            ? `Ledgerdesk is already starting on ${folder} (process ${String(holder.pid)}); a data folder has one writer.`
            : `${holderName(holder)} is already working on ${folder}: ${holder.shell === 'listener' ? 'stop it (Ctrl+C in its terminal)' : 'wait for it to end'} first (a data folder has one writer).`,
    );
    this.name = 'DataFolderInUse';
    this.address = holder.address;
    this.pid = holder.pid;
    this.shell = holder.shell;
    this.socket = holder.socket;
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
  /** Says where this holder takes `ledger` commands (controlSocket.ts). */
  announceSocket(socket: string): void;
  release(): void;
}

/** Who holds the folder now (a live process), or null when it is free. */
export function folderHolder(folder: string): LockContent | null {
  const holder = readHolder(join(folder, LOCK_FILE));
  return holder !== null && alive(holder.pid) ? holder : null;
}

export function lockDataFolder(folder: string, shell: WriterShell, pid: number = process.pid): DataFolderLock {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const file = join(folder, LOCK_FILE);
  const write = (content: LockContent, flag: 'wx' | 'w'): void => {
    writeFileSync(file, JSON.stringify(content) + '\n', { flag, mode: 0o600 });
  };
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const current: LockContent = { pid, address: null, shell, socket: null };
      write(current, 'wx');
      let released = false;
      return {
        announce: (address) => {
          current.address = address;
          if (!released) write(current, 'w');
        },
        announceSocket: (socket) => {
          current.socket = socket;
          if (!released) write(current, 'w');
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
