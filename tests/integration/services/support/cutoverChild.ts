/**
 * Run as a child process by recordCutover.test.ts: opens the services on a data folder from
 * before the cut-over with the real keychain (service LEDGERDESK_TEST_KEYRING_SERVICE), so the
 * first start's move runs, then waits to be killed; the parent's kill -9 lands anywhere in it.
 * argv: the data folder.
 */
import { KeyringSecretStore } from '../../../../src/main/services/credentials/keyringSecretStore.ts';
import { LedgerServices } from '../../../../src/main/services/ledgerServices.ts';
import { FileProfileStorage } from '../../../../src/main/services/profiles/fileProfileStorage.ts';

const [folder = ''] = process.argv.slice(2);
const secretStore = new KeyringSecretStore(process.env['LEDGERDESK_TEST_KEYRING_SERVICE'] ?? '');
process.stdout.write('opening\n');
await LedgerServices.open({
  dataFolder: folder,
  secretStore,
  profileStorage: new FileProfileStorage(folder),
  cacheWriter: 'inline',
});
process.stdout.write('opened\n');
await new Promise(() => undefined);
