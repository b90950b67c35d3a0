/** Ledgerdesk's per-user data folder: where Electron's app.getPath('userData') points too. */
import { homedir } from 'node:os';
import { join } from 'node:path';

export function appDataFolder(
  platform: NodeJS.Platform = process.platform,
  environment: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'win32') return join(environment['APPDATA'] ?? join(home, 'AppData', 'Roaming'), 'Ledgerdesk');
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Ledgerdesk');
  return join(environment['XDG_CONFIG_HOME'] ?? join(home, '.config'), 'Ledgerdesk');
}
