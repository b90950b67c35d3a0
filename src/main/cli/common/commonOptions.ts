/**
 * The options every command line of Ledgerdesk reads the same way (`ledger`, `ledger serve`,
 * `npm run listen` and its inspect/replay/export): `--data DIR`, the data folder the desktop app
 * also uses, `--json`, machine-readable output, and `--passphrase-file FILE`, the passphrase of
 * the folder's key file where the machine has no keychain (app/dataFolderSecrets.ts). Spread
 * into each parser's `parseArgs` options.
 */
import { appDataFolder } from './appDataFolder.ts';

export const COMMON_OPTIONS = {
  data: { type: 'string' },
  json: { type: 'boolean' },
  'passphrase-file': { type: 'string' },
} as const;

/** The folder `--data` names, else the app's own (where Electron's app.getPath('userData') points). */
export function dataFolderOf(
  given: string | null | undefined,
  environment: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  return given ?? appDataFolder(platform, environment);
}
