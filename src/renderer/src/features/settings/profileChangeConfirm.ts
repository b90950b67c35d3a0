/**
 * The two profile changes main refuses without an explicit yes: a base URL on another origin
 * (the stored secret is dropped, never sent to the new host) and switching the Production
 * guard off (writes stop asking; the switch is audited). Asked one after the other with the
 * app's confirm dialog; resolves with the confirmation fields to send, or null when the user
 * said no to either.
 */
import type { Profile } from '../../../../shared/ipc/index.ts';
import { originOf } from '../../../../shared/profiles/profileFields.ts';
import { useConfirmStore } from '../../stores/confirm.ts';

export interface ProfileChangeConfirmations {
  confirmSecretDrop?: true;
  confirmProduction?: true;
}

export async function confirmProfileChange(
  profile: Profile,
  next: { baseUrl: string; production: boolean },
  newSecretTyped: boolean,
): Promise<ProfileChangeConfirmations | null> {
  const confirmations: ProfileChangeConfirmations = {};
  const ask = useConfirmStore.getState().ask;
  const from = originOf(profile.baseUrl);
  const to = originOf(next.baseUrl.trim());
  if (profile.kind === 'remote' && from !== to) {
    const yes = await ask({
      title: 'Drop the stored secret?',
      body:
        `${profile.name} will point at ${to ?? next.baseUrl}. Its secret was entered for ${from ?? profile.baseUrl} ` +
        'and is never sent to another address: it is dropped now. ' +
        (newSecretTyped
          ? 'The secret you typed is stored for the new address.'
          : 'The profile makes no call, not even a connection check, until you enter the secret for the new address.'),
      confirmLabel: 'Change the address',
      tone: 'danger',
      production: profile.production,
    });
    if (!yes) return null;
    confirmations.confirmSecretDrop = true;
  }
  if (profile.production && !next.production) {
    const yes = await ask({
      title: 'Switch the Production guard off?',
      body:
        `Writes to ${profile.name} will go to the bank without asking first, and the red banner goes. ` +
        'The switch is recorded in the audit log.',
      confirmLabel: 'Switch the guard off',
      tone: 'danger',
      production: true,
    });
    if (!yes) return null;
    confirmations.confirmProduction = true;
  }
  return confirmations;
}
