/**
 * Credentials in the OS keychain: whether a profile's secret is set, set or replace it,
 * delete it. A secret goes in through `set` and never comes back out.
 */
import { z } from 'zod';
import { noInput, profileId } from '../common.ts';

/** The longest secret accepted (API key secrets and JWTs are far shorter). */
export const SECRET_MAX = 16_384;

/**
 * `needs-reentry`: a secret is stored, but for another origin or auth scheme than the
 * profile has now (or from before secrets were bound): it is never sent; enter it again.
 */
const CREDENTIAL_STATES = ['set', 'missing', 'needs-reentry', 'unavailable'] as const;

const keychainStatus = z.object({
  available: z.boolean(),
  /** The keychain in use, in words ("GNOME Keyring (Secret Service)", "macOS Keychain"). */
  backend: z.string(),
  /** When unavailable: what is wrong, in a sentence. */
  problem: z.string().nullable(),
  /** When unavailable: what to install or start. */
  remedy: z.string().nullable(),
});
export type KeychainStatus = z.infer<typeof keychainStatus>;

const credentialStatus = z.object({
  profileId: z.string(),
  /** `unavailable`: the keychain cannot be used, so whether a secret is set is unknown. */
  state: z.enum(CREDENTIAL_STATES),
  message: z.string().nullable(),
});
export type CredentialStatus = z.infer<typeof credentialStatus>;

export const credentialsOperations = {
  status: { input: z.strictObject({ profileId }), output: credentialStatus },
  /** Keychain diagnostics for the settings screen. */
  keychain: { input: noInput, output: keychainStatus },
  set: {
    input: z.strictObject({
      profileId,
      secret: z
        .string()
        .min(1, { message: 'must not be empty' })
        .max(SECRET_MAX, { message: `must be at most ${SECRET_MAX} characters` }),
    }),
    output: credentialStatus,
  },
  delete: { input: z.strictObject({ profileId }), output: credentialStatus },
} as const;

export const credentialsEvents = {
  /** A profile's credential changed (set, deleted) or the keychain became (un)available. */
  status: credentialStatus,
} as const;
