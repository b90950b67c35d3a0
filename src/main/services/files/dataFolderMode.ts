/**
 * The data folder is its owner's only (review I-W2): made 0700 when it is created, and an
 * existing folder with group or other permission bits (one a user made with `mkdir`, 0755
 * under the usual umask) is set to 0700 when Ledgerdesk starts on it. Its files are 0600 each
 * already; the folder's mode also keeps other users from listing it or reading a file a future
 * version creates with a looser mode. A folder this user does not own cannot be changed: that
 * is said once, and the start goes on (the files stay 0600).
 */
import { chmodSync, mkdirSync, statSync } from 'node:fs';

/** What starting on the folder changed, for one line in the shell's log or the CLI's stderr. */
export type DataFolderMode = { changed: false } | { changed: true; from: number } | { changed: false; problem: string };

function octal(mode: number): string {
  return `0${(mode & 0o777).toString(8)}`;
}

export function ownDataFolder(folder: string, platform: NodeJS.Platform = process.platform): DataFolderMode {
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  // Windows has no such bits: the folder's ACL comes from the user's profile folder.
  if (platform === 'win32') return { changed: false };
  const mode = statSync(folder).mode & 0o777;
  if ((mode & 0o077) === 0) return { changed: false };
  try {
    chmodSync(folder, 0o700);
    return { changed: true, from: mode };
  } catch (error) {
    return {
      changed: false,
      problem:
        `the data folder ${folder} is open to other users (mode ${octal(mode)}) and could not be set to 0700 ` +
        `(${error instanceof Error ? error.message : String(error)}); its files stay readable by you only.`,
    };
  }
}

/** The line to show for what `ownDataFolder` did, or null when it changed nothing. */
export function dataFolderModeLine(folder: string, result: DataFolderMode): string | null {
  if ('problem' in result) return result.problem;
  if (!result.changed) return null;
  return `the data folder ${folder} was open to other users (mode ${octal(result.from)}): it is 0700 now.`;
}
