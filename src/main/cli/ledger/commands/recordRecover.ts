/**
 * `ledger record recover --recovery-key FILE`: after the keychain entry or the key file's
 * passphrase is lost, the keys the record depends on (the record's key, the audit chain's key,
 * the cache's data key) are opened from the data folder's recovery escrow with the recovery key
 * and written into this machine's keychain, or into the data folder's key file under a new
 * passphrase. Run on a folder no Ledgerdesk has open (folderWriter.ts sees to it): the next
 * start finds its keys and loses nothing.
 */
import { renameSync } from 'node:fs';
import { resolve } from 'node:path';
import { openDataFolderSecrets, openKeyFile, type PassphraseSource } from '../../../app/dataFolderSecrets.ts';
import { hasKeyFile, keyFileOf } from '../../../services/credentials/passphraseSecretStore.ts';
import { openEscrow, readRecoveryKeyFile } from '../../../services/credentials/recoveryEscrow.ts';
import type { SecretInput } from '../readSecret.ts';
import type { CommandContext } from '../triggerCommand.ts';

export interface RecoverContext extends CommandContext {
  passphraseFile: string | null;
  env: NodeJS.ProcessEnv;
  secretInput: SecretInput;
}

/** What each escrowed account is, in the officer's words. */
function describe(account: string): string {
  if (account.startsWith('record-key:')) return "the record's key";
  if (account.startsWith('record-signing-key:')) return "the record's archive signing key";
  if (account.startsWith('audit:chain-key:')) return "the audit log's chain key";
  if (account.startsWith('cache:data-key:')) return "the offline cache's data key";
  return account;
}

export async function recordRecover(context: RecoverContext): Promise<number> {
  const keyFile = resolve(String(context.arguments.options['recovery-key']));
  // Both checked before anything is written: a wrong recovery key changes nothing.
  const keys = openEscrow(context.dataFolder, readRecoveryKeyFile(keyFile));
  const source: PassphraseSource = { file: context.passphraseFile, env: context.env, terminal: context.secretInput };
  let setAside: string | null = null;
  let target;
  if (hasKeyFile(context.dataFolder)) {
    // The passphrase of this key file is what was lost: it is kept aside (never deleted) and a
    // new one is made under the passphrase given now.
    const old = keyFileOf(context.dataFolder);
    setAside = `${old}.lost-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(old, setAside);
    try {
      target = { store: await openKeyFile(context.dataFolder, source), where: 'a new key file' };
    } catch (error) {
      renameSync(setAside, old);
      throw error;
    }
  } else {
    const opened = await openDataFolderSecrets(context.dataFolder, source);
    target = { store: opened.store, where: opened.where.kind === 'keychain' ? 'the keychain' : 'a new key file' };
  }
  for (const [account, value] of keys) await target.store.set(account, value);
  const recovered = [...keys.keys()].map(describe);
  if (context.arguments.json) {
    context.printJson({ recovered: [...keys.keys()], into: target.where, oldKeyFile: setAside });
  } else {
    context.print(
      `Recovered ${String(keys.size)} keys (${recovered.join(', ')}) into ${target.where}. ` +
        'Start Ledgerdesk again: the record opens as it was.' +
        (setAside === null
          ? ''
          : ` The old key file is kept as ${setAside}; the profiles' secrets were in it and must be entered again.`),
    );
  }
  return 0;
}
