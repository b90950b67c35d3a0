/**
 * Run as a child process by recordCopy.test.ts: opens the data folder's record with the real
 * keychain (service LEDGERDESK_TEST_KEYRING_SERVICE) and copies the record out of its cache file,
 * over and over into the same record until killed, so the parent's kill -9 lands anywhere in a
 * copy. argv: the data folder, the cache file, the cache id, and "once" or "loop".
 */
import { Credentials } from '../../../../src/main/services/credentials/credentials.ts';
import { KeyringSecretStore } from '../../../../src/main/services/credentials/keyringSecretStore.ts';
import { copyRecordFromCache } from '../../../../src/main/services/record/recordCopy.ts';
import { RecordStore } from '../../../../src/main/services/record/recordStore.ts';

const [folder = '', cacheFile = '', cacheId = '', mode = 'once'] = process.argv.slice(2);
const credentials = new Credentials(new KeyringSecretStore(process.env['LEDGERDESK_TEST_KEYRING_SERVICE'] ?? ''));
const record = await RecordStore.open({ folder, credentials });
process.stdout.write('copying\n');
const copy = copyRecordFromCache(record, cacheFile, cacheId);
process.stdout.write(`${JSON.stringify(copy)}\n`);
if (mode === 'loop') {
  // The copy is done and marked: nothing more is written. Wait to be killed.
  await new Promise(() => undefined);
}
record.close();
