/**
 * `ledger profile update NAME [--base-url URL] [--name NEW] [--production|--no-production]`,
 * with an optional new secret on standard input.
 *
 * A new base URL on another origin (scheme, host or port) drops the stored secret: it is
 * never sent to the new host. A secret piped in (or typed at the prompt on a terminal) is
 * stored for the new origin; without one the profile waits, making no call, until the same
 * command is run with the secret on standard input. Piping a secret with no option re-enters
 * it for a waiting profile.
 */
import type { LedgerServices } from '../../services/ledgerServices.ts';
import { describeProfile, type ProfileChanges } from '../../services/profiles/profile.ts';
import { originOf } from '../../../shared/profiles/profileFields.ts';
import { UsageError } from '../common/usageError.ts';
import type { CommandContext } from './triggerCommand.ts';
import { readOptionalSecret, type SecretInput } from './readSecret.ts';

export interface ProfileUpdateContext extends Pick<CommandContext, 'arguments' | 'open' | 'print' | 'printJson'> {
  stdin: SecretInput['stdin'];
  /** Where prompts go (standard error, so standard output stays the answer). */
  prompt: SecretInput['prompt'];
}

export async function profileUpdate(context: ProfileUpdateContext): Promise<number> {
  const { options, name, json } = context.arguments;
  const changes: ProfileChanges = {
    ...(typeof options.name === 'string' ? { name: options.name } : {}),
    ...(typeof options['base-url'] === 'string' ? { baseUrl: options['base-url'] } : {}),
    ...(typeof options.production === 'boolean' ? { production: options.production } : {}),
    ...(typeof options.lean === 'boolean' ? { lean: options.lean } : {}),
  };
  const services = await context.open();
  const current = services.profiles.find(name ?? '');
  if (current.kind === 'embedded-sandbox' && changes.baseUrl !== undefined) {
    throw new UsageError('The embedded sandbox chooses its own address; only its name can change.');
  }
  const what = current.authScheme === 'bearer' ? 'Bearer token' : 'API key secret';
  const newOrigin = changes.baseUrl === undefined ? null : originOf(changes.baseUrl.trim());
  const movesOrigin = changes.baseUrl !== undefined && newOrigin !== originOf(current.baseUrl ?? '');
  const waiting =
    current.kind === 'remote' &&
    (movesOrigin || current.secretDropped !== undefined || (await secretWaits(services, current.id)));
  // Piped input is always read (it may be the secret for a waiting profile); a terminal is
  // prompted only when the profile will need its secret, and Enter leaves it waiting.
  const secret =
    context.stdin.isTTY === true && !waiting
      ? ''
      : await readOptionalSecret(
          { stdin: context.stdin, prompt: context.prompt },
          `${what} for ${newOrigin ?? originOf(current.baseUrl ?? '') ?? current.name} (Enter to leave the profile waiting)`,
        );
  if (Object.keys(changes).length === 0 && secret === '') {
    throw new UsageError(
      current.kind === 'embedded-sandbox'
        ? '`profile update` of the embedded sandbox needs --name, or --lean or --no-lean.'
        : '`profile update` needs --base-url, --name, --production or --no-production, or a secret on standard input.',
    );
  }
  if (current.kind === 'embedded-sandbox' && secret !== '') {
    throw new UsageError('The embedded sandbox uses its own key; it has no secret to set.');
  }
  const result =
    Object.keys(changes).length === 0
      ? { profile: await services.setProfileSecret(current.id, secret), waitingForSecret: false }
      : await services.updateProfile(current.id, changes, secret === '' ? null : secret);
  if (json) {
    context.printJson(result);
    return 0;
  }
  const lines = [`Updated profile ${describeProfile(result.profile)}.`];
  if (changes.lean !== undefined) {
    lines.push(
      `It answers in ${changes.lean ? "the real service's lean shapes" : 'its own full shapes'} from its next start.`,
    );
  }
  if (movesOrigin) lines.push(`Its old ${what.toLowerCase()} was dropped: it is never sent to the new address.`);
  if (result.waitingForSecret) {
    lines.push(
      `It needs its secret again and makes no call until then: printf %s "$SECRET" | ledger profile update ${JSON.stringify(result.profile.name)}`,
    );
  } else if (secret !== '') {
    lines.push(
      `Its new ${what.toLowerCase()} is in the keychain, for ${originOf(result.profile.baseUrl ?? '') ?? ''}.`,
    );
  }
  context.print(lines.join('\n'));
  return 0;
}

/** A secret stored for another origin or scheme (or before secrets were bound) waits too. */
async function secretWaits(services: LedgerServices, profileId: string): Promise<boolean> {
  return (await services.credentials.profileSecretState(services.profiles.find(profileId))) !== 'set';
}
