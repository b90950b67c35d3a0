/**
 * Where web mode saves an export or a report: a browser tab has no native save dialog, so the
 * file goes to the user's Downloads folder under the name the app proposes, never over an
 * existing file ("name (2).csv", …). The answer names the path, which the app shows.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, extname, join } from 'node:path';

export function defaultDownloadsFolder(environment: NodeJS.ProcessEnv = process.env, home: string = homedir()): string {
  const xdg = environment['XDG_DOWNLOAD_DIR'];
  return xdg !== undefined && xdg !== '' ? xdg : join(home, 'Downloads');
}

export function savePathIn(folder: string, proposedName: string): Promise<string> {
  mkdirSync(folder, { recursive: true });
  // Only a file name is taken from the app: never a path.
  const name = basename(proposedName).replace(/^\.+/, '') || 'ledgerdesk-export';
  const extension = extname(name);
  const stem = name.slice(0, name.length - extension.length);
  let candidate = join(folder, name);
  for (let copy = 2; existsSync(candidate); copy += 1)
    candidate = join(folder, `${stem} (${String(copy)})${extension}`);
  return Promise.resolve(candidate);
}
