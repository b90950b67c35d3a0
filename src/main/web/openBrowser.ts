/**
 * Opens the printed address in the user's default browser, where there is one: `open` on
 * macOS, `start` on Windows, `xdg-open` on a Linux desktop (a graphical session and xdg-open
 * present). Says whether it tried; a failure afterwards only means the user opens it by hand.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

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
