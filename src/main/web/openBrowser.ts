/**
 * Opens the printed address in the user's default browser, where there is one: `open` on
 * macOS, `start` on Windows, `xdg-open` on a Linux desktop (a graphical session and xdg-open
 * present). Says whether it tried; a failure afterwards only means the user opens it by hand.
 *
 * The address that logs a browser in carries the run's token, and a command's arguments are
 * readable by every user of the machine (`/proc/PID/cmdline`, `ps`) for as long as the opener
 * runs. So that address never goes on a command line: as Jupyter does, it is written into a
 * small redirect page in a folder only this user can read (0700, the file 0600), and the
 * browser is given that file's path. The page is removed when web mode stops.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

function onPath(command: string, environment: NodeJS.ProcessEnv): boolean {
  for (const folder of (environment['PATH'] ?? '').split(delimiter)) {
    if (folder === '') continue;
    try {
      accessSync(join(folder, command), constants.X_OK);
      return true;
    } catch {
      // not in this folder
    }
  }
  return false;
}

/** The command that opens a URL here, or null when this machine has no browser to show. */
export function browserOpener(
  platform: NodeJS.Platform = process.platform,
  environment: NodeJS.ProcessEnv = process.env,
): { command: string; args: (url: string) => string[] } | null {
  if (platform === 'darwin') return { command: 'open', args: (url) => [url] };
  if (platform === 'win32') return { command: 'cmd', args: (url) => ['/c', 'start', '""', url.replaceAll('&', '^&')] };
  const graphical = (environment['DISPLAY'] ?? '') !== '' || (environment['WAYLAND_DISPLAY'] ?? '') !== '';
  if (!graphical || !onPath('xdg-open', environment)) return null;
  return { command: 'xdg-open', args: (url) => [url] };
}

/** Opens a URL that holds no secret (a link of the app) in the default browser. */
export function openInDefaultBrowser(url: string, environment: NodeJS.ProcessEnv = process.env): boolean {
  const opener = browserOpener(process.platform, environment);
  if (opener === null) return false;
  try {
    const child = spawn(opener.command, opener.args(url), { stdio: 'ignore', detached: true, env: environment });
    child.on('error', () => undefined);
    child.unref();
    return true;
  } catch {
    return false;
  }
}

/** A redirect page holding the address with its token; `remove()` deletes it (safe twice). */
export interface RedirectPage {
  file: string;
  remove(): void;
}

function htmlAttribute(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** Writes the 0600 page that sends the browser on to `url`, in a fresh 0700 folder. */
export function writeRedirectPage(url: string, folder: string = tmpdir()): RedirectPage {
  const own = mkdtempSync(join(folder, 'ledgerdesk-open-'));
  const file = join(own, 'open-ledgerdesk.html');
  const target = htmlAttribute(url);
  writeFileSync(
    file,
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
      `<meta http-equiv="refresh" content="0;url=${target}"><title>Opening Ledgerdesk…</title></head>` +
      `<body><p>Opening Ledgerdesk… If nothing happens, <a href="${target}">open it here</a>.</p></body></html>\n`,
    { mode: 0o600, flag: 'wx' },
  );
  let removed = false;
  return {
    file,
    remove: () => {
      if (removed) return;
      removed = true;
      rmSync(own, { recursive: true, force: true });
    },
  };
}

/**
 * Opens the address that logs a browser in, through a redirect page, so the token is in no
 * process's arguments. Null when this machine has no browser to show (nothing is written).
 */
export function openSecretAddressInDefaultBrowser(
  url: string,
  environment: NodeJS.ProcessEnv = process.env,
  folder: string = tmpdir(),
): RedirectPage | null {
  if (browserOpener(process.platform, environment) === null) return null;
  const page = writeRedirectPage(url, folder);
  if (!openInDefaultBrowser(pathToFileURL(page.file).href, environment)) {
    page.remove();
    return null;
  }
  return page;
}
