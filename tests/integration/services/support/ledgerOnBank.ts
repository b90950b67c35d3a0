/**
 * `ledger` as a user runs it against a real sandbox bank: a fresh data folder, an in-memory
 * keychain, and `profile add` with the bank's key typed on standard input. Shared by the
 * tests of the CLI's bank commands (trigger, webhooks), which all start the same way.
 */
import { join } from 'node:path';
import { expect } from 'vitest';
import { InMemorySecretStore } from '../../../../src/main/services/credentials/secretStore.ts';
import { ledger } from './ledgerRun.ts';
import { startBank, type RunningSandbox } from './sandboxBank.ts';
import { makeTempFolder } from './tempFolder.ts';

export interface LedgerOnBank {
  sandbox: RunningSandbox;
  temp: { folder: string; remove: () => void };
  secrets: InMemorySecretStore;
  /** `--data <folder>`: the first arguments of every command. */
  data: string[];
  /** `ledger profile add NAME` on this bank (its key on stdin); fails the test if refused. */
  addProfile(name: string, production?: boolean): Promise<void>;
  close(): Promise<void>;
}

export async function startLedgerOnBank(folderPrefix: string): Promise<LedgerOnBank> {
  const sandbox = await startBank({ accounts: 1, pendingTransactionsPerAccount: 5 });
  const temp = makeTempFolder(folderPrefix);
  const secrets = new InMemorySecretStore();
  const data = ['--data', join(temp.folder, 'data')];
  return {
    sandbox,
    temp,
    secrets,
    data,
    async addProfile(name, production = false) {
      const added = await ledger(
        [
          ...data,
          'profile',
          'add',
          name,
          '--base-url',
          sandbox.baseUrl,
          '--key-id',
          sandbox.keyId,
          ...(production ? ['--production'] : []),
        ],
        secrets,
        sandbox.keySecret + '\n',
      );
      expect(added).toMatchObject({ code: 0 });
    },
    async close() {
      await sandbox.close();
      temp.remove();
    },
  };
}
