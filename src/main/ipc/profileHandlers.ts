/**
 * Handlers of the `profiles` domain: the banks the user works with, which one is active, and
 * the guards on changing them (the auth scheme stays, switching the Production guard off and
 * moving a profile to another host need a confirmation).
 */
import type { Profile as ContractProfile } from '../../shared/ipc/domains/profiles.ts';
import { maskedBaseUrl, originOf } from '../../shared/profiles/profileFields.ts';
import type { Profile as ServiceProfile } from '../services/profiles/profile.ts';
import { EMBEDDED_SANDBOX_PROFILE_ID, profileAttention } from '../services/profiles/profile.ts';
import { confirmProductionWrite } from '../services/profiles/profiles.ts';
import { credentialStatus, publishCredentialStatus } from './credentialHandlers.ts';
import type { Handlers } from './handlerTypes.ts';
import { ledgerOf, recordAction, type LedgerHandlerServices } from './ledgerAccess.ts';
import { IpcFailure } from './serviceErrors.ts';

export function createProfileHandlers(services: LedgerHandlerServices): Pick<Handlers, 'profiles'> {
  const ledger = () => ledgerOf(services);

  function toProfile(profile: ServiceProfile): ContractProfile {
    const attention = profileAttention(profile);
    return {
      id: profile.id,
      name: profile.name,
      kind: profile.kind === 'embedded-sandbox' ? 'embedded' : 'remote',
      baseUrl: maskedBaseUrl(profile.baseUrl ?? services.sandboxUrl() ?? ''),
      authScheme: profile.authScheme,
      keyId: profile.keyId,
      production: profile.production,
      createdAt: profile.createdAt,
      updatedAt: profile.updatedAt,
      attention:
        attention !== null
          ? { kind: 'needs-attention', message: `${attention} Give it an https:// address, or remove it.` }
          : profile.secretDropped !== undefined
            ? {
                kind: 'needs-secret-again',
                message: `${profile.name} needs its secret again: ${profile.secretDropped}. Nothing is sent until it is entered.`,
              }
            : null,
    };
  }

  function profileList() {
    const profiles = ledger().profiles.list();
    const wanted = services.activeProfile.get();
    const active = profiles.find((profile) => profile.id === wanted) ?? profiles[0];
    return { profiles: profiles.map(toProfile), activeProfileId: active?.id ?? null };
  }

  return {
    profiles: {
      list: () => profileList(),
      create: (input) => {
        const added = ledger().profiles.addRemote({
          name: input.name,
          baseUrl: input.baseUrl,
          authScheme: input.authScheme,
          ...(input.keyId === undefined ? {} : { keyId: input.keyId }),
          production: input.production,
        });
        recordAction(ledger(), added.id, 'profile.add', added.id);
        return toProfile(added);
      },
      update: async (input) => {
        const current = ledger().profiles.find(input.id);
        if (input.authScheme !== undefined && input.authScheme !== current.authScheme) {
          throw new IpcFailure(
            'invalid_input',
            'The auth scheme of a profile cannot change: add a new profile instead.',
            {
              field: 'authScheme',
            },
          );
        }
        if (input.keyId === null) {
          throw new IpcFailure('invalid_input', 'keyId: a Basic profile needs its API key id.', { field: 'keyId' });
        }
        if (current.production && input.production === false && input.confirmProduction !== true) {
          throw new IpcFailure(
            'confirmation_required',
            `Switching the Production guard off for ${current.name} lets writes go out without a confirmation.`,
            { field: 'confirmProduction', action: 'Confirm that you mean to switch the guard off, then save again.' },
          );
        }
        if (current.production && input.production === false) {
          // The page's flag, then main's own question (the native dialog, or web mode's code on its
          // terminal): switching the guard off would let every later write go unasked.
          await confirmProductionWrite(
            current,
            'profile.update (Production guard off)',
            current.name,
            true,
            ledger().writeConfirmer,
          );
        }
        const movesOrigin =
          current.kind === 'remote' &&
          input.baseUrl !== undefined &&
          originOf(input.baseUrl) !== (current.baseUrl === null ? null : originOf(current.baseUrl));
        if (movesOrigin && input.confirmSecretDrop !== true) {
          throw new IpcFailure(
            'confirmation_required',
            `A new address for ${current.name} drops its stored secret: it is never sent to another host.`,
            { field: 'confirmSecretDrop', action: 'Confirm, then enter the secret for the new address.' },
          );
        }
        const { profile: updated } = await ledger().updateProfile(current.id, {
          ...(input.name === undefined ? {} : { name: input.name }),
          ...(input.baseUrl === undefined ? {} : { baseUrl: input.baseUrl }),
          ...(input.keyId === undefined ? {} : { keyId: input.keyId }),
          ...(input.production === undefined ? {} : { production: input.production }),
        });
        if (movesOrigin) publishCredentialStatus(services, await credentialStatus(services, updated.id));
        return toProfile(updated);
      },
      remove: async ({ id }) => {
        const profile = ledger().profiles.find(id);
        if (profile.kind === 'embedded-sandbox') {
          throw new IpcFailure('conflict', 'The embedded sandbox profile is built in and cannot be removed.');
        }
        await ledger().removeProfile(profile.id);
        if (services.activeProfile.get() === profile.id) services.activeProfile.set(EMBEDDED_SANDBOX_PROFILE_ID);
        return { removed: true };
      },
      setActive: ({ id }) => {
        services.activeProfile.set(ledger().profiles.find(id).id);
        return profileList();
      },
      testConnection: async ({ id }) => {
        const profile = ledger().profiles.find(id);
        const started = performance.now();
        try {
          await ledger().clients.clientFor(profile.id).checkConnection();
          return {
            profileId: profile.id,
            ok: true,
            latencyMs: Math.round(performance.now() - started),
            message: 'Connected.',
          };
        } catch (error) {
          return {
            profileId: profile.id,
            ok: false,
            latencyMs: null,
            message: error instanceof Error ? error.message : 'The bank did not answer.',
          };
        }
      },
    },
  };
}
