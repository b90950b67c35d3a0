/**
 * Handlers of the `credentials` domain: whether a profile's secret is stored (never the secret
 * itself), the keychain's state, and setting or deleting a secret. Every change is published,
 * so each window shows the new state.
 */
import type { CredentialStatus, KeychainStatus as ContractKeychain } from '../../shared/ipc/domains/credentials.ts';
import type { Handlers } from './handlerTypes.ts';
import { ledgerOf, recordAction, type LedgerHandlerServices } from './ledgerAccess.ts';
import { IpcFailure } from './serviceErrors.ts';

export async function credentialStatus(services: LedgerHandlerServices, profileId: string): Promise<CredentialStatus> {
  const ledger = ledgerOf(services);
  const profile = ledger.profiles.find(profileId);
  if (profile.kind === 'embedded-sandbox') {
    return { profileId: profile.id, state: 'set', message: 'The embedded sandbox uses its own demo key.' };
  }
  const keychain = await services.keychain();
  if (!keychain.available) return { profileId: profile.id, state: 'unavailable', message: keychain.message };
  const state = await ledger.credentials.profileSecretState(profile);
  const what = profile.authScheme === 'bearer' ? 'token' : 'API key secret';
  const messages = {
    set: null,
    missing:
      profile.secretDropped === undefined
        ? `No ${what} is stored for ${profile.name}.`
        : `${profile.name} needs its ${what} again: ${profile.secretDropped}.`,
    'needs-reentry': `${profile.name} needs its ${what} again: the stored one was entered for another address or scheme, and is never sent.`,
  };
  return { profileId: profile.id, state, message: messages[state] };
}

export function publishCredentialStatus(services: LedgerHandlerServices, status: CredentialStatus): CredentialStatus {
  services.publisher?.publish('credentials', 'status', status);
  return status;
}

export function createCredentialHandlers(services: LedgerHandlerServices): Pick<Handlers, 'credentials'> {
  return {
    credentials: {
      status: ({ profileId }) => credentialStatus(services, profileId),
      keychain: async (): Promise<ContractKeychain> => {
        const status = await services.keychain();
        return status.available
          ? { available: true, backend: status.backend, problem: null, remedy: null }
          : { available: false, backend: status.problem, problem: status.message, remedy: status.remedy };
      },
      set: async ({ profileId, secret }) => {
        const ledger = ledgerOf(services);
        const profile = ledger.profiles.find(profileId);
        if (profile.kind === 'embedded-sandbox') {
          throw new IpcFailure('conflict', 'The embedded sandbox uses its own demo key; it has no secret to set.');
        }
        await ledger.setProfileSecret(profile.id, secret);
        services.rememberSecret?.(secret);
        return publishCredentialStatus(services, await credentialStatus(services, profile.id));
      },
      delete: async ({ profileId }) => {
        const ledger = ledgerOf(services);
        const profile = ledger.profiles.find(profileId);
        await ledger.credentials.deleteProfileSecret(profile.id);
        ledger.clients.forget(profile.id);
        recordAction(ledger, profile.id, 'credentials.delete', profile.id);
        return publishCredentialStatus(services, await credentialStatus(services, profile.id));
      },
    },
  };
}
