/**
 * TEST ONLY: `ledger` in a child process with the test's file-backed SecretStore (path in
 * LEDGERDESK_TEST_SECRETS_FILE), for the kill -9 test where no Secret Service may run.
 */
import { runLedger } from '../../../../src/main/cli/ledger/runLedger.ts';
import { JsonFileSecretStore } from './jsonFileSecretStore.ts';

const file = process.env['LEDGERDESK_TEST_SECRETS_FILE'];
if (file === undefined) throw new Error('LEDGERDESK_TEST_SECRETS_FILE is not set');
process.exitCode = await runLedger(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  secretStore: new JsonFileSecretStore(file),
});
